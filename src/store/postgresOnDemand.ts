/**
 * The PostgreSQL store's entry points, loaded on first use. `pg` and `pg-boss` (about 7 MiB of heap
 * once loaded) are imported when a PostgreSQL URL is opened or migrated to, so a bot on the JSON
 * store never loads them (docs/benchmarks.md, "Footprint").
 */
import type * as Postgres from './postgres/index.js';

const postgres = (): Promise<typeof Postgres> => import('./postgres/index.js');

/** `openPostgresStore` of `postgres/openPostgresStore.ts`, loaded on first use. */
export async function openPostgresStore(options: Postgres.PostgresStoreOptions): Promise<Postgres.PostgresStore> {
  return (await postgres()).openPostgresStore(options);
}

/** `copyStoreData` of `postgres/copyStoreData.ts`, loaded on first use. */
export async function copyStoreData(...args: Parameters<typeof Postgres.copyStoreData>): Promise<Postgres.CopyCounts> {
  return (await postgres()).copyStoreData(...args);
}

/** `migrateStoreFile` of `postgres/migrateStoreFile.ts`, loaded on first use. */
export async function migrateStoreFile(
  ...args: Parameters<typeof Postgres.migrateStoreFile>
): Promise<Postgres.MigrateStoreFileResult> {
  return (await postgres()).migrateStoreFile(...args);
}
