/**
 * Applies planted causes to the fact table itself, so every rollup the sandbox serves (any
 * dimension, hourly or daily, cohorts, totals, async CSVs) reads the same planted facts and the
 * ratio metrics follow from them.
 *
 * How: the facts a plant matches are found with the same column SQL the API groups by; their
 * original values are kept in `plant_originals` (only rows some plant touched); each replace
 * restores those rows and multiplies again from the originals, in one transaction, so readers see
 * either the old plants or the new ones and `[]` gives back the generated data exactly.
 *
 * Counts stay whole numbers without drifting: within the rows one set of plants matches (in the
 * facts' stored order, the same on every run: see INSERT_FACTS_SQL), a count's new values are the
 * differences of the rounded running sum of `original × factor`, so the
 * segment's total is the exact product rounded once, and each row gets the floor or the ceiling of
 * its own product (a row of 1 install × 0.4 becomes 0 or 1, not always 0). Mobile and CTV rows,
 * and attributed and assisted conversions, are rounded apart: a default (mobile) pivot of the
 * segment's installs shows round(factor × original) exactly.
 */
import { ConfigError, didYouMean, ErrorCode, suggest, UserInputError } from '../core/index.js';
import type { SandboxDb } from './db.js';
import { checkPlants, type DataSpan, type Plant, type PlantMetric, plantDays } from './plants.js';
import { DIMENSION_COLUMNS } from './sql/dimensionSql.js';
import { type JoinName, joinClauses } from './sql/joins.js';
import { SqlParams, type SqlValue } from './sql/SqlParams.js';

/** The plants in force and how many fact rows each matched. */
export interface PlantsState {
  plants: Plant[];
  /** Fact rows each plant matched (delivery rows for impressions, clicks and spend; conversion rows otherwise). */
  matchedFacts: number[];
}

const METRIC: Readonly<Record<PlantMetric, { code: number; kind: number }>> = {
  impressions: { code: 1, kind: 0 },
  clicks: { code: 2, kind: 0 },
  spend: { code: 3, kind: 0 },
  installs: { code: 4, kind: 1 },
  events: { code: 5, kind: 2 },
};

const SETUP_SQL = `
CREATE TABLE IF NOT EXISTS plant_originals (rid BIGINT, ts TIMESTAMPTZ, channel UTINYINT, kind UTINYINT, assisted BOOLEAN,
  impressions INTEGER, uniq_imps INTEGER, viewable INTEGER, clicks INTEGER, uniq_clicks INTEGER, spend DOUBLE,
  cnt INTEGER, uniq INTEGER, revenue DOUBLE);
CREATE TABLE IF NOT EXISTS plant_hits (rid BIGINT, plant INTEGER, metric UTINYINT, factor DOUBLE, ts TIMESTAMPTZ,
  channel UTINYINT, kind UTINYINT, assisted BOOLEAN, impressions INTEGER, uniq_imps INTEGER, viewable INTEGER, clicks INTEGER,
  uniq_clicks INTEGER, spend DOUBLE, cnt INTEGER, uniq INTEGER, revenue DOUBLE);`;

const ORIGINAL_COLUMNS =
  'channel, kind, assisted, impressions, uniq_imps, viewable, clicks, uniq_clicks, spend, cnt, uniq, revenue';

/** The plants' product and which plants (a hash of their indexes) for one metric code, per fact row. */
function factorOf(name: string, metric: string): string {
  return `product(factor) FILTER (WHERE ${metric}) AS f_${name},
    bit_xor(hash(plant)) FILTER (WHERE ${metric}) AS s_${name}`;
}

/**
 * A whole-number column multiplied without drift: within the rows the same plants match (window
 * `w`; F is its first row's product, so one value even where a product's rounding depends on the
 * order of its factors), row i gets round(F·Cᵢ) − round(F·Cᵢ₋₁) with C the running sum of the
 * originals, so the rows add up to round(F·total) and each is the floor or ceiling of F·xᵢ.
 */
function scaledCount(column: string, name: string, w: string): { running: string; value: string } {
  const f = `g_${name}`;
  return {
    running: `sum(${column}) OVER ${w} AS c_${column}`,
    value: `CASE WHEN ${f} IS NULL OR ${column} IS NULL THEN ${column}
    ELSE (floor(${f} * c_${column} + 0.5) - floor(${f} * (c_${column} - ${column}) + 0.5))::INTEGER END AS ${column}`,
  };
}

const COUNTS = [
  scaledCount('impressions', 'imp', 'wi'),
  scaledCount('uniq_imps', 'imp', 'wi'),
  scaledCount('viewable', 'imp', 'wi'),
  scaledCount('clicks', 'clk', 'wc'),
  scaledCount('uniq_clicks', 'clk', 'wc'),
  scaledCount('cnt', 'cnv', 'wx'),
  scaledCount('uniq', 'cnv', 'wx'),
];

/**
 * The facts' new values: originals times the product of the factors of the plants matching them.
 * Counts are scaled within the rows matched by the same plants, per channel and with attributed and
 * assisted conversions apart, so each plant's segment keeps its exact total.
 */
const NEW_VALUES_SQL = `
WITH fac AS (
  SELECT rid, ${factorOf('imp', 'metric = 1')}, ${factorOf('clk', 'metric = 2')},
    ${factorOf('spd', 'metric = 3')}, ${factorOf('cnv', 'metric IN (4, 5)')}
  FROM plant_hits GROUP BY rid
), r AS (
  SELECT o.*, fac.* EXCLUDE (rid), ${COUNTS.map((c) => c.running).join(', ')},
    first_value(f_imp) OVER wi AS g_imp, first_value(f_clk) OVER wc AS g_clk, first_value(f_cnv) OVER wx AS g_cnv
  FROM plant_originals o JOIN fac USING (rid)
  WINDOW wi AS (PARTITION BY s_imp, channel ORDER BY rid), wc AS (PARTITION BY s_clk, channel ORDER BY rid),
    wx AS (PARTITION BY s_cnv, channel, assisted ORDER BY rid)
)
SELECT rid, ${COUNTS.map((c) => c.value).join(',\n  ')},
  CASE WHEN f_spd IS NULL THEN spend ELSE spend * f_spd END AS spend,
  CASE WHEN f_cnv IS NULL THEN revenue ELSE revenue * f_cnv END AS revenue
FROM r
UNION ALL BY NAME
SELECT rid, ${ORIGINAL_COLUMNS.replace('channel, kind, assisted, ', '')} FROM plant_originals ANTI JOIN fac USING (rid)`;

/** The column SQL of a dimension, as the API groups by it (siteBundle: NULL before its cut-off). */
function dimensionSql(name: string, siteBundleSince: string, params: SqlParams): { sql: string; joins: JoinName[] } {
  if (name === 'siteBundle') {
    return { sql: `CASE WHEN f.ts >= ${params.ref(siteBundleSince)}::TIMESTAMPTZ THEN s.bundle END`, joins: ['s'] };
  }
  const column = DIMENSION_COLUMNS[name];
  if (column === undefined) throw new Error(`no column for dimension ${name}`);
  return { sql: column.sql, joins: [...column.joins] };
}

/** `INSERT INTO plant_hits` for one plant: the facts it matches (rowid and values before this replace). */
export function plantHitsSql(
  plant: Plant,
  index: number,
  options: { today: string; siteBundleSince: string },
): { sql: string; params: SqlValue[] } {
  const params = new SqlParams();
  const joins = new Set<JoinName>();
  const [from, to] = plantDays(plant, options.today);
  const { code, kind } = METRIC[plant.metric];
  const conds = [
    `f.kind = ${kind}`,
    `f.ts >= ${params.ref(`${from} 00:00:00+00`)}::TIMESTAMPTZ`,
    `f.ts < ${params.ref(`${to} 00:00:00+00`)}::TIMESTAMPTZ`,
  ];
  for (const [name, value] of Object.entries(plant.where)) {
    const dim = dimensionSql(name, options.siteBundleSince, params);
    for (const j of dim.joins) joins.add(j);
    conds.push(`(${dim.sql})::VARCHAR = ${params.ref(value)}`);
  }
  const sql = `INSERT INTO plant_hits
SELECT f.rowid, ${index}, ${code}, ${params.ref(plant.factor)}::DOUBLE, f.ts, ${ORIGINAL_COLUMNS.replace(/(\w+)/g, 'f.$1')}
FROM facts f
${joinClauses(joins).join('\n')}
WHERE ${conds.join(' AND ')}`;
  const bound = params.finish(sql);
  return { sql: bound.sql, params: bound.values };
}

/**
 * The planted facts of one sandbox: `replace` swaps the plants in force, one replace at a time.
 *
 * @example const planted = await PlantedFacts.open(db, { span, siteBundleSince }); await planted.replace([plant]);
 */
export class PlantedFacts {
  private state: PlantsState = { plants: [], matchedFacts: [] };
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly db: SandboxDb,
    private readonly options: { span: DataSpan; siteBundleSince: string },
  ) {}

  static async open(db: SandboxDb, options: { span: DataSpan; siteBundleSince: string }): Promise<PlantedFacts> {
    await db.exec(SETUP_SQL);
    return new PlantedFacts(db, options);
  }

  current(): PlantsState {
    return { plants: [...this.state.plants], matchedFacts: [...this.state.matchedFacts] };
  }

  /**
   * Replaces the plants in force with `value` (one plant or a list; `[]` restores the generated
   * data). Throws `UserInputError` (code `PLANTS_INVALID`, every problem in `details.problems`)
   * and changes nothing when a plant is wrong.
   */
  replace(value: unknown): Promise<PlantsState> {
    const run = this.queue.then(() => this.replaceNow(value));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async replaceNow(value: unknown): Promise<PlantsState> {
    const { plants, problems } = checkPlants(value, this.options.span);
    if (problems.length > 0) throw plantsError(problems);
    const state = await this.db.withConnection(async (c) => {
      const run = async (sql: string, params: readonly SqlValue[] = []) =>
        params.length === 0 ? c.run(sql) : c.run(sql, [...params]);
      const rows = async (sql: string, params: readonly SqlValue[] = []) =>
        (await (params.length === 0 ? c.runAndReadAll(sql) : c.runAndReadAll(sql, [...params]))).getRowObjectsJson();
      await run('BEGIN TRANSACTION');
      try {
        await run('DELETE FROM plant_hits');
        for (const [i, plant] of plants.entries()) {
          const hits = plantHitsSql(plant, i, {
            today: this.options.span.today,
            siteBundleSince: this.options.siteBundleSince,
          });
          await run(hits.sql, hits.params);
        }
        const counts = new Map(
          (await rows('SELECT plant, count(*)::INTEGER AS n FROM plant_hits GROUP BY plant')).map((r) => [
            Number(r.plant),
            Number(r.n),
          ]),
        );
        const matchedFacts = plants.map((_, i) => counts.get(i) ?? 0);
        const at = (i: number) => (Array.isArray(value) ? `plants[${i}]` : 'plant');
        const valueProblems = await this.unknownValues(plants, matchedFacts, at, rows);
        if (valueProblems.length > 0) throw plantsError(valueProblems);
        // Keep the originals of newly touched rows: facts no plant touched still held them.
        await run(`INSERT INTO plant_originals
SELECT DISTINCT ON (rid) rid, ts, ${ORIGINAL_COLUMNS} FROM plant_hits
WHERE rid NOT IN (SELECT rid FROM plant_originals)`);
        const [bounds] = await rows(
          `SELECT strftime(min(ts), '%Y-%m-%d %H:%M:%S+00') AS lo, strftime(max(ts), '%Y-%m-%d %H:%M:%S+00') AS hi FROM plant_originals`,
        );
        if (bounds?.lo !== null && bounds?.lo !== undefined) {
          // The new values go into a table first, so the UPDATE joins plain rows; the ts bounds let
          // DuckDB skip the row groups no plant touches (the facts are sorted by time).
          await run(`CREATE OR REPLACE TEMP TABLE plant_values AS ${NEW_VALUES_SQL}`);
          await run(
            `UPDATE facts SET impressions = n.impressions, uniq_imps = n.uniq_imps, viewable = n.viewable,
  clicks = n.clicks, uniq_clicks = n.uniq_clicks, spend = n.spend, cnt = n.cnt, uniq = n.uniq, revenue = n.revenue
FROM plant_values n
WHERE facts.rowid = n.rid AND facts.ts >= $1::TIMESTAMPTZ AND facts.ts <= $2::TIMESTAMPTZ`,
            [String(bounds.lo), String(bounds.hi)],
          );
          await run('DROP TABLE plant_values');
        }
        // Rows no plant matches any more hold their originals again: forget them.
        await run('DELETE FROM plant_originals WHERE rid NOT IN (SELECT rid FROM plant_hits)');
        await run('COMMIT');
        return { plants, matchedFacts };
      } catch (error) {
        await run('ROLLBACK');
        throw error;
      }
    });
    this.state = state;
    return this.current();
  }

  /** For plants that match nothing: the dimension values that appear in no fact at all, with suggestions. */
  private async unknownValues(
    plants: readonly Plant[],
    matchedFacts: readonly number[],
    at: (index: number) => string,
    rows: (sql: string, params?: readonly SqlValue[]) => Promise<Record<string, unknown>[]>,
  ): Promise<string[]> {
    const problems: string[] = [];
    for (const [i, plant] of plants.entries()) {
      if (matchedFacts[i] !== 0) continue;
      for (const [name, value] of Object.entries(plant.where)) {
        const params = new SqlParams();
        const dim = dimensionSql(name, this.options.siteBundleSince, params);
        const from = `FROM facts f ${joinClauses(dim.joins).join(' ')}`;
        const probe = params.finish(
          `SELECT 1 AS hit ${from} WHERE (${dim.sql})::VARCHAR = ${params.ref(value)} LIMIT 1`,
        );
        if ((await rows(probe.sql, probe.values)).length > 0) continue;
        const all = params.finish(`SELECT DISTINCT (${dim.sql})::VARCHAR AS v ${from} WHERE (${dim.sql}) IS NOT NULL`);
        const known = (await rows(all.sql, all.values)).map((r) => String(r.v));
        const hint =
          didYouMean(suggest(value, known)) ||
          (known.length <= 20 ? ` Values: ${known.sort().join(', ')}.` : ` It has ${known.length} other values.`);
        problems.push(`${at(i)}.where.${name}: no fact has ${name} "${value}".${hint}`);
      }
    }
    return problems;
  }
}

function plantsError(problems: readonly string[]): UserInputError {
  return new UserInputError(ErrorCode.PlantsInvalid, problems.join('; '), { details: { problems } });
}

/** The same problems as a start-up error (`startSandbox({ plants })`, `pivotbot sandbox --plant`). */
export function plantsConfigError(error: unknown): unknown {
  if (error instanceof UserInputError && error.code === ErrorCode.PlantsInvalid) {
    const problems = (error.details.problems as string[] | undefined) ?? [error.message];
    return new ConfigError(problems.map((p) => `plants: ${p}`));
  }
  return error;
}
