/**
 * SIGKILL of the replica running an alert evaluation or an async job, with three (alerts) or two
 * (jobs) `pivotbot start` processes on one PostgreSQL database: another replica finishes the work
 * once (a scheduled step once its job heartbeat lapses, an async job once its lease does). The alert replica dies right after posting the first incident's parent
 * (not yet recorded): the slot is handed over through the job queue, and the next attempt finds
 * that parent in the channel's history, so each incident has one parent. The job replica dies while
 * the Reporting Service's job runs: the other adopts it and uploads the CSV once.
 */
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningSandbox, startSandbox } from '../../../src/sandbox/index.js';
import { freshDatabase, stopTestPostgres } from '../../support/postgres.js';
import { spendWatchReport, writeReports } from '../../support/scheduledReports.js';
import { postSigned, slashCommandBody } from '../../support/slackRequests.js';
import { SlackTestServer, type StoredMessage } from '../../support/slackTestServer.js';
import {
  eventually,
  HEARTBEAT_SECONDS,
  killReplica,
  type Replica,
  SIGNING_SECRET,
  sleep,
  sql,
  startReplica,
  stopReplica,
} from './replicaHarness.js';

const LEASE_SECONDS = 2;
const CHANNEL = 'C0GENERAL1';

afterAll(stopTestPostgres);

describe('SIGKILL of a replica mid-work', () => {
  let slack: SlackTestServer;
  let dir: string;
  const replicas: Replica[] = [];
  const sandboxes: RunningSandbox[] = [];

  beforeAll(async () => {
    slack = await new SlackTestServer().start();
    dir = await mkdtemp(join(tmpdir(), 'pivotbot-replica-kills-'));
  });

  afterEach(async () => {
    for (const replica of replicas.splice(0)) await killReplica(replica);
    for (const sandbox of sandboxes.splice(0)) await sandbox.stop();
  });

  afterAll(async () => {
    await slack?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  async function start(count: number, env: { sandbox: RunningSandbox; reports: string; store: string }) {
    const started = Array.from({ length: count }, () => startReplica({ slack, ...env, leaseSeconds: LEASE_SECONDS }));
    replicas.push(...started);
    for (const replica of started) {
      if ((await replica.port) === 0)
        throw new Error(`${replica.name} exited:\n${replica.lines.slice(-10).join('\n')}`);
    }
    return started;
  }

  it('finishes an alert evaluation whose replica died after its first parent, with one parent per incident', async () => {
    const sandbox = await startSandbox({ port: 0, scale: 'small' });
    sandboxes.push(sandbox);
    const reports = await writeReports(join(dir, 'alerts'), {
      'spend-watch': spendWatchReport({ channel: CHANNEL, above: 0 }),
    });
    const store = await freshDatabase('pivotbot_kill_alert');
    const three = await start(3, { sandbox, reports, store });
    const parents = (): StoredMessage[] =>
      slack.messages.filter((m) => m.metadata?.event_type === 'pivotbot_alert' && m.threadTs === undefined);

    const victim = await new Promise<{ replica: Replica; slot: string }>((resolve) => {
      for (const replica of three) {
        replica.onLine = (line) => {
          if (!line.includes('"msg":"alert parent posted"')) return;
          replica.child.kill('SIGKILL');
          for (const r of three) delete r.onLine;
          // The slot it was evaluating: its last claim.
          const claimed = replica.lines.filter((l) => l.includes('"msg":"alert slot claimed"')).at(-1) ?? '{}';
          resolve({ replica, slot: String((JSON.parse(claimed) as { slot?: string }).slot) });
        };
      }
    });
    await victim.replica.exited;
    // Every platform's incident opened, each with one parent: the survivors posted the rest.
    const entities = async () =>
      (await sql<{ n: number }>(store, 'SELECT count(*)::int AS n FROM pivotbot_incidents'))[0]?.n ?? 0;
    let incidents = 0;
    await eventually(
      () => {
        void entities().then((n) => {
          incidents = n;
        });
        return incidents >= 2 && parents().length >= incidents;
      },
      HEARTBEAT_SECONDS * 1_000 + 30_000,
      'every incident with its parent',
    );
    // The killed slot is handed over once its job heartbeat lapses (the later slots may have posted the parents first).
    const killedRuns = () =>
      sql<{ attempt: number; status: string }>(
        store,
        `SELECT (body->>'attempt')::int AS attempt, status FROM pivotbot_runs WHERE idempotency_key = $1 ORDER BY 1`,
        [`alert:spend-watch:spend-high:${victim.slot}`],
      );
    let handedOver = false;
    await eventually(
      () => {
        void killedRuns().then((rows) => {
          handedOver = rows.some((r) => r.status === 'succeeded');
        });
        return handedOver;
      },
      HEARTBEAT_SECONDS * 1_000 + 30_000,
      'the killed slot finished by another replica',
    );
    for (const replica of three) await stopReplica(replica);

    const perEntity = new Map<string, number>();
    for (const m of parents()) {
      const entity = String(m.metadata?.event_payload.entity);
      perEntity.set(entity, (perEntity.get(entity) ?? 0) + 1);
    }
    expect([...perEntity.values()].every((n) => n === 1)).toBe(true);
    expect(perEntity.size).toBe(await entities());
    // The killed slot: its claim failed by the replica that took it over, whose attempt finished it.
    expect(await killedRuns()).toEqual([
      { attempt: 1, status: 'failed' },
      { attempt: 2, status: 'succeeded' },
    ]);
  }, 120_000);

  it('delivers the CSV of an async job once when the replica that started it is SIGKILLed', async () => {
    const sandbox = await startSandbox({ port: 0, scale: 'small', faults: { asyncStepMs: 1_500 } });
    sandboxes.push(sandbox);
    const reports = join(dir, 'jobs');
    await writeReports(reports, {});
    await copyFile('reports/site-bundle-quality.yaml', join(reports, 'reports', 'site-bundle-quality.yaml'));
    const store = await freshDatabase('pivotbot_kill_job');
    const [first, second] = await start(2, { sandbox, reports: join(reports, 'reports'), store });
    const answer = await postSigned(
      `http://127.0.0.1:${await (first as Replica).port}/slack/events`,
      slashCommandBody({ text: 'run site-bundle-quality', responseUrl: slack.responseUrl('kill-job') }),
      { signingSecret: SIGNING_SECRET },
    );
    expect(answer.status).toBe(200);
    const activeJob = async () =>
      (
        await sql<{ id: string; thread: string | null; status: string }>(
          store,
          "SELECT key AS id, body->>'threadTs' AS thread, body->>'status' AS status FROM pivotbot_jobs",
        )
      )[0];
    const deadline = Date.now() + 20_000;
    let job = await activeJob();
    while (!job?.thread) {
      if (Date.now() > deadline)
        throw new Error(`no job with a thread:\n${(first as Replica).lines.slice(-10).join('\n')}`);
      await sleep(100);
      job = await activeJob();
    }
    // Mid-job: the Reporting Service's job takes 1.5 s a step.
    await killReplica(first as Replica);
    await eventually(
      () => slack.callsTo('files.completeUploadExternal').some((c) => c.args.thread_ts === job?.thread),
      LEASE_SECONDS * 1_000 + 20_000,
      'the CSV uploaded by the other replica',
    );
    await sleep(2_000);
    await stopReplica(second as Replica);
    const uploads = slack.callsTo('files.completeUploadExternal').filter((c) => c.args.thread_ts === job?.thread);
    expect(uploads).toHaveLength(1);
    expect((await activeJob())?.status).toBe('succeeded');
    expect((second as Replica).lines.some((l) => l.includes('adopting async jobs and runs of a stopped replica'))).toBe(
      true,
    );
  }, 90_000);
});
