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
  /** Overrides the report's own schedule: a cron expression (written before `cron` existed; still read). */
  schedule: text.exactOptional(),
  /** The subscription's own time, daily `HH:MM` (instead of the report's schedule). */
  at: z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'expected HH:MM')
    .exactOptional(),
  /** The subscription's own cron expression (instead of the report's schedule). */
  cron: text.exactOptional(),
  /** IANA zone of the subscription's time (else the report's, else PIVOTBOT_TIMEZONE). */
  timezone: text.exactOptional(),
  /**
   * A saved query ("Schedule this"): the query text the digest runs, under the report id
   * `saved-<name>`; absent for subscriptions to report files.
   */
  query: text.exactOptional(),
  /**
   * A watch ("Watch this"): the alert rule evaluated on `query`, under the report id
   * `watch-<name>`, as a report file's `alerts` entry (checked when the reports are loaded).
   */
  watch: z.record(z.string(), z.unknown()).exactOptional(),
  /**
   * A personal watch: the Slack user id of its owner, whose direct message with the bot is
   * `channel` (its incident threads go there). Absent for a channel watch, an admin's.
   */
  owner: text.exactOptional(),
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
  /** Slack user id of whoever asked for a manual run: told if a restart interrupts it. */
  requester: text.exactOptional(),
  /** The `/pivot` text of a manual run, offered to run it again after an interruption. */
  command: text.exactOptional(),
  /** The async job the run became, written when the job is created: its outcome finishes the run. */
  jobId: text.exactOptional(),
});

export const INCIDENT_STATES = ['open', 'resolved'] as const;

/** A value's expected band (anomaly rules): median ± sensitivity × 1.4826 × MAD. */
const bandSchema = z.object({ low: z.number(), high: z.number(), median: z.number() });

/** The facts a threshold, change or anomaly reply quotes (the alert core's `ConditionFacts`). */
const simpleConditionFactsSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.enum(['above', 'below']), threshold: z.number(), recovery: z.number() }),
  z.object({ kind: z.literal('equals'), target: z.number() }),
  z.object({
    kind: z.literal('change'),
    vs: z.enum(['previous_period', 'same_period_last_week']),
    above: z.number().exactOptional(),
    below: z.number().exactOptional(),
    recovery: z.number().exactOptional(),
    comparisonValue: z.number().nullable(),
    percent: z.number(),
  }),
  z.object({
    kind: z.literal('anomaly'),
    baseline: z.enum(['same_weekday', 'same_hour']),
    weeks: z.number(),
    sensitivity: z.number(),
    direction: z.enum(['up', 'down', 'any']),
    median: z.number(),
    low: z.number(),
    high: z.number(),
    score: z.number(),
  }),
]);

/** A compound rule's facts: each condition with its metric, value and whether it held. */
const compoundPartSchema = z.object({
  metric: text,
  value: z.number(),
  breach: z.boolean(),
  facts: simpleConditionFactsSchema,
});

/** A pacing rule's facts: the month's forecast against its plan. */
const pacingFactsSchema = z.object({
  kind: z.literal('pacing'),
  month: text,
  plan: z.number(),
  spent: z.number(),
  forecast: z.number(),
  share: z.number(),
  tolerance: z.number(),
  recovery: z.number().exactOptional(),
  daysElapsed: z.number().int(),
  daysInMonth: z.number().int(),
  /** The forecast's likely range, what the plan needs a day, a day still arriving (absent before they existed). */
  low: z.number().exactOptional(),
  high: z.number().exactOptional(),
  neededPerDay: z.number().exactOptional(),
  pending: text.exactOptional(),
});

const conditionFactsSchema = z.union([
  simpleConditionFactsSchema,
  pacingFactsSchema,
  z.object({ kind: z.literal('compound'), mode: z.enum(['all', 'any']), parts: z.array(compoundPartSchema) }),
]);

/**
 * A thread reply an evaluation decided and Slack has not confirmed yet (the incident's outbox).
 * Written with the evaluation, removed once it landed in every thread of the incident.
 */
export const owedReplySchema = z.object({
  /** Per incident: carried in the reply's metadata, so a restart finds a reply posted but not recorded. */
  id: text,
  kind: z.enum(['reminder', 'bigMove', 'reopened', 'resolved']),
  /** The evaluation that decided it. */
  at: timestamp,
  value: z.number(),
  previousValue: z.number().exactOptional(),
  condition: conditionFactsSchema,
  /** The parents (ts) whose threads already have it, recorded right after each post. */
  sentTo: z.array(slackTs).exactOptional(),
});

/**
 * One dimension of an alert entity, structured from the row that was observed: the catalog
 * dimension, its value as the row names it (null where the service answered none), and for a name
 * dimension (`campaign`) the id the Reporting Service filters it by, when the row carried it.
 */
export const entityPartSchema = z.object({
  dimension: text,
  value: z.string().nullable(),
  id: z.number().exactOptional(),
});

/**
 * One alert incident: a rule breached for one entity, kept in one Slack thread. The fields after
 * `resolvedAt` came with alert evaluation; they are optional so files written before still load.
 */
export const alertIncidentSchema = z.object({
  id: text,
  ruleId: text,
  /** Which entity breached, e.g. "campaign=123|country=BR": its identity only, never parsed (see `entity`). */
  entityKey: text,
  /** The entity as values: one part per dimension (none for the total). Absent in records written before. */
  entity: z.array(entityPartSchema).exactOptional(),
  state: z.enum(INCIDENT_STATES),
  channel: text,
  /** ts of the thread's parent message, once posted. */
  threadTs: slackTs.exactOptional(),
  /** Observed metric values, oldest first (bounded). */
  values: z.array(z.object({ at: timestamp, value: z.number() })),
  openedAt: timestamp,
  updatedAt: timestamp,
  resolvedAt: timestamp.exactOptional(),
  /** The report the rule belongs to (rule ids are unique within a report only). */
  reportId: text.exactOptional(),
  /** How people read the entity: "Country BR · Platform IOS". */
  entityLabel: text.exactOptional(),
  /** Threads in the report's other channels (the first channel's is `channel`/`threadTs`). */
  threads: z.array(z.object({ channel: text, ts: slackTs })).exactOptional(),
  /** Consecutive evaluations in breach (counts again after resolving, for a reopen). */
  streak: z.number().int().min(0).exactOptional(),
  lastValue: z.number().exactOptional(),
  /** The trigger the value was held against (a fraction for change rules). */
  threshold: z.number().exactOptional(),
  band: bandSchema.exactOptional(),
  /** The comparison value (change rules). */
  comparisonValue: z.number().exactOptional(),
  /** Compound rules: each condition at the last evaluation (a redrawn parent names them all). */
  conditionParts: z.array(compoundPartSchema).exactOptional(),
  /** Pacing rules: the forecast against the plan at the last evaluation (a redrawn parent states them). */
  pacing: pacingFactsSchema.exactOptional(),
  /** Last time the thread was told about this incident (opened, reminded, moved, reopened). */
  lastNotifiedAt: timestamp.exactOptional(),
  /** The value last announced, from which a large move is measured. */
  notifiedValue: z.number().exactOptional(),
  acknowledgedBy: text.exactOptional(),
  acknowledgedAt: timestamp.exactOptional(),
  snoozedUntil: timestamp.exactOptional(),
  reopenedAt: timestamp.exactOptional(),
  reopenCount: z.number().int().min(0).exactOptional(),
  lastEvaluatedAt: timestamp.exactOptional(),
  /** The parent's chart (a file shared nowhere): kept so an edited parent shows it again. */
  chartFileId: text.exactOptional(),
  /** Outbox: replies still owed to the thread, oldest first. */
  owedReplies: z.array(owedReplySchema).exactOptional(),
  /** Outbox: the parents must be redrawn in the current state (resolved, reopened). */
  owedEdit: z.literal(true).exactOptional(),
});

/** An entity in breach that has not opened an incident yet (fewer than `consecutive` evaluations). */
export const pendingBreachSchema = z.object({
  entityKey: text,
  entityLabel: text.exactOptional(),
  streak: z.number().int().min(1),
  since: timestamp,
  lastValue: z.number(),
});

/**
 * What the last evaluation of one rule found: when it ran (so summaries can say "not evaluated
 * yet" rather than "all clear") and the breach streaks of entities without an incident.
 */
export const alertEvaluationSchema = z.object({
  /** `<report>/<rule>`. */
  ruleKey: text,
  reportId: text,
  ruleId: text,
  lastEvaluatedAt: timestamp,
  /** Entities evaluated, in breach, and skipped (below the volume floor, no value, no comparison). */
  evaluated: z.number().int().min(0),
  breaching: z.number().int().min(0),
  skipped: z.number().int().min(0),
  pending: z.array(pendingBreachSchema),
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
  /** Added with alert evaluation; absent in older files, hence the default (no version bump). */
  alertEvaluations: z
    .array(alertEvaluationSchema)
    .default([])
    .superRefine(uniqueBy((e) => e.ruleKey, 'alert evaluation')),
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
export type EntityPart = z.output<typeof entityPartSchema>;
export type AlertEvaluation = z.output<typeof alertEvaluationSchema>;
export type PendingBreach = z.output<typeof pendingBreachSchema>;
export type OwedReply = z.output<typeof owedReplySchema>;
export type ScheduleFire = z.output<typeof scheduleFireSchema>;
/** The whole file, current version. */
export type StoreData = z.output<typeof storeDataSchema>;

/** A store with nothing in it, at the current version. */
export function emptyStoreData(): StoreData {
  return {
    version: STORE_VERSION,
    jobs: [],
    subscriptions: [],
    runs: [],
    incidents: [],
    schedules: [],
    alertEvaluations: [],
  };
}
