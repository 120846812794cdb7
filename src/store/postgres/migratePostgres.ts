import type pg from 'pg';
import type { Logger } from '../../core/index.js';
import { StoreTooNewError } from '../StoreError.js';
import { checkout } from './checkout.js';
import { MIGRATIONS, POSTGRES_SCHEMA_VERSION } from './postgresSchema.js';

/** Advisory lock keys (`pg_advisory_lock(class, id)`): "pvbt" as a 32-bit class, then the purpose. */
export const LOCK_CLASS = 0x70766274;
export const MIGRATION_LOCK_ID = 1;
export const SINGLE_PROCESS_LOCK_ID = 2;
export const QUEUE_SETUP_LOCK_ID = 3;

/**
 * Brings the database's tables to `POSTGRES_SCHEMA_VERSION`, each migration in its own
 * transaction, while holding an advisory lock so that replicas starting together migrate once.
 * A database migrated by a newer pivotbot is refused (`STORE_TOO_NEW`) and left untouched.
 * Resolves to the versions before and after.
 */
export async function migratePostgres(
  pool: pg.Pool,
  options: { location: string; logger: Logger },
): Promise<{ from: number; to: number }> {
  const client = await checkout(pool);
  try {
    await client.query('SELECT pg_advisory_lock($1, $2)', [LOCK_CLASS, MIGRATION_LOCK_ID]);
    try {
      await client.query(
        'CREATE TABLE IF NOT EXISTS pivotbot_schema_version (version integer PRIMARY KEY, migrated_at timestamptz NOT NULL DEFAULT now())',
      );
      const { rows } = await client.query<{ version: number | null }>(
        'SELECT max(version) AS version FROM pivotbot_schema_version',
      );
      const from = rows[0]?.version ?? 0;
      if (from > POSTGRES_SCHEMA_VERSION) throw new StoreTooNewError(options.location, from, POSTGRES_SCHEMA_VERSION);
      for (let version = from; version < POSTGRES_SCHEMA_VERSION; version++) {
        await client.query('BEGIN');
        try {
          await client.query(MIGRATIONS[version] as string);
          await client.query('INSERT INTO pivotbot_schema_version (version) VALUES ($1)', [version + 1]);
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK').catch(() => undefined);
          throw error;
        }
        options.logger.info({ store: options.location, version: version + 1 }, 'store database migrated');
      }
      return { from, to: POSTGRES_SCHEMA_VERSION };
    } finally {
      await client.query('SELECT pg_advisory_unlock($1, $2)', [LOCK_CLASS, MIGRATION_LOCK_ID]).catch(() => undefined);
    }
  } finally {
    client.release();
  }
}
