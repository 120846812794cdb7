import type { z } from 'zod';
import {
  type AlertEvaluation,
  type AlertIncident,
  type AsyncJob,
  alertEvaluationSchema,
  alertIncidentSchema,
  asyncJobSchema,
  type Run,
  runSchema,
  type ScheduleFire,
  type StoreData,
  type Subscription,
  scheduleFireSchema,
  subscriptionSchema,
} from '../storeSchema.js';
import { LEASE_TABLES } from './replicaLeases.js';

/**
 * How each collection of the store is kept in PostgreSQL: one table per collection, each row
 * the record as JSONB (`body`, validated by the same zod schema as the JSON file) under its key,
 * a `seq` that keeps insertion order (the JSON file's array order), and the few columns the
 * database needs to decide claims by itself (unique indexes, see `MIGRATIONS`).
 */
export interface TableSpec<T = unknown> {
  collection: Collection;
  table: string;
  /** Singular, for messages. */
  kind: string;
  schema: z.ZodType<T>;
  key(record: T): string;
  /** Extra columns, in this order, beside `key`, `seq` and `body`. */
  columns: readonly { name: string; of(record: T): string }[];
}

export type Collection = Exclude<keyof StoreData, 'version'>;

const spec = <T>(table: TableSpec<T>): TableSpec => table as unknown as TableSpec;

export const TABLES: readonly TableSpec[] = [
  spec<AsyncJob>({
    collection: 'jobs',
    table: 'pivotbot_jobs',
    kind: 'job',
    schema: asyncJobSchema,
    key: (job) => job.id,
    columns: [],
  }),
  spec<Subscription>({
    collection: 'subscriptions',
    table: 'pivotbot_subscriptions',
    kind: 'subscription',
    schema: subscriptionSchema,
    key: (s) => s.id,
    columns: [
      { name: 'report', of: (s) => s.report },
      { name: 'channel', of: (s) => s.channel },
    ],
  }),
  spec<Run>({
    collection: 'runs',
    table: 'pivotbot_runs',
    kind: 'run',
    schema: runSchema,
    key: (run) => run.id,
    columns: [
      { name: 'idempotency_key', of: (run) => run.idempotencyKey },
      { name: 'status', of: (run) => run.status },
    ],
  }),
  spec<AlertIncident>({
    collection: 'incidents',
    table: 'pivotbot_incidents',
    kind: 'incident',
    schema: alertIncidentSchema,
    key: (i) => i.id,
    columns: [
      { name: 'report_id', of: (i) => i.reportId ?? '' },
      { name: 'rule_id', of: (i) => i.ruleId },
      { name: 'entity_key', of: (i) => i.entityKey },
      { name: 'state', of: (i) => i.state },
    ],
  }),
  spec<ScheduleFire>({
    collection: 'schedules',
    table: 'pivotbot_schedules',
    kind: 'schedule',
    schema: scheduleFireSchema,
    key: (s) => s.scheduleId,
    columns: [],
  }),
  spec<AlertEvaluation>({
    collection: 'alertEvaluations',
    table: 'pivotbot_alert_evaluations',
    kind: 'alert evaluation',
    schema: alertEvaluationSchema,
    key: (e) => e.ruleKey,
    columns: [],
  }),
];

export const tableOf = (collection: Collection): TableSpec => {
  const table = TABLES.find((t) => t.collection === collection);
  if (table === undefined) throw new Error(`no table for ${collection}`);
  return table;
};

/** The channel every row change is announced on (payload: `{"t": table, "k": key, "o": origin}`). */
export const CHANGE_CHANNEL = 'pivotbot_store_changes';

const recordTable = (table: string, columns = ''): string =>
  `CREATE TABLE ${table} (key text PRIMARY KEY, seq bigserial NOT NULL, body jsonb NOT NULL${columns});
   CREATE TRIGGER ${table}_changed AFTER INSERT OR UPDATE OR DELETE ON ${table}
     FOR EACH ROW EXECUTE FUNCTION pivotbot_announce_change();`;

/**
 * Forward migrations: `MIGRATIONS[n]` takes the database from version n to n+1, in one
 * transaction, under an advisory lock (several replicas may start at once). Append only.
 */
export const MIGRATIONS: readonly string[] = [
  `CREATE FUNCTION pivotbot_announce_change() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     -- The writer sets pivotbot.origin for its transaction, so it can skip its own changes.
     PERFORM pg_notify('${CHANGE_CHANNEL}', json_build_object(
       't', TG_TABLE_NAME,
       'k', CASE WHEN TG_OP = 'DELETE' THEN OLD.key ELSE NEW.key END,
       'o', current_setting('pivotbot.origin', true))::text);
     RETURN NULL;
   END $$;
   ${recordTable('pivotbot_jobs')}
   ${recordTable('pivotbot_subscriptions', ', report text NOT NULL, channel text NOT NULL')}
   CREATE UNIQUE INDEX pivotbot_subscriptions_one_per_channel ON pivotbot_subscriptions (report, channel);
   ${recordTable('pivotbot_runs', ', idempotency_key text NOT NULL, status text NOT NULL')}
   -- The claim of a run key: at most one run per key that is not failed (a failed key may be retried).
   CREATE UNIQUE INDEX pivotbot_runs_one_live_per_key ON pivotbot_runs (idempotency_key) WHERE status <> 'failed';
   ${recordTable('pivotbot_incidents', ', report_id text NOT NULL, rule_id text NOT NULL, entity_key text NOT NULL, state text NOT NULL')}
   -- At most one open incident per (report, rule, entity): rule ids are unique within a report only.
   CREATE UNIQUE INDEX pivotbot_incidents_one_open ON pivotbot_incidents (report_id, rule_id, entity_key) WHERE state = 'open';
   CREATE INDEX pivotbot_incidents_rule ON pivotbot_incidents (rule_id, entity_key);
   ${recordTable('pivotbot_schedules')}
   ${recordTable('pivotbot_alert_evaluations')}`,
  // Replicas' heartbeats and the leases of the work each holds (not mirrored: read by queries only).
  LEASE_TABLES,
];

export const POSTGRES_SCHEMA_VERSION = MIGRATIONS.length;
