import { z } from 'zod';

/**
 * The shape of the store file, version 1, as zod schemas: the one definition both of what is
 * loaded (validated on every start) and of what may be written (each record is checked before
 * it is accepted, so a bad write can never make the next start-up fail).
 */

export const STORE_VERSION = 1;

const text = z.string().min(1);
const timestamp = z.iso.datetime({ offset: true });
/** Slack message timestamps stay strings ("1700000000.000100"); as floats they lose digits. */
const slackTs = z.string().regex(/^\d+\.\d+$/, 'expected a Slack ts such as "1700000000.000100"');
const storedError = z.object({ code: text, message: z.string() });

export const JOB_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;
export const ACTIVE_JOB_STATUSES: readonly JobStatus[] = ['queued', 'running'];

/** An asynchronous report job a user started from Slack (`/pivot status <id>` reads it). */
export const asyncJobSchema = z.object({
  id: text,
  /** The reporting request as JSON; the store does not interpret it. */
  request: z.record(z.string(), z.unknown()),
  /** Slack user id of whoever asked. */
  requester: text,
  channel: text,
  threadTs: slackTs.exactOptional(),
  status: z.enum(JOB_STATUSES),
  createdAt: timestamp,
  updatedAt: timestamp,
  startedAt: timestamp.exactOptional(),
  finishedAt: timestamp.exactOptional(),
  /** Where the downloaded result (CSV) was written. */
  resultFile: text.exactOptional(),
  error: storedError.exactOptional(),
});

/** A channel's subscription to a named report's digest. */
export const subscriptionSchema = z.object({
  id: text,
  report: text,
  channel: text,
  /** Overrides the report's own schedule: a cron expression. */
  schedule: text.exactOptional(),
  /** Slack user id of whoever subscribed. */
  createdBy: text,
  createdAt: timestamp,
  updatedAt: timestamp,
});

export const RUN_TRIGGERS = ['schedule', 'catch-up', 'manual'] as const;
export const RUN_STATUSES = ['running', 'succeeded', 'failed', 'skipped'] as const;

/** One execution of a report: scheduled, caught up after downtime, or asked for by hand. */
export const runSchema = z.object({
  id: text,
  report: text,
  trigger: z.enum(RUN_TRIGGERS),
  /** The schedule slot this run serves (absent for manual runs). */
  scheduledFor: timestamp.exactOptional(),
  /** Same key, same run: a second start with this key does not run the report again. */
  idempotencyKey: text,
  /** 1 for the first try of a key; a failed run may be started again as attempt 2, 3… */
  attempt: z.number().int().min(1),
  status: z.enum(RUN_STATUSES),
  subscriptionId: text.exactOptional(),
  channel: text.exactOptional(),
  startedAt: timestamp,
  finishedAt: timestamp.exactOptional(),
  durationMs: z.number().min(0).exactOptional(),
  error: storedError.exactOptional(),
  /** ts of the message the run posted. */
  messageTs: slackTs.exactOptional(),
});

export const INCIDENT_STATES = ['open', 'resolved'] as const;

/** One alert incident: a rule breached for one entity, kept in one Slack thread. */
export const alertIncidentSchema = z.object({
  id: text,
  ruleId: text,
  /** Which entity breached, e.g. "campaign=123|country=BR". */
  entityKey: text,
  state: z.enum(INCIDENT_STATES),
  channel: text,
  /** ts of the thread's parent message, once posted. */
  threadTs: slackTs.exactOptional(),
  /** Observed metric values, oldest first (bounded). */
  values: z.array(z.object({ at: timestamp, value: z.number() })),
  openedAt: timestamp,
  updatedAt: timestamp,
  resolvedAt: timestamp.exactOptional(),
});

/** Scheduler bookkeeping: when a schedule last fired, so missed slots can be caught up. */
export const scheduleFireSchema = z.object({
  scheduleId: text,
  lastFireAt: timestamp,
  updatedAt: timestamp,
});

const uniqueBy =
  <T>(key: (item: T) => string, label: string) =>
  (items: readonly T[], ctx: z.RefinementCtx): void => {
    const seen = new Set<string>();
    items.forEach((item, index) => {
      const k = key(item);
      if (seen.has(k)) ctx.addIssue({ code: 'custom', message: `duplicate ${label} "${k}"`, path: [index] });
      seen.add(k);
    });
  };

export const storeDataSchema = z.object({
  version: z.literal(STORE_VERSION),
  jobs: z.array(asyncJobSchema).superRefine(uniqueBy((j) => j.id, 'job id')),
  subscriptions: z.array(subscriptionSchema).superRefine(uniqueBy((s) => s.id, 'subscription id')),
  runs: z.array(runSchema).superRefine(uniqueBy((r) => r.id, 'run id')),
  incidents: z.array(alertIncidentSchema).superRefine(uniqueBy((i) => i.id, 'incident id')),
  schedules: z.array(scheduleFireSchema).superRefine(uniqueBy((s) => s.scheduleId, 'schedule id')),
});

export type JobStatus = (typeof JOB_STATUSES)[number];
export type RunTrigger = (typeof RUN_TRIGGERS)[number];
export type RunStatus = (typeof RUN_STATUSES)[number];
export type IncidentState = (typeof INCIDENT_STATES)[number];
export type StoredError = z.output<typeof storedError>;
export type AsyncJob = z.output<typeof asyncJobSchema>;
export type Subscription = z.output<typeof subscriptionSchema>;
export type Run = z.output<typeof runSchema>;
export type AlertIncident = z.output<typeof alertIncidentSchema>;
export type ScheduleFire = z.output<typeof scheduleFireSchema>;
/** The whole file, current version. */
export type StoreData = z.output<typeof storeDataSchema>;

/** A store with nothing in it, at the current version. */
export function emptyStoreData(): StoreData {
  return { version: STORE_VERSION, jobs: [], subscriptions: [], runs: [], incidents: [], schedules: [] };
}
