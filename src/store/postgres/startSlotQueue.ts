import { createHash } from 'node:crypto';
import type pg from 'pg';
import PgBoss from 'pg-boss';
import type { Logger } from '../../core/index.js';
import type { QueuedSlot, SlotQueue } from '../../scheduler/SlotQueue.js';
import { checkout } from './checkout.js';
import { LOCK_CLASS, QUEUE_SETUP_LOCK_ID } from './migratePostgres.js';
import type { ReplicaLeases } from './replicaLeases.js';

/** pg-boss keeps its tables in a schema of its own, beside pivotbot's. */
export const QUEUE_SCHEMA = 'pivotbot_queue';
const QUEUE = 'pivotbot-slot';
/** Deliveries of one step that end without finishing (replica died or stopped) before the queue gives up on it. */
const MAX_HANDOFFS = 20;
/**
 * pg-boss's own expiry, the backstop behind the heartbeat: a job whose holder never recorded its
 * lease (it died between fetching and recording) is given to another replica after this.
 */
const BACKSTOP_EXPIRY_SECONDS = 15 * 60;
/**
 * Taken jobs (pg-boss's `job` table, state `active`) with no lease row after this long: their
 * taker's fetch answer was lost, since a taker records its lease right after taking a job.
 */
const UNHELD_JOBS = `SELECT j.id::text AS id FROM ${QUEUE_SCHEMA}.job j
   LEFT JOIN pivotbot_leases l ON l.key = 'slot:' || j.id::text
  WHERE j.name = $1 AND j.state = 'active' AND l.key IS NULL
    AND j.started_on < now() - $2 * interval '1 millisecond'`;

type Handler = Parameters<SlotQueue['work']>[1];

export interface PostgresSlotQueue extends SlotQueue {
  /** Stops pg-boss (its maintenance, and any worker left); the pool stays open. */
  close(): Promise<void>;
}

/**
 * The scheduled work of several replicas on pg-boss (10.x, the last major for Node 20), on the
 * store's own pool: each due slot is one job named by its run key (a second send of the key is
 * dropped), workers in every replica take jobs with `SKIP LOCKED`, retries and data waits are jobs
 * that start later on whichever replica is free, and a stop hands running jobs back (pg-boss
 * retries them at once elsewhere).
 *
 * pg-boss 10 has no heartbeat for a running job, only a fixed expiry, which would either cut long
 * digests off or leave a dead replica's digest waiting for as long. So the holder of each running
 * job is recorded in the replicas' leases (one heartbeat per process), and a job whose holder's
 * heartbeat stopped is failed back into pg-boss by exactly one live replica (`leases.adopt`),
 * which retries it at once; pg-boss's expiry stays as the backstop.
 *
 * @example const queue = await startSlotQueue(pool, { leases, logger, location });
 *          await queue.work(4, async (job, { handoffs, signal }) => runStep(job, signal));
 */
export async function startSlotQueue(
  pool: pg.Pool,
  options: { leases: ReplicaLeases; logger: Logger; location: string; pollMs?: number },
): Promise<PostgresSlotQueue> {
  const { leases, logger, location } = options;
  const boss = new PgBoss({
    db: { executeSql: (text: string, values?: unknown[]) => pool.query(text, values) },
    schema: QUEUE_SCHEMA,
    supervise: true,
    schedule: false,
    migrate: true,
    maintenanceIntervalSeconds: 60,
    // Finished jobs are kept a day (a slot's key is not sent again after that: the run record decides).
    archiveCompletedAfterSeconds: 24 * 60 * 60,
  });
  let warned = false;
  boss.on('error', (error: unknown) => {
    // A database outage makes every poll fail; once is enough in the log until it answers again.
    if (!warned) logger.warn({ err: error, store: location }, 'job queue error (pg-boss); retrying');
    warned = true;
  });
  // pg-boss creates its schema before taking its own lock: replicas starting together take turns here.
  const lock = await checkout(pool);
  try {
    await lock.query('SELECT pg_advisory_lock($1, $2)', [LOCK_CLASS, QUEUE_SETUP_LOCK_ID]);
    try {
      await boss.start();
      await boss.createQueue(QUEUE, {
        name: QUEUE,
        policy: 'standard',
        retryLimit: MAX_HANDOFFS,
        retryDelay: 0,
        expireInSeconds: BACKSTOP_EXPIRY_SECONDS,
      });
    } finally {
      await lock.query('SELECT pg_advisory_unlock($1, $2)', [LOCK_CLASS, QUEUE_SETUP_LOCK_ID]).catch(() => undefined);
    }
  } finally {
    lock.release();
  }

  const pollMs = Math.max(100, options.pollMs ?? 1000);
  const unheldAfterMs = Math.max(2 * leases.leaseMs, 30_000);
  const running = new Map<string, Promise<void>>();
  /** Jobs whose handler ended but whose completion the database has not taken yet (an outage): retried each poll. */
  const owed = new Map<string, 'complete' | { failed: string }>();
  const abort = new AbortController();
  let sweepTimer: NodeJS.Timeout | undefined;
  let wake: (() => void) | undefined;
  let polling: Promise<void> | undefined;
  let stopped = false;

  /**
   * Running jobs of replicas whose heartbeat stopped, and jobs pg-boss marked taken that no replica
   * ever recorded holding (the answer to a fetch was lost with the database): each failed back into
   * pg-boss (retried at once) by one replica, long before pg-boss's own expiry.
   */
  const sweep = async (): Promise<void> => {
    const { rows } = await pool.query<{ id: string }>(UNHELD_JOBS, [QUEUE, unheldAfterMs]);
    for (const id of [...(await leases.orphans('slot')), ...rows.map((row) => row.id)]) {
      if (!(await leases.adopt('slot', id))) continue;
      await boss.fail(QUEUE, id, { message: 'the replica running this job stopped answering' });
      await leases.release('slot', id);
      logger.warn({ job: id }, 'scheduled job of a stopped replica handed to the queue again');
    }
  };

  const settle = async (id: string, outcome: 'complete' | { failed: string }): Promise<void> => {
    try {
      if (outcome === 'complete') await boss.complete(QUEUE, id);
      else await boss.fail(QUEUE, id, { message: outcome.failed });
      owed.delete(id);
      await leases.release('slot', id);
    } catch (error) {
      // The lease stays ours meanwhile, so no replica takes the job over while this one lives.
      if (!owed.has(id)) logger.warn({ err: error, job: id }, 'job outcome not recorded in the queue yet; retrying');
      owed.set(id, outcome);
    }
  };

  const runJob = async (job: PgBoss.JobWithMetadata<QueuedSlot>, handle: Handler): Promise<void> => {
    await leases.hold('slot', job.id);
    // pg-boss's expiry is the backstop: the step is stopped before it, so it never runs twice at once.
    // And when this replica's heartbeat lapses, before another replica may take the job over.
    const fence = AbortSignal.any([
      abort.signal,
      leases.lapsed(),
      AbortSignal.timeout(Math.max(1_000, (job.expireInSeconds - 60) * 1000)),
    ]);
    let outcome: 'complete' | { failed: string } = 'complete';
    try {
      await handle(job.data, { handoffs: job.retryCount, signal: fence });
    } catch (error) {
      outcome = { failed: error instanceof Error ? error.message : String(error) };
    }
    await settle(job.id, outcome);
  };

  const poll = async (concurrency: number, handle: Handler): Promise<void> => {
    while (!stopped) {
      for (const [id, outcome] of [...owed]) await settle(id, outcome);
      const free = concurrency - running.size;
      let jobs: Array<PgBoss.JobWithMetadata<QueuedSlot>> = [];
      // Only with a current heartbeat: after an outage the others would take over what is started first.
      if (free > 0 && (await leases.fresh())) {
        try {
          jobs = await boss.fetch<QueuedSlot>(QUEUE, { batchSize: free, includeMetadata: true });
        } catch (error) {
          logger.warn({ err: error, store: location }, 'could not take jobs from the queue; retrying');
        }
      }
      for (const job of jobs) {
        const done = runJob(job, handle)
          .catch((error: unknown) => logger.error({ err: error, job: job.id }, 'queued job failed unexpectedly'))
          .finally(() => {
            running.delete(job.id);
            wake?.();
          });
        running.set(job.id, done);
      }
      if (jobs.length > 0 && running.size < concurrency) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pollMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = undefined;
    }
  };

  return {
    leaseMs: leases.leaseMs,

    async send(job: QueuedSlot, { key, startAfter }): Promise<boolean> {
      const id = await boss.send(QUEUE, job as unknown as object, {
        id: jobId(key),
        ...(startAfter ? { startAfter } : {}),
      });
      if (warned) logger.info({ store: location }, 'job queue answers again');
      warned = false;
      return id !== null;
    },

    async work(concurrency, handle) {
      polling = poll(Math.max(1, concurrency), handle);
      sweepTimer = setInterval(
        () =>
          void sweep().catch((error: unknown) =>
            logger.warn({ err: error }, 'could not look for jobs of stopped replicas'),
          ),
        Math.max(250, Math.floor(leases.leaseMs / 2)),
      );
      sweepTimer.unref();
    },

    nudge() {
      wake?.();
    },

    async stop(graceMs) {
      if (stopped) return;
      stopped = true;
      clearInterval(sweepTimer);
      wake?.();
      await polling;
      if (running.size > 0) {
        let timer: NodeJS.Timeout | undefined;
        const grace = new Promise<void>((resolve) => {
          timer = setTimeout(resolve, graceMs);
        });
        await Promise.race([Promise.all(running.values()), grace]);
        clearTimeout(timer);
      }
      if (running.size > 0) {
        // Handed back: the handlers end their runs, pg-boss fails the jobs and retries them elsewhere.
        // A handler that ignores the abort is not waited for long (its job then expires instead).
        abort.abort();
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<void>((resolve) => {
          timer = setTimeout(resolve, 1_000);
        });
        await Promise.race([Promise.all(running.values()), late]);
        clearTimeout(timer);
      }
    },

    async close() {
      stopped = true;
      clearInterval(sweepTimer);
      wake?.();
      await polling;
      // Outcomes the database missed: once more (else the jobs are taken over once this heartbeat ends).
      for (const [id, outcome] of [...owed]) await settle(id, outcome);
      await boss.stop({ graceful: false, close: false, wait: true }).catch((error: unknown) => {
        logger.warn({ err: error, store: location }, 'job queue did not stop cleanly');
      });
    },
  };
}

/** A job id (a UUID, as pg-boss wants) that is the same for the same key in every replica. */
function jobId(key: string): string {
  const hex = createHash('sha256').update(`pivotbot:${key}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
