/**
 * Generates the synthetic advertising world inside DuckDB, deterministically for a seed and
 * relative to `now` (yesterday always has data). All rows are produced by SQL.
 */
import type { SandboxDb } from '../db.js';
import { entitiesSql, macrosSql } from './entitiesSql.js';
import {
  ANOMALIES,
  CLEANUP_SQL,
  chunkSlotsSql,
  conversionsSql,
  DELIVERY_TABLE_SQL,
  deliverySql,
  FACTS_TABLE_SQL,
  INSERT_FACTS_SQL,
  slotsSql,
} from './factsSql.js';
import { postbacksSql } from './postbacksSql.js';

export type Scale = 'small' | 'medium' | 'large';

interface ScalePlan {
  days: number;
  rowsPerDay: number;
  advertisers: number;
  sites: number;
  ctvCampaigns: number;
  postbacksPerDay: number;
  postbackDays: number;
}

export const SCALES: Readonly<Record<Scale, ScalePlan>> = {
  small: {
    days: 100,
    rowsPerDay: 110,
    advertisers: 6,
    sites: 60,
    ctvCampaigns: 2,
    postbacksPerDay: 60,
    postbackDays: 40,
  },
  medium: {
    days: 400,
    rowsPerDay: 4400,
    advertisers: 40,
    sites: 1500,
    ctvCampaigns: 8,
    postbacksPerDay: 2000,
    postbackDays: 120,
  },
  large: {
    days: 400,
    rowsPerDay: 44000,
    advertisers: 80,
    sites: 5000,
    ctvCampaigns: 16,
    postbacksPerDay: 15000,
    postbackDays: 120,
  },
};

/** What the generator produced, for logs, the bench and tests. */
export interface GenerationInfo {
  scale: Scale;
  seed: number;
  /** The reference instant ("now") the data is relative to. */
  now: Date;
  /** First instant without data: the start of the current UTC hour. */
  dataEnd: Date;
  /** First instant with data (00:00 UTC, `days` days ago). */
  dataStart: Date;
  /** Start of the hourly data (00:00 UTC, 14 days before today). */
  hourlyStart: Date;
  factRows: number;
  postbackRows: number;
  millis: number;
  anomalies: typeof ANOMALIES;
}

const DAY_MS = 86_400_000;

function naive(d: Date): string {
  return d.toISOString().slice(0, 19).replace('T', ' ');
}

/** Builds every table. @example const info = await generateData(db, { scale: 'small', seed: 1, now: new Date() }); */
export async function generateData(
  db: SandboxDb,
  options: { scale: Scale; seed: number; now: Date },
): Promise<GenerationInfo> {
  const started = performance.now();
  const plan = SCALES[options.scale];
  const seed = Math.trunc(options.seed);
  const dataEnd = new Date(Math.floor(options.now.getTime() / 3_600_000) * 3_600_000);
  const today = new Date(Math.floor(dataEnd.getTime() / DAY_MS) * DAY_MS);
  const hourlyStart = new Date(today.getTime() - 14 * DAY_MS);
  const dataStart = new Date(today.getTime() - (plan.days - 1) * DAY_MS);
  const todayText = today.toISOString().slice(0, 10);

  await db.withConnection(async (c) => {
    await c.run(macrosSql(seed));
    await c.run(entitiesSql(plan, seed));
    const counts = (
      await c.runAndReadAll(
        `SELECT (SELECT count(*) FROM ads WHERE channel = 'MOBILE')::INTEGER AS m,
                (SELECT count(*) FROM ads WHERE channel = 'CTV')::INTEGER AS c,
                (SELECT count(*) FROM sites WHERE NOT ctv)::INTEGER AS s`,
      )
    ).getRowObjectsJson()[0] as { m: number; c: number; s: number };
    const factsPlan = {
      rowsPerDay: plan.rowsPerDay,
      hourlyRows: Math.ceil(plan.rowsPerDay / 6),
      dailyStart: naive(dataStart),
      hourlyStart: naive(hourlyStart),
      end: naive(dataEnd),
      today: todayText,
      mobileAds: counts.m,
      ctvAds: counts.c,
      mobileSites: counts.s,
    };
    await c.run(slotsSql(factsPlan));
    await c.run(DELIVERY_TABLE_SQL);
    await c.run(FACTS_TABLE_SQL);
    // About two million delivery rows per chunk (hourly days weigh four daily ones).
    const chunkDays = Math.max(1, Math.floor(2_000_000 / (plan.rowsPerDay * 4)));
    for (let start = dataStart.getTime(); start < dataEnd.getTime(); start += chunkDays * DAY_MS) {
      const end = Math.min(start + chunkDays * DAY_MS, dataEnd.getTime());
      await c.run(chunkSlotsSql(naive(new Date(start)), naive(new Date(end))));
      await c.run(deliverySql(factsPlan, 'MOBILE'));
      await c.run(deliverySql(factsPlan, 'CTV'));
      await c.run(conversionsSql());
      await c.run(INSERT_FACTS_SQL);
    }
    await c.run(CLEANUP_SQL);
    await c.run(
      postbacksSql({
        perDay: plan.postbacksPerDay,
        days: plan.postbackDays,
        today: todayText,
        apps: plan.advertisers * 2,
      }),
    );
  });
  const [row] = await db.query(
    `SELECT (SELECT count(*) FROM facts)::BIGINT AS f, (SELECT count(*) FROM postbacks)::BIGINT AS p`,
  );
  return {
    scale: options.scale,
    seed,
    now: options.now,
    dataEnd,
    dataStart,
    hourlyStart,
    factRows: Number(row?.f ?? 0),
    postbackRows: Number(row?.p ?? 0),
    millis: performance.now() - started,
    anomalies: ANOMALIES,
  };
}
