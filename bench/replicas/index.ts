/**
 * bench/replicas: 1,000 digest schedules due the same instant (10 report files × 100 channels) on
 * one PostgreSQL database, run by 1 and then by 3 replicas (`botProcess.js` of bench/scheduler:
 * `startBot` in its own process), with the Slack test server enforcing Slack's per-method and
 * per-channel limits with 429s in windows shortened by `--factor=N` (default 10: 6 s windows, the
 * same counts per window). Digests without chart or CSV, on the `small` sandbox (`--medium` for
 * the larger one): the bench is about claims across replicas, not drawing.
 *
 * First the claims alone (1,000 slot keys claimed at once by N stores in this process), then,
 * per replica count: slot → last digest posted against the least time the rate limits
 * allow for the calls made (`paceLowerBoundMs`), runs claimed per second, duplicates, the most
 * database connections open at once (`pg_stat_activity`), and each replica's peak RSS.
 * `--replicas=1,3` chooses the counts. The database is an embedded PostgreSQL (test/support/postgres.ts)
 * unless `PIVOTBOT_TEST_POSTGRES_URL` names a server.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { silentLogger } from '../../src/core/index.js';
import { paceLowerBoundMs } from '../../src/slackapi/index.js';
import { openPostgresStore } from '../../src/store/postgres/index.js';
import { freshDatabase, stopTestPostgres } from '../../test/support/postgres.js';
import { spawnUntil } from '../support/spawnUntil.js';
import { fmt } from '../support/stats.js';

const SLACK_WINDOW_MS = 60_000;
const REPORTS = 10;
const CHANNELS = Array.from({ length: 100 }, (_, i) => `C0REPL${String(i).padStart(3, '0')}`);
/** The slot is this long after the replicas are started, so each has listed the schedules before it. */
const LEAD_MS = 40_000;

interface Ready {
  authUrl: string;
  graphqlUrl: string;
  clientId: string;
  clientSecret: string;
}

interface SlackSummary {
  digests: number;
  lastDigestMs?: number;
  calls: Record<string, number>;
  maxPostsPerChannel: number;
  rateLimited: Record<string, number>;
  duplicates: number;
}

const here = dirname(fileURLToPath(import.meta.url));

const stop = async (child: ChildProcess) => {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
};

function reportYaml(i: number, slot: Date): string {
  const cron = `${slot.getUTCSeconds()} ${slot.getUTCMinutes()} ${slot.getUTCHours()} * * *`;
  return `title: Replica digest ${i}
query:
  dimensions: [appPlatform]
  metrics: [impressions, spend, installs]
  range: yesterday
present:
  headline: [spend, installs]
mode: sync
schedule:
  cron: "${cron}"
  timezone: UTC
deliver:
  channels: [${CHANNELS.map((c) => `"${c}"`).join(', ')}]
  csv: false
`;
}

const SLOT = '2026-11-23T09:00:00.000Z';

/** The run keys of the 1,000 schedules (10 reports × 100 channels) at `slot`. */
const slotKeys = (slot: string): string[] =>
  CHANNELS.flatMap((channel) => Array.from({ length: REPORTS }, (_, i) => `digest:replica-${i}:${channel}:${slot}`));

/** `replicas` stores in this process, each with its own pool, listener, heartbeat and queue. */
const replicaStores = (url: string, replicas: number) =>
  Promise.all(
    Array.from({ length: replicas }, () =>
      openPostgresStore({ url, logger: silentLogger(), refreshIntervalMs: 0, replica: { leaseMs: 30_000 } }),
    ),
  );

async function query<T extends pg.QueryResultRow>(client: pg.Client, text: string, params: unknown[] = []) {
  return (await client.query<T>(text, params)).rows;
}

export async function run(args: readonly string[]): Promise<void> {
  const scale = args.includes('--medium') ? 'medium' : 'small';
  const factorFlag = args.find((a) => a.startsWith('--factor='));
  const factor = factorFlag ? Number(factorFlag.slice('--factor='.length)) : 10;
  const countsFlag = args.find((a) => a.startsWith('--replicas='));
  const counts = countsFlag ? countsFlag.slice('--replicas='.length).split(',').map(Number) : [1, 3];
  const windowMs = Math.round(SLACK_WINDOW_MS / factor);
  const bin = join(here, '..', '..', '..', 'bin', 'pivotbot.js');
  const sandbox = await spawnUntil<Ready>([bin, 'sandbox', '--scale', scale, '--port', '0'], process.env, (l) =>
    l.includes('"ready":true'),
  );
  console.log(`sandbox (${scale}) ready in ${fmt(sandbox.seconds)} s`);
  const dir = await mkdtemp(join(tmpdir(), 'pivotbot-bench-replicas-'));
  try {
    for (const replicas of counts) await rawClaims(replicas);
    for (const replicas of counts) await rawQueue(replicas);
    for (const replicas of counts) await once(replicas);
  } finally {
    await stop(sandbox.child);
    await rm(dir, { recursive: true, force: true });
    await stopTestPostgres();
  }

  /**
   * The claims alone, without Slack: `replicas` stores (in this process, each with its own pool,
   * listener and heartbeat) all claim the same 1,000 slot keys at once, as replicas planning the
   * same minute do; each key is started exactly once, and its lease written.
   */
  async function rawClaims(replicas: number): Promise<void> {
    const url = await freshDatabase('pivotbot_bench_claims');
    const stores = await replicaStores(url, replicas);
    try {
      const keys = slotKeys(SLOT);
      const began = performance.now();
      const outcomes = await Promise.all(
        stores.map(async (store) => {
          let won = 0;
          for (const key of keys) {
            const claim = await store.runs.start({
              report: 'bench',
              trigger: 'schedule',
              idempotencyKey: key,
              channel: 'C1',
            });
            if (claim.started) won++;
          }
          return won;
        }),
      );
      const ms = performance.now() - began;
      const attempts = keys.length * replicas;
      console.log(
        `claims alone, ${replicas} replica(s): ${attempts} claim attempts on ${keys.length} keys in ${fmt(ms / 1000, 2)} s → ${fmt((attempts * 1000) / ms, 0)} attempts/s, ${fmt((keys.length * 1000) / ms, 0)} slots claimed/s; won per replica ${outcomes.join(', ')} (sum ${outcomes.reduce((a, b) => a + b, 0)})`,
      );
    } finally {
      for (const store of stores) await store.close();
    }
  }

  /**
   * The job queue alone (pg-boss): `replicas` stores all send the same 1,000 slot jobs at once, as
   * replicas planning the same minute do (one job per key survives), then take them all from the
   * queue with their workers (4 each) and complete them with a no-op handler.
   */
  async function rawQueue(replicas: number): Promise<void> {
    const url = await freshDatabase('pivotbot_bench_queue');
    const stores = await replicaStores(url, replicas);
    try {
      const keys = slotKeys(SLOT);
      const began = performance.now();
      const sent = await Promise.all(
        stores.map(async (store) => {
          let created = 0;
          for (const key of keys) {
            const job = { scheduleId: key, slot: SLOT, late: false, tries: 1, waitedMs: 0 };
            if (await store.queue?.send(job, { key })) created++;
          }
          return created;
        }),
      );
      const sendMs = performance.now() - began;
      let handled = 0;
      const took = performance.now();
      await Promise.all(
        stores.map((store) =>
          store.queue?.work(4, async () => {
            handled++;
          }),
        ),
      );
      while (handled < keys.length && performance.now() - took < 120_000) await new Promise((r) => setTimeout(r, 20));
      const takeMs = performance.now() - took;
      console.log(
        `queue alone, ${replicas} replica(s): ${keys.length * replicas} sends of ${keys.length} keys in ${fmt(sendMs / 1000, 2)} s → ${fmt((keys.length * replicas * 1000) / sendMs, 0)} sends/s, jobs created ${sent.join(' + ')} = ${sent.reduce((a, b) => a + b, 0)}; ${handled} taken and completed in ${fmt(takeMs / 1000, 2)} s → ${fmt((handled * 1000) / takeMs, 0)} jobs/s`,
      );
    } finally {
      for (const store of stores) {
        await store.queue?.stop(5_000);
        await store.close();
      }
    }
  }

  async function once(replicas: number): Promise<void> {
    const children: ChildProcess[] = [];
    const url = await freshDatabase('pivotbot_bench_replicas');
    const database = new URL(url).pathname.slice(1);
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    let peakConnections = 0;
    try {
      const slackProcess = await spawnUntil<{ baseUrl: string; apiUrl: string; control: string }>(
        [join(here, '..', 'scheduler', 'slackProcess.js')],
        { ...process.env, BENCH_WINDOW_MS: String(windowMs), BENCH_CHANNELS: CHANNELS.join(',') },
        (l) => l.includes('"control"'),
      );
      children.push(slackProcess.child);
      const slack = slackProcess.value;
      const summary = async (): Promise<SlackSummary> =>
        (await (await fetch(`${slack.control}/wait?digests=0&timeoutMs=0`)).json()) as SlackSummary;

      const slot = new Date(Math.ceil((Date.now() + LEAD_MS) / 1000) * 1000);
      const reportsDir = join(dir, `reports-${replicas}`);
      await mkdir(reportsDir, { recursive: true });
      for (let i = 0; i < REPORTS; i++) await writeFile(join(reportsDir, `replica-${i}.yaml`), reportYaml(i, slot));
      const env = {
        ...process.env,
        SLACK_BOT_TOKEN: 'xoxb-bench',
        SLACK_SIGNING_SECRET: 'bench-signing-secret',
        SLACK_API_URL: slack.apiUrl,
        PORT: '0',
        REPORTING_AUTH_URL: sandbox.value.authUrl,
        REPORTING_GRAPHQL_URL: sandbox.value.graphqlUrl,
        REPORTING_CLIENT_ID: sandbox.value.clientId,
        REPORTING_CLIENT_SECRET: sandbox.value.clientSecret,
        PIVOTBOT_STORE: url,
        PIVOTBOT_REPORTS_DIR: reportsDir,
        PIVOTBOT_TIMEZONE: 'UTC',
        WORK_DIR: join(dir, `work-${replicas}`),
        BENCH_WINDOW_MS: String(windowMs),
      };
      const bots = await Promise.all(
        Array.from({ length: replicas }, () =>
          spawnUntil<{ port: number }>([join(here, '..', 'scheduler', 'botProcess.js')], env, (l) =>
            l.includes('"port"'),
          ),
        ),
      );
      children.unshift(...bots.map((b) => b.child));
      const wait = slot.getTime() - Date.now() - 1_000;
      if (wait < 0) throw new Error(`the replicas were ready ${fmt(-wait / 1000)} s too late; raise LEAD_MS`);
      await new Promise((r) => setTimeout(r, wait));
      const ask = <T>(child: ChildProcess, message: string) =>
        new Promise<T>((resolve) => {
          child.once('message', (m) => resolve(m as T));
          child.send(message);
        });
      await Promise.all(bots.map((b) => ask(b.child, 'mark')));
      const before = await summary();

      const sampler = setInterval(() => {
        void query<{ n: number }>(admin, 'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [
          database,
        ]).then(
          ([row]) => {
            peakConnections = Math.max(peakConnections, (row?.n ?? 1) - 1);
          },
          () => undefined,
        );
      }, 100);
      const expected = REPORTS * CHANNELS.length;
      const doneBy = Date.now() + 40 * windowMs + 240_000;
      let done = 0;
      while (Date.now() < doneBy) {
        const [row] = await query<{ n: number }>(
          admin,
          "SELECT count(DISTINCT idempotency_key)::int AS n FROM pivotbot_runs WHERE status IN ('succeeded', 'skipped') AND idempotency_key LIKE 'digest:%'",
        );
        done = row?.n ?? 0;
        if (done >= expected) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      clearInterval(sampler);
      const after = await summary();
      const peaks = await Promise.all(bots.map((b) => ask<{ peak: { rss: number } }>(b.child, 'read')));
      const [claims] = await query<{ n: number; first: string; last: string; attempts: number }>(
        admin,
        `SELECT count(*)::int AS n, min(body->>'startedAt') AS first, max(body->>'startedAt') AS last,
                max((body->>'attempt')::int) AS attempts
           FROM pivotbot_runs WHERE idempotency_key LIKE 'digest:%'`,
      );

      const delta: Record<string, number> = {};
      for (const [method, n] of Object.entries(after.calls)) {
        const made = n - (before.calls[method] ?? 0);
        if (made > 0) delta[method] = made;
      }
      const bound = paceLowerBoundMs(delta, { windowMs }, { 'chat.postMessage': after.maxPostsPerChannel });
      const toLastDigest = (after.lastDigestMs ?? Number.NaN) - slot.getTime();
      const claimSpanMs = Date.parse(claims?.last ?? '') - Date.parse(claims?.first ?? '');
      const limited429 = Object.values(after.rateLimited).reduce((a, b) => a + b, 0);
      console.log(
        `${replicas} replica(s): ${after.digests} digests of ${expected} schedules due ${slot.toISOString()} (${done} recorded done), duplicates ${after.duplicates}; Slack windows ${windowMs} ms (factor ${factor})`,
      );
      console.log(`  Web API calls: ${JSON.stringify(delta)}; 429s ${limited429}`);
      console.log(
        `  slot → last digest ${fmt(toLastDigest / 1000, 2)} s; rate-limit lower bound ${fmt(bound / 1000, 2)} s → ${fmt(toLastDigest / bound, 3)}×`,
      );
      console.log(
        `  runs claimed: ${claims?.n} (highest attempt ${claims?.attempts}) over ${fmt(claimSpanMs / 1000, 2)} s → ${fmt(((claims?.n ?? 0) * 1000) / Math.max(1, claimSpanMs), 1)} claims/s (paced by Slack: a claim is made when a pool place frees)`,
      );
      console.log(
        `  database connections at most: ${peakConnections} (≤ 11 per replica); peak RSS per replica: ${peaks.map((p) => `${fmt(p.peak.rss)} MiB`).join(', ')}`,
      );
    } finally {
      for (const child of children) await stop(child);
      await admin.end();
    }
  }
}
