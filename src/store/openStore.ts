import { dirname, resolve } from 'node:path';
import type { Logger } from '../core/index.js';
import { acquireStoreLock } from './acquireStoreLock.js';
import { createStore } from './createStore.js';
import { loadStoreFile } from './loadStoreFile.js';
import { createFileDocument } from './lowDocument.js';
import { isPostgresUrl } from './postgres/redactUrl.js';
import { openPostgresStore } from './postgresOnDemand.js';
import type { Store, StoreLimits } from './Store.js';
import { StoreWriteFailedError } from './StoreError.js';
import { type StoreFs, storeFs } from './storeFs.js';
import { removeIfPresent } from './writeFileDurably.js';

export interface OpenStoreOptions {
  /**
   * The JSON file (`PIVOTBOT_STORE`, default `data/pivotbot.json`; its folder is created if
   * needed), or a `postgres://` / `postgresql://` URL for the PostgreSQL store.
   */
  path: string;
  logger: Logger;
  clock?: () => Date;
  limits?: Partial<StoreLimits>;
  /** PostgreSQL only: how long a replica that stopped answering keeps its async jobs and manual runs (default 30 s). */
  leaseMs?: number;
  /** PostgreSQL only: how long a scheduled step stays with a replica whose heartbeat for it stopped (default 30 s, at least 10). */
  heartbeatSeconds?: number;
  /** Replaces file-system calls, to simulate a full disk or a read-only file system in tests. */
  fs?: Partial<StoreFs>;
}

/**
 * Opens the store file for this process: takes its lock, loads it (recovering from the backup
 * when it is damaged), and returns the repositories. Throws `StoreLockedError` when another
 * live pivotbot holds the lock, `StoreTooNewError` for a file from a newer pivotbot,
 * `StoreCorruptError` when neither the file nor its backup can be used, and
 * `StoreWriteFailedError` when the folder cannot be written. A PostgreSQL URL opens the
 * PostgreSQL store instead (`openPostgresStore`) as one of any number of replicas on that
 * database (heartbeat and leases): `StoreUnavailableError` when the database cannot be reached.
 *
 * @example const store = await openStore({ path: config.storePath, logger });
 *          try { await store.subscriptions.add({ report, channel, createdBy }); } finally { await store.close(); }
 */
export async function openStore(options: OpenStoreOptions): Promise<Store> {
  if (isPostgresUrl(options.path)) {
    // Any number of processes per database: claims are decided by the database, and the work of
    // a process that dies is adopted by the others once its lease expires.
    return openPostgresStore({
      url: options.path,
      logger: options.logger,
      replica: {
        ...(options.leaseMs === undefined ? {} : { leaseMs: options.leaseMs }),
        ...(options.heartbeatSeconds === undefined ? {} : { heartbeatSeconds: options.heartbeatSeconds }),
      },
      ...(options.clock === undefined ? {} : { clock: options.clock }),
      ...(options.limits === undefined ? {} : { limits: options.limits }),
    });
  }
  const path = resolve(options.path);
  const fs = storeFs(options.fs);
  const { logger } = options;
  const clock = options.clock ?? (() => new Date());

  try {
    await fs.mkdir(dirname(path), { recursive: true });
  } catch (error) {
    throw new StoreWriteFailedError(dirname(path), error);
  }
  const lock = await acquireStoreLock(`${path}.lock`, { fs, logger, now: clock });
  try {
    // Leftovers of a write that was interrupted: never the real file, so safe to drop. If one
    // cannot be removed, the next write fails with STORE_WRITE_FAILED and says why.
    for (const leftover of [`${path}.tmp`, `${path}.bak.tmp`]) {
      await removeIfPresent(fs, leftover).catch((error: unknown) => {
        logger.warn({ err: error, path: leftover }, `could not remove ${leftover}`);
      });
    }
    const loaded = await loadStoreFile(path, { fs, logger, now: clock });
    const document = createFileDocument(path, loaded.data, fs);
    if (loaded.source !== 'file') await document.write();
    const { data } = document;
    logger.info(
      {
        path,
        source: loaded.source,
        jobs: data.jobs.length,
        subscriptions: data.subscriptions.length,
        runs: data.runs.length,
        incidents: data.incidents.length,
      },
      'store opened',
    );
    return createStore({
      document,
      location: path,
      logger,
      clock,
      ...(options.limits === undefined ? {} : { limits: options.limits }),
      onClose: () => lock.release(),
    });
  } catch (error) {
    await lock.release().catch(() => undefined);
    throw error;
  }
}
