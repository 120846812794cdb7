import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Logger } from '../../core/index.js';
import { createIncidentsRepository } from '../incidentsRepository.js';
import { createJobsRepository } from '../jobsRepository.js';
import { createRunsRepository } from '../runsRepository.js';
import { DEFAULT_STORE_LIMITS, type Store, type StoreLimits } from '../Store.js';
import { StoreClosedError, StoreConflictError, StoreError, StoreNotFoundError } from '../StoreError.js';
import { createSchedulesRepository } from '../schedulesRepository.js';
import { randomId, type StoreContext } from '../storeContext.js';
import type { StoreData } from '../storeSchema.js';
import { createSubscriptionsRepository } from '../subscriptionsRepository.js';
import { type ChangeListener, listenForChanges } from './listenForChanges.js';
import { migratePostgres } from './migratePostgres.js';
import { StoreUnavailableError } from './postgresErrors.js';
import { applyRows, diffData, draftOf, emptyMirror, type Mirror, mirrorFromRows } from './postgresMirror.js';
import { isUniqueViolation, selectAllRows, selectRows, writeDiff } from './postgresRows.js';
import { type Collection, POSTGRES_SCHEMA_VERSION, TABLES, tableOf } from './postgresSchema.js';
import { redactUrl } from './redactUrl.js';
import { type ReplicaLeases, startReplicaLeases } from './replicaLeases.js';
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
  const clock = options.clock ?? (() => new Date());
  const origin = `pivotbot-${process.pid}-${randomBytes(6).toString('hex')}`;
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.pool?.max ?? 10,
    connectionTimeoutMillis: options.pool?.connectionTimeoutMillis ?? 5000,
    idleTimeoutMillis: 30_000,
  });
  // An idle connection that breaks must not crash the process; the next query reconnects.
  pool.on('error', (error) => logger.warn({ err: error, store: location }, 'store database connection lost'));

  let mirror: Mirror = emptyMirror();
  let listener: ChangeListener | undefined;
  let leases: ReplicaLeases | undefined;
  let queue: PostgresSlotQueue | undefined;
  const pending = new Map<string, Set<string>>();
  let tail: Promise<unknown> = Promise.resolve();
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = tail.then(fn, fn);
    tail = run.catch(() => undefined);
    return run;
  };

  // Declared before anything can call back into them (a notification may arrive during the load).
  let accepting = true;
  let closed = false;
  let drafting: StoreData | undefined;
  const warnRefresh = (error: unknown): void =>
    logger.warn({ err: error, store: location }, 'store mirror could not be refreshed; it is retried');

  const reloadNow = async (): Promise<void> => {
    mirror = mirrorFromRows(await selectAllRows(pool), location);
  };

  try {
    await migratePostgres(pool, { location, logger });
    // Listening starts before the load, so no change falls between the two.
    listener = await listenForChanges({
      url: options.url,
      location,
      origin,
      logger,
      exclusive: options.exclusive ?? false,
      onChange: (table, key) => noteChange(table, key),
      onReconnect: () => void serial(reloadNow).catch((error) => warnRefresh(error)),
    });
    // Through the queue, so changes announced meanwhile are applied after the load, not under it.
    await serial(reloadNow);
    if (options.replica !== undefined) {
      leases = await startReplicaLeases(pool, {
        owner: origin,
        leaseMs: options.replica.leaseMs ?? DEFAULT_LEASE_MS,
        logger,
        location,
      });
      queue = await startSlotQueue(pool, {
        logger,
        location,
        ...(options.replica.heartbeatSeconds === undefined
          ? {}
          : { heartbeatSeconds: options.replica.heartbeatSeconds }),
        ...(options.replica.superviseSeconds === undefined
          ? {}
          : { superviseSeconds: options.replica.superviseSeconds }),
      });
    }
  } catch (error) {
    closed = true;
    await queue?.close();
    await leases?.close();
    await listener?.close();
    await pool.end().catch(() => undefined);
    throw error instanceof StoreError ? error : new StoreUnavailableError(location, error);
  }

  // Another process changed rows: re-read them (batched per tick) and patch the mirror.
  function noteChange(table: string, key: string): void {
    const keys = pending.get(table) ?? new Set<string>();
    if (pending.size === 0) setImmediate(() => void serial(applyPending).catch(warnRefresh));
    keys.add(key);
    pending.set(table, keys);
  }
  async function applyPending(): Promise<void> {
    const batch = [...pending];
    pending.clear();
    if (closed) return;
    for (const [name, keys] of batch) {
      const table = TABLES.find((t) => t.table === name);
      if (table === undefined) continue;
      const rows = await selectRows(pool, table, 'key = ANY($1)', [[...keys]]);
      applyRows(mirror, table, rows, (record) => keys.has(table.key(record)), location);
    }
  }

  const refreshWhere = async (
    collection: Collection,
    where: string,
    params: unknown[],
    covered: (record: never) => boolean,
  ): Promise<void> => {
    const table = tableOf(collection);
    applyRows(
      mirror,
      table,
      await selectRows(pool, table, where, params),
      covered as (r: unknown) => boolean,
      location,
    );
  };

  const ctx: StoreContext = {
    data: () => drafting ?? mirror.data,
    now: () => clock().toISOString(),
    nowMs: () => clock().getTime(),
    newId: randomId,
    limits: { ...DEFAULT_STORE_LIMITS, ...options.limits },
    assertOpen() {
      if (closed) throw new StoreClosedError(location);
    },
    async mutate(change) {
      ctx.assertOpen();
      const before = mirror.data;
      const draft = draftOf(before);
      drafting = draft;
      let result: ReturnType<typeof change>;
      try {
        result = change(draft);
      } finally {
        drafting = undefined;
      }
      const diffs = diffData(before, draft);
      if (diffs.length === 0) return result;
      let inserted: Awaited<ReturnType<typeof writeDiff>>;
      try {
        inserted = await writeDiff(pool, origin, diffs);
      } catch (error) {
        if (isUniqueViolation(error)) throw error;
        throw new StoreUnavailableError(location, error);
      }
      // The database has it: now the mirror does too (unless a reload replaced it meanwhile).
      if (mirror.data === before) mirror.data = draft;
      for (const { table, deletes } of diffs) for (const key of deletes) mirror.seqs[table.collection].delete(key);
      for (const [collection, seqs] of inserted) for (const [key, seq] of seqs) mirror.seqs[collection].set(key, seq);
      return result;
    },
  };

  /**
   * Runs one write after the previous one (the mirror is changed by one write at a time). When
   * the database says a key or claim is taken, or a record is missing, the mirror was behind:
   * catch up (the claim's own rows, else everything) and decide once more.
   */
  function write<T>(op: () => Promise<T>, before?: () => Promise<void>): Promise<T> {
    if (!accepting) return Promise.reject(new StoreClosedError(location));
    return serial(async () => {
      try {
        await before?.().catch((error: unknown) => {
          throw new StoreUnavailableError(location, error);
        });
        return await op();
      } catch (error) {
        if (!isUniqueViolation(error) && !(error instanceof StoreNotFoundError)) throw error;
        // A claim re-reads just the rows it decides on; anything else reloads the whole mirror.
        const catchUp = isUniqueViolation(error) && before !== undefined ? before : reloadNow;
        await catchUp().catch((reloadError: unknown) => {
          throw new StoreUnavailableError(location, reloadError);
        });
        try {
          return await op();
        } catch (again) {
          if (!isUniqueViolation(again)) throw again;
          const constraint = String((again as { constraint?: unknown }).constraint ?? 'a unique key');
          throw new StoreConflictError('record', constraint);
        }
      }
    });
  }

  const jobs = createJobsRepository(ctx);
  const subscriptions = createSubscriptionsRepository(ctx);
  const runs = createRunsRepository(ctx);
  const incidents = createIncidentsRepository(ctx);
  const schedules = createSchedulesRepository(ctx);
  const subscriptionRows = (report: string, channel: string) => () =>
    refreshWhere(
      'subscriptions',
      'report = $1 AND channel = $2',
      [report, channel],
      (s: { report: string; channel: string }) => s.report === report && s.channel === channel,
    );

  const refreshTimer =
    (options.refreshIntervalMs ?? 60_000) > 0
      ? setInterval(() => void serial(reloadNow).catch(warnRefresh), options.refreshIntervalMs ?? 60_000)
      : undefined;
  refreshTimer?.unref();

  const { data } = mirror;
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

  // The leases follow the claims: held once the claim is in the database, released once finished.
  const held = async <T>(kind: 'run' | 'job', id: string, result: T): Promise<T> => {
    await leases?.hold(kind, id);
    return result;
  };
  const released = async <T>(kind: 'run' | 'job', id: string, result: T, finished: boolean): Promise<T> => {
    if (finished) await leases?.release(kind, id);
    return result;
  };

  return {
    jobs: {
      ...jobs,
      create: async (job) =>
        held(
          'job',
          job.id,
          await write(
            () => jobs.create(job),
            () => refreshWhere('jobs', 'key = $1', [job.id], (j: { id: string }) => j.id === job.id),
          ),
        ),
      update: async (id, patch) => {
        const job = await write(() => jobs.update(id, patch));
        return released('job', id, job, job.status !== 'queued' && job.status !== 'running');
      },
    },
    subscriptions: {
      ...subscriptions,
      add: (input) => write(() => subscriptions.add(input), subscriptionRows(input.report, input.channel)),
      remove: (report, channel) =>
        write(() => subscriptions.remove(report, channel), subscriptionRows(report, channel)),
    },
    runs: {
      ...runs,
      start: async (input) => {
        const claim = await write(
          () => runs.start(input),
          () =>
            refreshWhere(
              'runs',
              'idempotency_key = $1',
              [input.idempotencyKey],
              (r: { idempotencyKey: string }) => r.idempotencyKey === input.idempotencyKey,
            ),
        );
        return claim.started ? held('run', claim.run.id, claim) : claim;
      },
      finish: async (id, outcome) => released('run', id, await write(() => runs.finish(id, outcome)), true),
      linkJob: (id, jobId) => write(() => runs.linkJob(id, jobId)),
    },
    incidents: {
      ...incidents,
      open: (input) =>
        write(
          () => incidents.open(input),
          () =>
            refreshWhere(
              'incidents',
              'rule_id = $1 AND entity_key = $2',
              [input.ruleId, input.entityKey],
              (i: { ruleId: string; entityKey: string }) =>
                i.ruleId === input.ruleId && i.entityKey === input.entityKey,
            ),
        ),
      update: (id, patch) => write(() => incidents.update(id, patch)),
      applyEvaluation: (evaluation) => write(() => incidents.applyEvaluation(evaluation)),
      applyEvaluations: (evaluations) => write(() => incidents.applyEvaluations(evaluations)),
      save: (incident) => write(() => incidents.save(incident)),
    },
    schedules: {
      ...schedules,
      setLastFire: (scheduleId, at) => write(() => schedules.setLastFire(scheduleId, at)),
      remove: (scheduleId) => write(() => schedules.remove(scheduleId)),
    },
    location,

    // A write resolves once its transaction committed; nothing is ever left to flush.
    flush: () => write(async () => undefined),

    refresh: () => write(reloadNow),
    ...(leases === undefined ? {} : { leases }),
    ...(queue === undefined ? {} : { queue }),
    snapshot: () => mirror.data,

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
      if (!accepting) return;
      accepting = false;
      if (refreshTimer !== undefined) clearInterval(refreshTimer);
      await tail;
      closed = true;
      // After the last write: what this process still holds is the other replicas' from now on.
      await queue?.close();
      await leases?.close();
      await listener?.close();
      await pool
        .end()
        .catch((error: unknown) => logger.warn({ err: error, store: location }, 'closing the pool failed'));
    },
  };
}
