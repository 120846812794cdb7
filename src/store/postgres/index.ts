// The PostgreSQL store: the same repositories as the JSON store over tables, with claims decided by the database.

export type { LeaseKind, ReplicaLeases } from '../ReplicaStore.js';
export { type CopyCounts, copyStoreData } from './copyStoreData.js';
export { LOCK_CLASS, MIGRATION_LOCK_ID, migratePostgres, SINGLE_PROCESS_LOCK_ID } from './migratePostgres.js';
export { type MigrateStoreFileResult, migrateStoreFile } from './migrateStoreFile.js';
export {
  DEFAULT_LEASE_MS,
  openPostgresStore,
  type PostgresStore,
  type PostgresStoreOptions,
} from './openPostgresStore.js';
export { StoreUnavailableError } from './postgresErrors.js';
export { POSTGRES_SCHEMA_VERSION } from './postgresSchema.js';
export { isPostgresUrl, redactUrl } from './redactUrl.js';
export { startReplicaLeases } from './replicaLeases.js';
