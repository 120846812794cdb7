/**
 * Three `pivotbot start` replicas on one PostgreSQL database (job heartbeats of 10 s), posting digests of
 * reports due every one or two seconds: every slot is posted once, spread over the three, through
 * a rolling restart of all three; a replica SIGKILLed right after claiming a slot has that slot
 * finished once by another once its heartbeat lapses; and with the database server stopped for 12 s (six
 * leases, and until a command sent during it was answered), commands answer "temporarily unavailable"
 * and every slot is caught up once it is back.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningSandbox, startSandbox } from '../../../src/sandbox/index.js';
import { databaseOutage, freshDatabase, stopTestPostgres } from '../../support/postgres.js';
import { secondsReport, writeReports } from '../../support/scheduledReports.js';
import { postSigned, slashCommandBody } from '../../support/slackRequests.js';
import { SlackTestServer } from '../../support/slackTestServer.js';
import {
  digestCounts,
  eventually,
  HEARTBEAT_SECONDS,
  killReplica,
  lostSlots,
  type Replica,
  SIGNING_SECRET,
  sleep,
  sql,
  startReplica,
  stopReplica,
} from './replicaHarness.js';

const LEASE_SECONDS = 2;
/** 12 s (six leases) in `npm test`; `PIVOTBOT_TEST_OUTAGE_MS=60000` runs the full minute (docs/benchmarks.md). */
const OUTAGE_MS = Number(process.env.PIVOTBOT_TEST_OUTAGE_MS ?? 12_000);
const EVERY_MS = { 'every-one': 1_000, 'every-two': 2_000, 'also-two': 2_000 };

afterAll(stopTestPostgres);

describe('three replicas on one PostgreSQL', () => {
  let slack: SlackTestServer;
  let sandbox: RunningSandbox;
  let dir: string;
  let reports: string;
  const replicas: Replica[] = [];

  beforeAll(async () => {
    slack = await new SlackTestServer().start();
    sandbox = await startSandbox({ port: 0, scale: 'small' });
    dir = await mkdtemp(join(tmpdir(), 'pivotbot-replicas-'));
    // No chart at all: the test is about claims, and drawing one per digest only costs time (a
    // replica stopping lets its digest in flight finish, chart and all).
    reports = await writeReports(dir, {
      'every-one': secondsReport({ title: 'Every second', channels: ['C0GENERAL1'], everySeconds: 1, chart: 'none' }),
      'every-two': secondsReport({ title: 'Every two', channels: ['C0MARKET01'], everySeconds: 2, chart: 'none' }),
      'also-two': secondsReport({ title: 'Also two', channels: ['C0GENERAL1'], everySeconds: 2, chart: 'none' }),
    });
  });

  afterEach(async () => {
    for (const replica of replicas.splice(0)) await killReplica(replica);
    slack.messages.splice(0);
  });

  afterAll(async () => {
    await sandbox?.stop();
    await slack?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  async function startThree(store: string): Promise<Replica[]> {
    const started = [0, 1, 2].map(() => startReplica({ slack, sandbox, reports, store, leaseSeconds: LEASE_SECONDS }));
    replicas.push(...started);
    for (const replica of started) {
      const port = await replica.port;
      if (port === 0)
        throw new Error(`${replica.name} exited before listening:\n${replica.lines.slice(-10).join('\n')}`);
    }
    return started;
  }

  const claimsOf = (replica: Replica): number =>
    replica.lines.filter((line) => line.includes('"msg":"digest slot claimed"')).length;

  it('finishes the slot of a replica SIGKILLed right after its claim, once, after its job heartbeat lapses', async () => {
    const store = await freshDatabase('pivotbot_kill');
    const three = await startThree(store);
    // The first replica to claim a slot (attempt 1) dies at once, before posting anything.
    const victim = await new Promise<{ replica: Replica; report: string; slot: string }>((resolve) => {
      for (const replica of three) {
        replica.onLine = (line) => {
          if (!line.includes('"msg":"digest slot claimed"') || !line.includes('"attempt":1')) return;
          replica.child.kill('SIGKILL');
          const { report, slot } = JSON.parse(line) as { report: string; slot: string };
          for (const r of three) delete r.onLine;
          resolve({ replica, report, slot });
        };
      }
    });
    await victim.replica.exited;
    const key = `${victim.report}@${victim.slot}`;
    // Handed back to the queue once the dead replica’s job heartbeat lapses (10 s), by pg-boss's next supervision (every 2 s).
    await eventually(() => digestCounts(slack).has(key), HEARTBEAT_SECONDS * 1_000 + 30_000, `${key} posted`).catch(
      (e) => {
        for (const r of three)
          console.log(
            r.name,
            r.lines
              .filter((l) => /stopped|job|queue|taken|warn|"level":[45]0/.test(l))
              .slice(-20)
              .join('\n'),
          );
        throw e;
      },
    );
    const runsOfSlot = () =>
      sql<{ attempt: number; status: string }>(
        store,
        `SELECT (body->>'attempt')::int AS attempt, status FROM pivotbot_runs WHERE idempotency_key LIKE $1 ORDER BY 1`,
        [`digest:${victim.report}:%:${victim.slot}`],
      );
    // The adopter records its run once the post is made.
    await eventually(
      async () => (await runsOfSlot()).some((r) => r.attempt === 2 && r.status === 'succeeded'),
      30_000,
      `${key} recorded as delivered`,
    );
    for (const replica of three) await stopReplica(replica);

    const posted = digestCounts(slack);
    expect(posted.get(key)).toBe(1);
    expect([...posted].filter(([, n]) => n > 1)).toEqual([]);
    expect(await lostSlots(store, posted, EVERY_MS)).toEqual([]);
    // The dead replica's claim, failed by the adopter, then the adopter's attempt that posted.
    expect(await runsOfSlot()).toEqual([
      { attempt: 1, status: 'failed' },
      { attempt: 2, status: 'succeeded' },
    ]);
    // The victim may have held other runs too (other reports' slots); this slot's run was adopted by one.
    const adopters = three.filter((r) =>
      r.lines.some(
        (l) =>
          l.includes('run of a stopped replica taken over') &&
          l.includes(`digest:${victim.report}:`) &&
          l.includes(victim.slot),
      ),
    );
    expect(adopters).toHaveLength(1);
    expect(adopters[0]).not.toBe(victim.replica);
  }, 180_000);

  it('posts every slot once, spread over the replicas, through a rolling restart of all three', async () => {
    const store = await freshDatabase('pivotbot_rolling');
    const three = await startThree(store);
    const started = [...three];
    await eventually(() => digestCounts(slack).size >= 2, 60_000, 'the first digests posted');
    for (let i = 0; i < three.length; i++) {
      await stopReplica(three[i] as Replica);
      const next = startReplica({ slack, sandbox, reports, store, leaseSeconds: LEASE_SECONDS });
      replicas.push(next);
      expect(await next.port).toBeGreaterThan(0);
      three[i] = next;
      started.push(next);
    }
    // The restarted three post three more slots (and ten in all, at least). Not "slots due since the
    // restart": on a busy machine the replicas are behind the one-second report, and catch up later.
    const enough = Math.max(10, digestCounts(slack).size + 3);
    await eventually(() => digestCounts(slack).size >= enough, 120_000, `${enough} slots posted`);
    for (const replica of three) await stopReplica(replica);

    const posted = digestCounts(slack);
    expect([...posted].filter(([, n]) => n > 1)).toEqual([]);
    expect(await lostSlots(store, posted, EVERY_MS)).toEqual([]);
    expect(posted.size).toBeGreaterThanOrEqual(10);
    // The slots are spread: more than one replica delivered digests.
    expect(started.filter((r) => claimsOf(r) > 0).length).toBeGreaterThanOrEqual(2);
    // A generous bound: six stops and three starts took 174 s beside a load average of 24 on the 2 cores.
  }, 400_000);

  it(
    'answers commands "temporarily unavailable" while the database server is stopped, then catches up every slot once',
    async () => {
      const store = await freshDatabase('pivotbot_outage');
      const three = await startThree(store);
      await eventually(() => digestCounts(slack).size > 0, 60_000, 'a first digest posted');
      // The server itself stops (every session ends) for OUTAGE_MS: several leases, many slots missed.
      const restart = await databaseOutage(new URL(store).pathname.slice(1));
      const downFrom = Date.now();
      try {
        await sleep(1_000);
        const first = three[0] as Replica;
        const answer = await postSigned(
          `http://127.0.0.1:${await first.port}/slack/events`,
          slashCommandBody({ text: 'run every-two', responseUrl: slack.responseUrl('outage') }),
          { signingSecret: SIGNING_SECRET },
        ).catch((error: unknown) => {
          // A replica that went away during the outage: show what it said last.
          throw new Error(
            `${first.name} did not answer (exit ${first.child.exitCode ?? first.child.signalCode}):\n${first.lines.slice(-15).join('\n')}`,
            { cause: error },
          );
        });
        expect(answer.status).toBe(200);
        await sleep(OUTAGE_MS - 1_000);
        // The server stays down until the command's answer came (on a busy machine the command may
        // reach the database later than OUTAGE_MS, and would then be answered as usual).
        await eventually(
          () => slack.hooks.some((h) => JSON.stringify(h.body).includes('temporarily unavailable')),
          60_000,
          'the command answered "temporarily unavailable"',
        );
        // Every replica lived through it.
        expect(three.filter((r) => r.child.exitCode !== null || r.child.signalCode !== null)).toEqual([]);
      } finally {
        await restart();
      }
      const upAt = Date.now();
      // The outage's slots are caught up through the queue: wait for the first of them to be posted
      // (the replicas are back and have planned them), then until every slot due before the server
      // came back is settled in the queue (slots due since keep coming, so the queue is never empty).
      /** Whether a digest key (`report@slot`) is of a slot due while the server was down. */
      const ofOutage = (key: string) => {
        const at = Date.parse(key.split('@')[1] as string);
        return at > downFrom + 500 && at < upAt - 500;
      };
      await eventually(
        () => [...digestCounts(slack).keys()].some(ofOutage),
        60_000,
        'a slot of the outage posted after it',
      );
      const pending = async () => {
        await sleep(250);
        return (
          await sql<{ n: number }>(
            store,
            `SELECT count(*)::int AS n FROM pivotbot_queue.job
              WHERE state IN ('created', 'retry', 'active') AND (data->>'slot')::timestamptz < $1`,
            [new Date(upAt).toISOString()],
          )
        )[0]?.n;
      };
      await eventually(
        async () => (await pending()) === 0,
        90_000,
        'every slot due before the server came back settled',
      );
      for (const replica of three) await stopReplica(replica);

      const posted = digestCounts(slack);
      expect([...posted].filter(([, n]) => n > 1)).toEqual([]);
      // Every slot up to the server's return was posted or recorded skipped (later ones may still
      // have been on their way when the replicas stopped).
      const settled = new Map([...posted].filter(([key]) => Date.parse(key.split('@')[1] as string) < upAt));
      expect(await lostSlots(store, settled, EVERY_MS)).toEqual([]);
      // The slots of the outage were posted after it.
      expect([...posted.keys()].filter(ofOutage).length).toBeGreaterThan(0);
    },
    OUTAGE_MS + 300_000,
  );
});
