import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Logger } from '../../core/index.js';
import type { ReplicaLeases } from '../ReplicaStore.js';
import { DEFAULT_STORE_LIMITS, type Store, type StoreLimits } from '../Store.js';
import { StoreError } from '../StoreError.js';
import type { StoreData } from '../storeSchema.js';
import { type ChangeListener, listenForChanges } from './listenForChanges.js';
import { migratePostgres } from './migratePostgres.js';
import { StoreUnavailableError } from './postgresErrors.js';
import { postgresRepositories } from './postgresRepositories.js';
import { POSTGRES_SCHEMA_VERSION } from './postgresSchema.js';
import { createPostgresWriter, type PostgresWriter } from './postgresWriter.js';
import { redactUrl } from './redactUrl.js';
import { startReplicaLeases } from './replicaLeases.js';
import { type PostgresSlotQueue, startSlotQueue } from './startSlotQueue.js';

export interface PostgresStoreOptions {
  /** `postgres://user:password@host:5432/db` (the password never appears in messages or logs). */
  url: string;
  logger: Logger;
  clock?: () => Date;
  limits?: Partial<StoreLimits>;
  pool?: {
    /** Connections at most (default 10: the store, the heartbeat and the job queue), besides the one session that listens for changes. */
    max?: number;
    /** How long a query waits for a free connection or a new one (default 5 s). */
    connectionTimeoutMillis?: number;
    /** How long a session may sit inside a transaction waiting for its next statement (default `IDLE_IN_TRANSACTION_MS`). */
    idleInTransactionMs?: number;
  };
  /**
   * Hold the database-level lock that keeps any other exclusive store off this database (for a
   * tool that must be alone; `pivotbot start` opens with `replica` instead). Default false.
   */
  exclusive?: boolean;
  /**
   * Run as one of several replicas on this database: keep a heartbeat and a lease on every run
   * and job this process starts, so the others adopt what it leaves when it dies (`leases`), and
   * start the job queue that carries scheduled slots between replicas (`queue`, pg-boss).
   * `leaseMs` is how long a silent replica's async jobs and manual runs stay its own (default 30 s
   * when `replica: {}`); `heartbeatSeconds` how long its scheduled steps do (pg-boss's job
   * heartbeat, default 30, at least 10); `superviseSeconds` how often lapsed ones are looked for
   * (default a fifth of the heartbeat).
   */
  replica?: { leaseMs?: number; heartbeatSeconds?: number; superviseSeconds?: number };
  /** Full reload from the database, the safety net behind change notifications (default 60 s; 0: never). */
  refreshIntervalMs?: number;
}

/** The PostgreSQL store: the `Store` interface plus what operations need. */
export interface PostgresStore extends Store {
  /** Reloads the whole mirror from the database now. */
  refresh(): Promise<void>;
  /** The mirror as it is now: every collection, in insertion order (for checks and tools). */
  snapshot(): StoreData;
  /** Whether the database answers, and its schema version (for `/healthz`). */
  health(): Promise<{ reachable: boolean; schemaVersion?: number; error?: string }>;
  /** With `replica`: this process's heartbeat and the leases of its work. */
  readonly leases?: ReplicaLeases;
  /** With `replica`: the job queue (pg-boss) that carries scheduled slots between the replicas. */
  readonly queue?: PostgresSlotQueue;
}

/** How long a replica that stopped answering keeps its work by default. */
export const DEFAULT_LEASE_MS = 30_000;

/**
 * How long PostgreSQL lets one of the store's sessions sit inside a transaction between two
 * statements before it ends the session (`idle_in_transaction_session_timeout`), which releases
 * the session's row locks. Our transactions send their statements one right after another, so a
 * session idle that long belongs to a process that stopped mid-transaction (frozen, SIGSTOPped,
 * a long pause): without the limit its locks would block every other replica's write to those rows
 * for as long as it stays stopped, the slot it held included, after the queue handed that over.
 * The least job heartbeat, so the locks go before a stopped replica's slot is handed over.
 */
export const IDLE_IN_TRANSACTION_MS = 10_000;

/** The store's connection pool settings (also what `test/integration/store` checks PostgreSQL enforces). */
export function storePoolConfig(url: string, pool: PostgresStoreOptions['pool'] = {}): pg.PoolConfig {
  return {
    connectionString: url,
    max: pool.max ?? 10,
    connectionTimeoutMillis: pool.connectionTimeoutMillis ?? 5000,
    idleTimeoutMillis: 30_000,
    idle_in_transaction_session_timeout: pool.idleInTransactionMs ?? IDLE_IN_TRANSACTION_MS,
  };
}

/**
 * Opens the PostgreSQL store: migrates the database under an advisory lock, loads every table
 * into an in-memory mirror that serves the synchronous reads, and listens for other processes'
 * changes. Each write goes to the database first (one transaction) and then to the mirror.
 * Claims (`runs.start`, `incidents.open`, `jobs.create`, `subscriptions.add`) re-read their rows
 * first and are decided by unique indexes, never by the mirror alone.
 *
 * @example const store = await openPostgresStore({ url: process.env.PIVOTBOT_STORE, logger });
 *          const { started } = await store.runs.start({ report, trigger: 'schedule', idempotencyKey });
 */
export async function openPostgresStore(options: PostgresStoreOptions): Promise<PostgresStore> {
  const { logger } = options;
  const location = redactUrl(options.url);
  const pool = new pg.Pool(storePoolConfig(options.url, options.pool));
  // An idle connection that breaks must not crash the process; the next query reconnects.
  pool.on('error', (error) => logger.warn({ err: error, store: location }, 'store database connection lost'));
  const origin = `pivotbot-${process.pid}-${randomBytes(6).toString('hex')}`;
  const writer = createPostgresWriter({
    pool,
    origin,
    location,
    clock: options.clock ?? (() => new Date()),
    limits: { ...DEFAULT_STORE_LIMITS, ...options.limits },
    logger,
  });
  const parts = await openParts(pool, writer, { ...options, origin, location });
  const { leases, queue } = parts;

  const refreshMs = options.refreshIntervalMs ?? 60_000;
  const refreshTimer = refreshMs > 0 ? setInterval(() => writer.reloadLater(), refreshMs) : undefined;
  refreshTimer?.unref();

  const data = writer.snapshot();
  logger.info(
    {
      store: location,
      schemaVersion: POSTGRES_SCHEMA_VERSION,
      jobs: data.jobs.length,
      subscriptions: data.subscriptions.length,
      runs: data.runs.length,
      incidents: data.incidents.length,
    },
    'store opened',
  );

  return {
    ...postgresRepositories(writer, leases),
    location,

    // A write resolves once its transaction committed; nothing is ever left to flush.
    flush: () => writer.write(async () => undefined),

    refresh: () => writer.refresh(),
    ...(leases === undefined ? {} : { leases }),
    ...(queue === undefined ? {} : { queue }),
    snapshot: () => writer.snapshot(),

    async health() {
      try {
        const { rows } = await pool.query<{ version: number | null }>(
          'SELECT max(version) AS version FROM pivotbot_schema_version',
        );
        return { reachable: true, schemaVersion: rows[0]?.version ?? 0 };
      } catch (error) {
        return { reachable: false, error: new StoreUnavailableError(location, error).message };
      }
    },

    async close() {
      if (refreshTimer !== undefined) clearInterval(refreshTimer);
      if (!(await writer.drain())) return;
      // After the last write: what this process still holds is the other replicas' from now on.
      await closeParts(parts);
      await pool
        .end()
        .catch((error: unknown) => logger.warn({ err: error, store: location }, 'closing the pool failed'));
    },
  };
}

/** What the store runs besides its pool: the change listener and, with `replica`, the leases and the queue. */
interface StoreParts {
  listener?: ChangeListener;
  leases?: ReplicaLeases;
  queue?: PostgresSlotQueue;
}

/**
 * Migrates the database, listens for other processes' changes (before the load, so no change
 * falls between the two), loads the mirror, and with `replica` starts the leases and the queue.
 * On failure, whatever started is closed and the error is a `StoreError`.
 */
async function openParts(
  pool: pg.Pool,
  writer: PostgresWriter,
  options: PostgresStoreOptions & { origin: string; location: string },
): Promise<StoreParts> {
  const { logger, location, origin, replica } = options;
  const parts: StoreParts = {};
  try {
    await migratePostgres(pool, { location, logger });
    parts.listener = await listenForChanges({
      url: options.url,
      location,
      origin,
      logger,
      exclusive: options.exclusive ?? false,
      onChange: (table, key) => writer.noteChange(table, key),
      onReconnect: () => writer.reloadLater(),
    });
    await writer.load();
    if (replica !== undefined) {
      parts.leases = await startReplicaLeases(pool, {
        owner: origin,
        leaseMs: replica.leaseMs ?? DEFAULT_LEASE_MS,
        logger,
        location,
      });
      parts.queue = await startSlotQueue(pool, {
        logger,
        location,
        ...(replica.heartbeatSeconds === undefined ? {} : { heartbeatSeconds: replica.heartbeatSeconds }),
        ...(replica.superviseSeconds === undefined ? {} : { superviseSeconds: replica.superviseSeconds }),
      });
    }
    return parts;
  } catch (error) {
    writer.abandon();
    await closeParts(parts);
    await pool.end().catch(() => undefined);
    throw error instanceof StoreError ? error : new StoreUnavailableError(location, error);
  }
}

async function closeParts({ listener, leases, queue }: StoreParts): Promise<void> {
  await queue?.close();
  await leases?.close();
  await listener?.close();
}
