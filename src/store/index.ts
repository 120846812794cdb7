// Durable state: the lowdb JSON store (versioned, atomic, recoverable), the PostgreSQL store, and one repository per record kind.

export { createMemoryStore, type MemoryStoreOptions } from './createMemoryStore.js';
export { type DecodedStore, decodeStoreText } from './decodeStoreText.js';
export { type Migration, migrations } from './migrations.js';
export { type OpenStoreOptions, openStore } from './openStore.js';
export {
  type CopyCounts,
  copyStoreData,
  isPostgresUrl,
  type MigrateStoreFileResult,
  migrateStoreFile,
  openPostgresStore,
  POSTGRES_SCHEMA_VERSION,
  type PostgresStore,
  type PostgresStoreOptions,
  redactUrl,
  StoreUnavailableError,
} from './postgres/index.js';
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
