import type pg from 'pg';
import type { Logger } from '../../core/index.js';
import type { StoreLimits } from '../Store.js';
import { StoreClosedError, StoreConflictError, StoreNotFoundError } from '../StoreError.js';
import { randomId, type StoreContext } from '../storeContext.js';
import type { StoreData } from '../storeSchema.js';
import { StoreUnavailableError } from './postgresErrors.js';
import { applyRows, diffData, draftOf, emptyMirror, type Mirror, mirrorFromRows } from './postgresMirror.js';
import { isUniqueViolation, selectAllRows, selectRows, writeDiff } from './postgresRows.js';
import { type Collection, TABLES, tableOf } from './postgresSchema.js';

export interface PostgresWriterOptions {
  pool: pg.Pool;
  /** This process's name in change notifications (its own changes are not read back). */
  origin: string;
  /** The database, password hidden (for messages and logs). */
  location: string;
  clock: () => Date;
  limits: StoreLimits;
  logger: Logger;
}

/**
 * The mirror and the writes of the PostgreSQL store: the in-memory copy of the tables that serves
 * synchronous reads, and one write at a time, to the database first and then to the mirror.
 */
export interface PostgresWriter {
  /** What the shared repositories decide in: the mirror, and `mutate` that writes to the database. */
  readonly ctx: StoreContext;
  /**
   * Runs one write after the previous one. When the database says a key or claim is taken, or a
   * record is missing, the mirror was behind: catch up (`before`, the claim's own rows, else
   * everything) and decide once more.
   */
  write<T>(op: () => Promise<T>, before?: () => Promise<void>): Promise<T>;
  /** Re-reads the rows of `collection` that match `where` (those `covered` are replaced in the mirror). */
  refreshWhere<R>(
    collection: Collection,
    where: string,
    params: unknown[],
    covered: (record: R) => boolean,
  ): Promise<void>;
  /** Loads the whole mirror after the writes before it (at open: changes announced meanwhile come after). */
  load(): Promise<void>;
  /** `load`, its failure logged (the next reload retries): on a timer, after a reconnect. */
  reloadLater(): void;
  /** `load` as a write: refused once the store closes (`store.refresh()`). */
  refresh(): Promise<void>;
  /** Another process changed a row: re-read it (batched per tick) and patch the mirror. */
  noteChange(table: string, key: string): void;
  /** The mirror as it is now. */
  snapshot(): StoreData;
  /** Refuses new writes and waits for the last; false when already closed. */
  drain(): Promise<boolean>;
  /** Marks the store closed without waiting (it failed to open). */
  abandon(): void;
}

/** @example const writer = createPostgresWriter({ pool, origin, location, clock, limits, logger }); */
export function createPostgresWriter(options: PostgresWriterOptions): PostgresWriter {
  const { pool, origin, location, clock, logger } = options;
  let mirror: Mirror = emptyMirror();
  const pending = new Map<string, Set<string>>();
  let tail: Promise<unknown> = Promise.resolve();
  let accepting = true;
  let closed = false;
  let drafting: StoreData | undefined;
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = tail.then(fn, fn);
    tail = run.catch(() => undefined);
    return run;
  };
  const warnRefresh = (error: unknown): void =>
    logger.warn({ err: error, store: location }, 'store mirror could not be refreshed; it is retried');
  const reloadNow = async (): Promise<void> => {
    mirror = mirrorFromRows(await selectAllRows(pool), location);
  };

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

  const ctx: StoreContext = {
    data: () => drafting ?? mirror.data,
    now: () => clock().toISOString(),
    nowMs: () => clock().getTime(),
    newId: randomId,
    limits: options.limits,
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

  return {
    ctx,
    write,
    async refreshWhere(collection, where, params, covered) {
      const table = tableOf(collection);
      applyRows(
        mirror,
        table,
        await selectRows(pool, table, where, params),
        covered as (r: unknown) => boolean,
        location,
      );
    },
    load: () => serial(reloadNow),
    reloadLater: () => void serial(reloadNow).catch(warnRefresh),
    refresh: () => write(reloadNow),
    noteChange(table, key) {
      const keys = pending.get(table) ?? new Set<string>();
      if (pending.size === 0) setImmediate(() => void serial(applyPending).catch(warnRefresh));
      keys.add(key);
      pending.set(table, keys);
    },
    snapshot: () => mirror.data,
    async drain() {
      if (!accepting) return false;
      accepting = false;
      await tail;
      closed = true;
      return true;
    },
    abandon() {
      closed = true;
    },
  };
}
