/**
 * The scheduler in replica mode on the job queue (pg-boss on a real PostgreSQL), two schedulers in
 * this process standing for two replicas, each with its own store connection: a due slot is one
 * job however many replicas plan it; a retry waits in the queue and is run by the other replica
 * when the first one stops; a data wait continues on the other replica; a running slot whose job
 * heartbeat lapsed is handed over, run again as the next attempt.
 *
 * The job heartbeat is 10 minutes here, so no slow moment of the machine makes a live replica look
 * stopped; where a heartbeat must lapse, the test dates it back in the database, and pg-boss's
 * supervisor (every second here) hands the job over.
 */
import { PgBoss } from 'pg-boss';
import { silentLogger } from '../../../src/core/index.js';
import { createScheduler, type Scheduler, type ScheduleSpec, type SlotRun } from '../../../src/scheduler/index.js';
import { openPostgresStore, type PostgresStore } from '../../../src/store/postgres/index.js';
import { freshDatabase, stopTestPostgres } from '../../support/postgres.js';
import { eventually, sql } from './replicaHarness.js';

afterAll(stopTestPostgres);

const HEARTBEAT_SECONDS = 600;

/** What a heartbeat lapse looks like to pg-boss: the running jobs' last heartbeat dated back past the interval. */
const lapseHeartbeats = (url: string) =>
  sql(
    url,
    "UPDATE pivotbot_queue.job SET heartbeat_on = now() - interval '1 hour' WHERE name = 'pivotbot-slot' AND state = 'active'",
  );

const everySecond = (overrides: Partial<ScheduleSpec> = {}): ScheduleSpec => ({
  id: 'report:queued:C1:* * * * * *@UTC',
  report: 'queued',
  channel: 'C1',
  source: 'report',
  timezone: 'UTC',
  cron: '* * * * * *',
  catchUp: 3_600_000,
  retry: { attempts: 3, backoffMs: 1_500 },
  ...overrides,
});

interface Replica {
  name: string;
  store: PostgresStore;
  scheduler: Scheduler;
  calls: SlotRun[];
}

const open: Replica[] = [];

afterEach(async () => {
  for (const replica of open.splice(0)) {
    await replica.scheduler.stop({ graceMs: 0 }).catch(() => undefined);
    await replica.store.close().catch(() => undefined);
  }
});

/** One replica: its store (heartbeat, leases, queue) and its scheduler, running `runSlot` for each slot it is handed. */
async function replica(
  name: string,
  url: string,
  spec: ScheduleSpec,
  runSlot: (run: SlotRun, self: Replica) => Promise<{ messageTs?: string } | { waitMs: number }>,
  concurrency = 2,
): Promise<Replica> {
  const store = await openPostgresStore({
    url,
    logger: silentLogger(),
    replica: { heartbeatSeconds: HEARTBEAT_SECONDS, superviseSeconds: 1 },
    refreshIntervalMs: 0,
  });
  const calls: SlotRun[] = [];
  const self = { name, store, calls } as Replica;
  self.scheduler = createScheduler({
    listSchedules: async () => ({ schedules: [spec], problems: [] }),
    store,
    runSlot: (run) => {
      calls.push(run);
      return runSlot(run, self);
    },
    logger: silentLogger(),
    concurrency,
    maxWakeMs: 200,
    ...(store.queue ? { queue: store.queue } : {}),
  });
  open.push(self);
  await self.scheduler.start();
  return self;
}

const runsOf = (url: string, slot: string) =>
  sql<{ attempt: number; status: string }>(
    url,
    `SELECT (body->>'attempt')::int AS attempt, status FROM pivotbot_runs WHERE idempotency_key = $1 ORDER BY 1`,
    [`digest:queued:C1:${slot}`],
  );

/** Whether the run record of `slot`'s `attempt` is finished (a run's result is written after it returns). */
const attemptSettled = (url: string, slot: string, attempt: number) => async () =>
  (await runsOf(url, slot)).some((r) => r.attempt === attempt && r.status !== 'running');

describe('the scheduler on the job queue (pg-boss)', () => {
  it('runs each slot once however many replicas plan it', async () => {
    const url = await freshDatabase('pivotbot_queue_once');
    const spec = everySecond();
    const a = await replica('a', url, spec, async () => ({ messageTs: '1.1' }));
    const b = await replica('b', url, spec, async () => ({ messageTs: '1.1' }));
    // A few slots' time, however long the machine takes for them.
    await eventually(() => a.calls.length + b.calls.length >= 4, 20_000, 'four slots run');
    await a.scheduler.stop();
    await b.scheduler.stop();
    const slots = [...a.calls, ...b.calls].map((run) => run.slot.toISOString());
    expect(slots.length).toBeGreaterThanOrEqual(2);
    expect(new Set(slots).size).toBe(slots.length);
    // One job per slot run (a slot queued just before the stop may still wait in the queue).
    const jobs = await sql<{ n: number }>(
      url,
      "SELECT count(*)::int AS n FROM pivotbot_queue.job WHERE name = 'pivotbot-slot' AND state = 'completed'",
    );
    expect(jobs[0]?.n).toBe(slots.length);
  }, 30_000);

  it('keeps a retry in the queue when its replica stops, and the other replica runs it', async () => {
    const url = await freshDatabase('pivotbot_queue_retry');
    const spec = everySecond();
    let failed: string | undefined;
    const fail = async (run: SlotRun) => {
      // The first slot fails once on whichever replica takes it; everything else posts.
      if (failed === undefined) failed = run.slot.toISOString();
      if (failed === run.slot.toISOString() && run.attempt === 1) throw new Error('Slack answered 500');
      return { messageTs: '1.2' };
    };
    const a = await replica('a', url, spec, fail);
    await eventually(() => failed !== undefined, 5_000, 'a slot failed');
    // The replica that failed it stops before the retry is due (1.5 s later); a new one starts.
    await a.scheduler.stop();
    await a.store.close();
    const b = await replica('b', url, spec, fail);
    await eventually(
      () => b.calls.some((run) => run.slot.toISOString() === failed && run.attempt === 2),
      8_000,
      'the retry ran on b',
    );
    // b's attempt is recorded after its run returns: wait for the record, not only the call.
    await eventually(attemptSettled(url, failed as string, 2), 30_000, 'the retry recorded');
    expect(await runsOf(url, failed as string)).toEqual([
      { attempt: 1, status: 'failed' },
      { attempt: 2, status: 'succeeded' },
    ]);
  }, 60_000);

  it('continues a data wait on the other replica once the first stops', async () => {
    const url = await freshDatabase('pivotbot_queue_wait');
    const spec = everySecond({ waitForData: { metric: 'installs', minShare: 0.9, waitMs: 10_000 } });
    let waiting: string | undefined;
    const waitOnce = async (run: SlotRun) => {
      waiting ??= run.slot.toISOString();
      if (waiting === run.slot.toISOString() && run.waitedMs === 0) return { waitMs: 1_500 };
      return { messageTs: '1.3' };
    };
    const a = await replica('a', url, spec, waitOnce);
    await eventually(() => waiting !== undefined, 5_000, 'a slot waits for data');
    await a.scheduler.stop();
    await a.store.close();
    const b = await replica('b', url, spec, waitOnce);
    await eventually(
      () => b.calls.some((run) => run.slot.toISOString() === waiting && run.waitedMs === 1_500),
      8_000,
      'the data check continued on b',
    );
    await b.scheduler.stop();
    const runs = await runsOf(url, waiting as string);
    // Stopping failed the held claim; b's attempt (the next) posted with the wait counted.
    expect(runs.at(-1)).toEqual({ attempt: runs.length, status: 'succeeded' });
  }, 30_000);

  it('hands the running slot whose heartbeat lapsed to another replica, as the next attempt', async () => {
    const url = await freshDatabase('pivotbot_queue_dead');
    const spec = everySecond();
    let stuck: string | undefined;
    const hangFirst = async (run: SlotRun, self: Replica) => {
      if (self.name === 'a') {
        // Stands for a replica frozen mid-run: it holds its slot until its step is stopped.
        stuck ??= run.slot.toISOString();
        await new Promise<void>((resolve) => run.signal.addEventListener('abort', () => resolve(), { once: true }));
        throw run.signal.reason;
      }
      return { messageTs: '1.4' };
    };
    // One worker: once it hangs, a takes nothing more.
    await replica('a', url, spec, hangFirst, 1);
    await eventually(() => stuck !== undefined, 5_000, 'a slot is stuck on a');
    const b = await replica('b', url, spec, hangFirst);
    await lapseHeartbeats(url);
    await eventually(
      () => b.calls.some((run) => run.slot.toISOString() === stuck && run.attempt === 2),
      15_000,
      'b ran the stuck slot as attempt 2',
    );
    // Recorded after b's run returns (seen still running beside two busy loops): wait for the record.
    await eventually(attemptSettled(url, stuck as string, 2), 30_000, 'attempt 2 recorded');
    expect(await runsOf(url, stuck as string)).toEqual([
      { attempt: 1, status: 'failed' },
      { attempt: 2, status: 'succeeded' },
    ]);
  }, 30_000);

  it('hands back a job taken by a client that never renews its heartbeat (the answer to its fetch was lost)', async () => {
    const url = await freshDatabase('pivotbot_queue_unheld');
    const store = await openPostgresStore({
      url,
      logger: silentLogger(),
      replica: { heartbeatSeconds: HEARTBEAT_SECONDS, superviseSeconds: 1 },
      refreshIntervalMs: 0,
    });
    open.push({ name: 'unheld', store, calls: [], scheduler: { stop: async () => undefined } as unknown as Scheduler });
    const queue = store.queue as NonNullable<PostgresStore['queue']>;
    const job = {
      scheduleId: 'report:queued:C1:* * * * * *@UTC',
      slot: '2026-11-23T09:00:00.000Z',
      late: false,
      tries: 1,
      waitedMs: 0,
    };
    expect(await queue.send(job, { key: 'digest:queued:C1:2026-11-23T09:00:00.000Z' })).toBe(true);
    // Another client takes the job and never answers for it, as a replica whose fetch reply was lost.
    const other = new PgBoss({
      connectionString: url,
      schema: 'pivotbot_queue',
      supervise: false,
      schedule: false,
      migrate: false,
    });
    await other.start();
    const [taken] = await other.fetch('pivotbot-slot');
    await other.stop({ graceful: false, close: true });
    expect(taken?.id).toBeDefined();
    await lapseHeartbeats(url);
    const handed: Array<{ handoffs: number; slot: string }> = [];
    await queue.work(1, async (data, delivery) => {
      handed.push({ handoffs: delivery.handoffs, slot: data.slot });
    });
    await eventually(() => handed.length > 0, 8_000, 'the job run again');
    expect(handed).toEqual([{ handoffs: 1, slot: job.slot }]);
  }, 30_000);

  it('sets a pg-boss 10 queue schema aside (pg-boss 12 cannot migrate it) and starts a new one', async () => {
    const url = await freshDatabase('pivotbot_queue_pgboss10');
    // What pg-boss 10 left: its schema, whose version table says 24.
    await sql(url, 'CREATE SCHEMA pivotbot_queue');
    await sql(url, 'CREATE TABLE pivotbot_queue.version (version int PRIMARY KEY)');
    await sql(url, 'INSERT INTO pivotbot_queue.version VALUES (24)');
    const store = await openPostgresStore({
      url,
      logger: silentLogger(),
      replica: { heartbeatSeconds: HEARTBEAT_SECONDS, superviseSeconds: 1 },
      refreshIntervalMs: 0,
    });
    open.push({ name: 'new', store, calls: [], scheduler: { stop: async () => undefined } as unknown as Scheduler });
    const queue = store.queue as NonNullable<PostgresStore['queue']>;
    const job = { scheduleId: 's', slot: '2026-11-23T09:00:00.000Z', late: false, tries: 1, waitedMs: 0 };
    expect(await queue.send(job, { key: 'digest:queued:C1:2026-11-23T09:00:00.000Z' })).toBe(true);
    expect(await sql(url, 'SELECT version FROM pivotbot_queue_pgboss10.version')).toEqual([{ version: 24 }]);
    const [current] = await sql<{ version: number }>(url, 'SELECT version::int AS version FROM pivotbot_queue.version');
    expect(current?.version).toBeGreaterThanOrEqual(25);
  }, 30_000);
});
