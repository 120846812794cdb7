import { readFile, stat } from 'node:fs/promises';
import pg from 'pg';
import type { Logger } from '../../core/index.js';
import { ErrorCode } from '../../core/index.js';
import { decodeStoreText } from '../decodeStoreText.js';
import { StoreError, StoreLockedError } from '../StoreError.js';
import { type CopyCounts, copyStoreData } from './copyStoreData.js';
import { migratePostgres } from './migratePostgres.js';
import { StoreUnavailableError } from './postgresErrors.js';
import { isUniqueViolation } from './postgresRows.js';
import { redactUrl } from './redactUrl.js';

export interface MigrateStoreFileResult {
  counts: CopyCounts;
  /** The collections whose records are not all in the database after the copy (empty when verified). */
  missing: string[];
  /** The file's store version (older files are migrated in memory first; the file is never changed). */
  fromVersion: number;
}

/**
 * Copies a JSON store file into a PostgreSQL database (migrating its tables first), then checks
 * by counts that every record is there. Idempotent: records already present are left as they
 * are. The file is only read; a file whose lock says a pivotbot is using it is refused, since
 * that bot would keep writing to the file after the copy.
 *
 * @example const { counts, missing } = await migrateStoreFile({ from: 'data/pivotbot.json', to: url, logger });
 */
export async function migrateStoreFile(options: {
  from: string;
  to: string;
  logger: Logger;
}): Promise<MigrateStoreFileResult> {
  const location = redactUrl(options.to);
  const lockPath = `${options.from}.lock`;
  if (
    await stat(lockPath).then(
      () => true,
      () => false,
    )
  ) {
    throw new StoreLockedError(
      `${lockPath} exists: a pivotbot may still be using ${options.from}. Stop it first (its later writes would not be copied); ` +
        'if none runs, delete the lock file and run migrate-store again.',
      { path: lockPath },
    );
  }
  const text = await readFile(options.from, 'utf8').catch((error: unknown) => {
    throw new StoreError(
      ErrorCode.StoreFileUnreadable,
      `Cannot read the store file ${options.from}: ${(error as Error).message}`,
      {
        cause: error,
        details: { path: options.from },
      },
    );
  });
  const { data, fromVersion } = decodeStoreText(text, options.from);
  const pool = new pg.Pool({ connectionString: options.to, max: 2, connectionTimeoutMillis: 5000 });
  pool.on('error', (error) => options.logger.warn({ err: error, store: location }, 'store database connection lost'));
  try {
    await migratePostgres(pool, { location, logger: options.logger });
    const counts = await copyStoreData(pool, data);
    const missing = Object.entries(counts)
      .filter(([, c]) => c.present !== c.source)
      .map(([collection]) => collection);
    return { counts, missing, fromVersion };
  } catch (error) {
    if (isUniqueViolation(error)) {
      const detail = String((error as { detail?: unknown }).detail ?? (error as Error).message);
      throw new StoreError(
        ErrorCode.StoreMigrateConflict,
        `${options.from} holds a record that conflicts with one already in ${location} (${detail}); nothing was copied. ` +
          'Migrate into an empty database, or remove the conflicting record from one side.',
        { cause: error, details: { path: options.from } },
      );
    }
    throw error instanceof StoreError ? error : new StoreUnavailableError(location, error);
  } finally {
    await pool.end().catch(() => undefined);
  }
}
