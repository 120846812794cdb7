// Durable state: the lowdb JSON store (versioned, atomic, recoverable), the PostgreSQL store, and one repository per record kind.

export { createMemoryStore, type MemoryStoreOptions } from './createMemoryStore.js';
export { type DecodedStore, decodeStoreText } from './decodeStoreText.js';
export { type Migration, migrations } from './migrations.js';
export { type OpenStoreOptions, openStore } from './openStore.js';
// The PostgreSQL store: its light parts here; the rest (pg, pg-boss) loaded when first used.
export type { CopyCounts, MigrateStoreFileResult, PostgresStore, PostgresStoreOptions } from './postgres/index.js';
export { StoreUnavailableError } from './postgres/postgresErrors.js';
export { isPostgresUrl, redactUrl } from './postgres/redactUrl.js';
export { copyStoreData, migrateStoreFile, openPostgresStore } from './postgresOnDemand.js';
export { isReplicaStore, type LeaseKind, type ReplicaLeases, type ReplicaStore } from './ReplicaStore.js';
export type { QueuedDelivery, QueuedSlot, SlotQueue } from './SlotQueue.js';
export {
  type AsyncJobPatch,
  DEFAULT_STORE_LIMITS,
  type EvaluationWrite,
  type IncidentPatch,
  type IncidentsRepository,
  type JobsRepository,
  type NewAsyncJob,
  type NewIncident,
  type NewRun,
  type NewSubscription,
  type RunOutcome,
  type RunsRepository,
  type SchedulesRepository,
  type Store,
  type StoreLimits,
  type SubscriptionsRepository,
} from './Store.js';
export {
  StoreClosedError,
  StoreConflictError,
  StoreCorruptError,
  StoreError,
  StoreInvalidRecordError,
  StoreLockedError,
  StoreNotFoundError,
  StoreTooNewError,
  StoreWriteFailedError,
} from './StoreError.js';
export type { StoreFileHandle, StoreFs } from './storeFs.js';
export { type StoreHealth, storeHealth } from './storeHealth.js';
export {
  type AlertEvaluation,
  type AlertIncident,
  type AsyncJob,
  type EntityPart,
  emptyStoreData,
  type IncidentState,
  type JobStatus,
  type OwedReply,
  type PendingBreach,
  type Run,
  type RunStatus,
  type RunTrigger,
  type ScheduleFire,
  STORE_VERSION,
  type StoreData,
  type StoredError,
  type Subscription,
} from './storeSchema.js';
