import { createHash } from 'node:crypto';
import type pg from 'pg';
import { PgBoss } from 'pg-boss';
import type { Logger } from '../../core/index.js';
import type { QueuedSlot, SlotQueue } from '../SlotQueue.js';
import { checkout } from './checkout.js';
import { LOCK_CLASS, QUEUE_SETUP_LOCK_ID } from './migratePostgres.js';
import { createSlotQueueWorkers } from './slotQueueWorkers.js';

/** pg-boss keeps its tables in a schema of its own, beside pivotbot's. */
export const QUEUE_SCHEMA = 'pivotbot_queue';
const QUEUE = 'pivotbot-slot';
/** Deliveries of one step that end without finishing (replica died or stopped) before the queue gives up on it. */
const MAX_HANDOFFS = 20;
/** How long a running step's replica may go without a heartbeat for it before the queue hands it over (default). */
export const DEFAULT_HEARTBEAT_SECONDS = 30;
/** pg-boss refuses job heartbeats shorter than this. */
const LEAST_HEARTBEAT_SECONDS = 10;
/**
 * pg-boss's bound on one step's run time, heartbeat or not: the step is stopped a minute before it
 * (a digest's step takes seconds to minutes; a data wait is a later job of its own).
 */
const EXPIRY_SECONDS = 60 * 60;

export interface SlotQueueOptions {
  logger: Logger;
  location: string;
  /**
   * How long a running step stays with a replica whose heartbeat for it stopped (died, frozen, cut
   * off from the database) before pg-boss hands it to another; whole seconds, at least 10 (default 30).
   * The holder renews it every third of that, and stops the step itself at two thirds without a
   * renewal, before the others may take it.
   */
  heartbeatSeconds?: number;
  /**
   * How often pg-boss's supervisor (in whichever replica gets to it first) looks for jobs whose
   * heartbeat lapsed, in whole seconds (default a fifth of `heartbeatSeconds`).
   */
  superviseSeconds?: number;
  /** How often idle workers ask for jobs (default 1 s; a send in this process wakes them at once). */
  pollMs?: number;
}

export interface PostgresSlotQueue extends SlotQueue {
  /** Stops pg-boss (its supervision, and any worker left); the pool stays open. */
  close(): Promise<void>;
}

/**
 * The scheduled work of several replicas on pg-boss 12, on the store's own pool: each due slot is
 * one job named by its run key (a second send of the key is dropped), workers in every replica
 * take jobs with `SKIP LOCKED`, retries and data waits are jobs that start later on whichever
 * replica is free, and a stop hands running jobs back (pg-boss retries them at once elsewhere).
 *
 * Every job carries pg-boss's own heartbeat (`heartbeatSeconds`): the replica running it renews it
 * (`touch`, fenced to the attempt it fetched), and pg-boss's supervisor, in whichever replica runs
 * it first, fails a job whose heartbeat is older than that back into the queue, where another
 * replica takes it as the next delivery (`handoffs` > 0: its attempt checks the channel first).
 * The holder stops the step once its heartbeat went unrenewed for two thirds of the interval, or
 * when a renewal finds the attempt no longer its own, so a frozen or cut-off replica that comes
 * back does not reach Slack with a step another replica has taken over; its late outcome is
 * refused by pg-boss (fenced to the attempt).
 *
 * @example const queue = await startSlotQueue(pool, { logger, location, heartbeatSeconds: 30 });
 *          await queue.work(4, async (job, { handoffs, signal }) => runStep(job, signal));
 */
export async function startSlotQueue(pool: pg.Pool, options: SlotQueueOptions): Promise<PostgresSlotQueue> {
  const { logger, location } = options;
  const heartbeatSeconds = Math.max(
    LEAST_HEARTBEAT_SECONDS,
    Math.round(options.heartbeatSeconds ?? DEFAULT_HEARTBEAT_SECONDS),
  );
  // By default the supervisor looks for lapsed heartbeats five times per interval: a hand-over takes at most 1.2 of it.
  const superviseSeconds = Math.max(1, Math.round(options.superviseSeconds ?? heartbeatSeconds / 5));
  const boss = new PgBoss({
    db: { executeSql: (text: string, values?: unknown[]) => pool.query(text, values) },
    schema: QUEUE_SCHEMA,
    supervise: true,
    schedule: false,
    migrate: true,
    superviseIntervalSeconds: superviseSeconds,
    monitorIntervalSeconds: superviseSeconds,
    maintenanceIntervalSeconds: 60,
    registerInstance: false,
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
      await setAsideOlderQueue(lock, logger);
      await boss.start();
      if ((await boss.getQueue(QUEUE)) === null) {
        await boss.createQueue(QUEUE, {
          policy: 'standard',
          retryLimit: MAX_HANDOFFS,
          retryDelay: 0,
          expireInSeconds: EXPIRY_SECONDS,
          // Finished jobs are kept a day (a slot's key is not sent again after that: the run record decides).
          deleteAfterSeconds: 24 * 60 * 60,
          heartbeatSeconds,
        });
      }
    } finally {
      await lock.query('SELECT pg_advisory_unlock($1, $2)', [LOCK_CLASS, QUEUE_SETUP_LOCK_ID]).catch(() => undefined);
    }
  } finally {
    lock.release();
  }

  const heartbeatMs = heartbeatSeconds * 1000;
  const workers = createSlotQueueWorkers({
    boss,
    queue: QUEUE,
    heartbeatMs,
    pollMs: Math.max(100, options.pollMs ?? 1000),
    logger,
    location,
  });

  return {
    heartbeatMs,

    async send(job: QueuedSlot, { key, startAfter }): Promise<boolean> {
      const id = await boss.send(QUEUE, job as unknown as object, {
        id: jobId(key),
        heartbeatSeconds,
        ...(startAfter ? { startAfter } : {}),
      });
      if (warned) logger.info({ store: location }, 'job queue answers again');
      warned = false;
      return id !== null;
    },

    work: (concurrency, handle) => workers.work(concurrency, handle),
    nudge: () => workers.nudge(),
    stop: (graceMs) => workers.stop(graceMs),

    async depth() {
      const queue = await boss.getQueue(QUEUE);
      return {
        queued: queue?.queuedCount ?? 0,
        active: queue?.activeCount ?? 0,
        deferred: queue?.deferredCount ?? 0,
      };
    },

    async close() {
      await workers.close();
      await boss.stop({ graceful: false, close: false }).catch((error: unknown) => {
        logger.warn({ err: error, store: location }, 'job queue did not stop cleanly');
      });
    },
  };
}

/**
 * pg-boss 12 migrates the queue schemas of pg-boss 11 and later only; pivotbot before 0.2 ran
 * pg-boss 10. Such a schema is renamed (kept, not dropped: `<schema>_pgboss10`) and pg-boss creates
 * a fresh one: the jobs still waiting in the old one (retries, data waits) are not carried over,
 * their slots' runs stay failed (docs/deploy.md).
 */
async function setAsideOlderQueue(client: pg.PoolClient, logger: Logger): Promise<void> {
  const present = await client.query<{ found: boolean }>(
    `SELECT to_regclass('${QUEUE_SCHEMA}.version') IS NOT NULL AS found`,
  );
  if (!present.rows[0]?.found) return;
  const { rows } = await client.query<{ version: number }>(
    `SELECT version::int AS version FROM ${QUEUE_SCHEMA}.version`,
  );
  const version = rows[0]?.version;
  if (version === undefined || version >= 25) return;
  const aside = `${QUEUE_SCHEMA}_pgboss10`;
  await client.query(`DROP SCHEMA IF EXISTS ${aside} CASCADE`);
  await client.query(`ALTER SCHEMA ${QUEUE_SCHEMA} RENAME TO ${aside}`);
  logger.warn(
    { schema: aside, version },
    'job queue schema of an older pg-boss set aside; a new one is created (jobs waiting in the old one are not carried over)',
  );
}

/** A job id (a UUID, as pg-boss wants) that is the same for the same key in every replica. */
function jobId(key: string): string {
  const hex = createHash('sha256').update(`pivotbot:${key}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
