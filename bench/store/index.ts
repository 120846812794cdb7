/**
 * Store benchmark: fsync'd write latency with 10,000 runs and 1,000 incidents stored, the file
 * size, and the start-up load time (lock + read + parse + migrate + validate).
 * Run: npx tsc -p tsconfig.build.json && node --expose-gc dist/bench/run.js store
 */
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '../../src/core/index.js';
import {
  type AlertIncident,
  decodeStoreText,
  emptyStoreData,
  openStore,
  type Run,
  type StoreData,
} from '../../src/store/index.js';
// Internals, imported only to show where a write's time goes.
import { serializeStore } from '../../src/store/lowDocument.js';
import { nodeStoreFs } from '../../src/store/storeFs.js';
import { writeFileDurably } from '../../src/store/writeFileDurably.js';
import { fmt, median, quantile } from '../support/stats.js';

const REPORTS = 50;
const RUNS_PER_REPORT = 200; // = the default history limit, so the store stays at 10,000 runs
const RULES = 100;
const INCIDENTS_PER_RULE = 10;
const ROUNDS = 400; // each round is one write, or two for a run (start + finish)
const OPENS = 15;

const T0 = Date.parse('2026-01-01T00:00:00.000Z');
const iso = (ms: number): string => new Date(ms).toISOString();
const channel = (r: number): string => `C${String(r).padStart(8, '0')}`;

/** A full store: 10,000 finished runs over 50 reports, 1,000 incidents (100 open) over 100 rules. */
function seedData(): StoreData {
  const data = emptyStoreData();
  for (let r = 0; r < REPORTS; r++) {
    const report = `report-${r}`;
    data.subscriptions.push({
      id: `sub_${r}`,
      report,
      channel: channel(r),
      createdBy: 'U01234567',
      createdAt: iso(T0),
      updatedAt: iso(T0),
    });
    data.schedules.push({ scheduleId: report, lastFireAt: iso(T0), updatedAt: iso(T0) });
    for (let i = 0; i < RUNS_PER_REPORT; i++) {
      const start = T0 + i * 3_600_000;
      const failed = i % 25 === 0;
      const run: Run = {
        id: `run_${r}_${i}`,
        report,
        trigger: 'schedule',
        scheduledFor: iso(start),
        idempotencyKey: `${report}@${iso(start)}`,
        attempt: 1,
        status: failed ? 'failed' : 'succeeded',
        subscriptionId: `sub_${r}`,
        channel: channel(r),
        startedAt: iso(start),
        finishedAt: iso(start + 2_345),
        durationMs: 2_345,
        ...(failed
          ? { error: { code: 'REPORTING_HTTP', message: 'POST /v1/graphql answered 503' } }
          : { messageTs: `${1_767_225_600 + i}.000${String(r).padStart(3, '0')}` }),
      };
      data.runs.push(run);
    }
  }
  for (let rule = 0; rule < RULES; rule++) {
    for (let i = 0; i < INCIDENTS_PER_RULE; i++) {
      const opened = T0 + i * 86_400_000;
      const open = i === INCIDENTS_PER_RULE - 1;
      const incident: AlertIncident = {
        id: `inc_${rule}_${i}`,
        ruleId: `rule-${rule}`,
        entityKey: `campaign=${1000 + i}|country=BR`,
        state: open ? 'open' : 'resolved',
        channel: 'C00000001',
        threadTs: `${1_767_225_600 + i}.000100`,
        values: Array.from({ length: 5 }, (_, v) => ({ at: iso(opened + v * 3_600_000), value: 4.2 + v / 10 })),
        openedAt: iso(opened),
        updatedAt: iso(opened + 4 * 3_600_000),
        ...(open ? {} : { resolvedAt: iso(opened + 4 * 3_600_000) }),
      };
      data.incidents.push(incident);
    }
  }
  return data;
}

async function loadTimes(path: string, text: string): Promise<void> {
  const decodeMs: number[] = [];
  const openMs: number[] = [];
  for (let i = 0; i < OPENS; i++) {
    let t = performance.now();
    decodeStoreText(text, path);
    decodeMs.push(performance.now() - t);
    globalThis.gc?.();
    t = performance.now();
    const store = await openStore({ path, logger: silentLogger() });
    openMs.push(performance.now() - t);
    await store.close();
  }
  console.log(
    `start-up load (openStore: lock + read + parse + validate + freeze): median ${fmt(median(openMs))} ms, ` +
      `max ${fmt(Math.max(...openMs))} ms (${OPENS} opens); parse + validate alone: median ${fmt(median(decodeMs))} ms`,
  );
}

async function writeBreakdown(dir: string): Promise<void> {
  const data = seedData();
  const serialiseMs: number[] = [];
  const diskMs: number[] = [];
  for (let i = 0; i < OPENS; i++) {
    let t = performance.now();
    const json = serializeStore(data);
    serialiseMs.push(performance.now() - t);
    t = performance.now();
    await writeFileDurably(join(dir, 'breakdown.json'), json, nodeStoreFs, { backup: true });
    diskMs.push(performance.now() - t);
  }
  console.log(
    `one write, broken down (medians): serialise ${fmt(median(serialiseMs))} ms + ` +
      `tmp write/fsync/link/rename/dir fsync ${fmt(median(diskMs))} ms`,
  );
}

async function writeLatencies(path: string): Promise<void> {
  const store = await openStore({ path, logger: silentLogger() });
  try {
    const latencies: number[] = [];
    const timed = async (write: () => Promise<unknown>): Promise<void> => {
      const t = performance.now();
      await write();
      latencies.push(performance.now() - t);
    };
    for (let i = 0; i < ROUNDS; i++) {
      const report = `report-${i % REPORTS}`;
      switch (i % 4) {
        case 0: {
          let id = '';
          await timed(async () => {
            id = (await store.runs.start({ report, trigger: 'manual', idempotencyKey: `bench-${i}` })).run.id;
          });
          await timed(() => store.runs.finish(id, { status: 'succeeded', messageTs: '1767225600.000100' }));
          break;
        }
        case 1: {
          const open = store.incidents.listOpen()[i % RULES];
          if (open !== undefined) await timed(() => store.incidents.update(open.id, { value: i }));
          break;
        }
        case 2:
          await timed(() => store.schedules.setLastFire(report, iso(T0 + i * 60_000)));
          break;
        default:
          await timed(() => store.subscriptions.add({ report, channel: `CX${i}`, createdBy: 'U1' }));
      }
    }
    console.log(
      `write latency (one change, awaited until fsync'd; ${latencies.length} sequential writes): ` +
        `p50 ${fmt(median(latencies))} ms, p99 ${fmt(quantile(latencies, 0.99))} ms, max ${fmt(Math.max(...latencies))} ms`,
    );

    const burst = 200;
    const t = performance.now();
    await Promise.all(
      Array.from({ length: burst }, (_, i) => store.schedules.setLastFire(`burst-${i}`, iso(T0 + i * 60_000))),
    );
    const burstMs = performance.now() - t;
    console.log(
      `burst of ${burst} concurrent writes (coalesced into few file writes): ${fmt(burstMs)} ms in all, ` +
        `${fmt((burstMs / burst) * 1000, 0)} µs per write`,
    );
  } finally {
    await store.close();
  }
}

export async function run(_args: readonly string[]): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'pivotbot-bench-store-'));
  const path = join(dir, 'pivotbot.json');
  try {
    const text = `${JSON.stringify(seedData())}\n`;
    await writeFile(path, text);
    console.log(
      `stored: ${REPORTS * RUNS_PER_REPORT} runs, ${RULES * INCIDENTS_PER_RULE} incidents, ${REPORTS} subscriptions; ` +
        `file size ${fmt(text.length / 1024 / 1024, 2)} MiB (${text.length} bytes, compact JSON)`,
    );
    await loadTimes(path, text);
    await writeBreakdown(dir);
    await writeLatencies(path);
    console.log(`file size after the writes: ${fmt((await stat(path)).size / 1024 / 1024, 2)} MiB`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
