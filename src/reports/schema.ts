/**
 * The schema of a report definition (`reports/<id>.yaml`), in zod. It checks shape and types;
 * names (metrics, dimensions, filter fields, enum values) are checked against the catalog by
 * `checkReport`, which knows where each one sits so it can suggest corrections.
 */
import { z } from 'zod';
import { alertSchema, ownerId, percentText } from './alertSchema.js';
import { budgetsSchema } from './budgetSchema.js';
import { cronText, timeZoneText } from './timingFields.js';

const identifier = z
  .string()
  .regex(/^[_A-Za-z][_0-9A-Za-z]*$/, 'must start with a letter or _ and hold only letters, digits and _');

const scalar = z.union([z.string(), z.number(), z.boolean()]);
const argValue = z.union([scalar, z.null(), z.array(scalar)]);

/** A metric or dimension: `installs`, or `{ name: installs, args: { attrTouch: CLICK }, as: clickInstalls }`. */
export const fieldSchema = z.union([
  z.string().min(1),
  z.strictObject({
    name: z.string().min(1),
    args: z.record(z.string(), argValue).optional(),
    as: identifier.optional(),
  }),
]);

const filterOperators = z.strictObject({
  equals: scalar.optional(),
  notEquals: scalar.optional(),
  isIn: z.array(scalar).min(1).optional(),
  isNotIn: z.array(scalar).min(1).optional(),
});

/** `appId: 101` (equals), `countryCode: [US, BR]` (isIn), or the spec's operators. */
const filterValue = z.union([scalar, z.array(scalar).min(1), filterOperators]);

const threshold = z.union([z.number(), z.string().regex(/^-?\d+(\.\d+)?$/, 'must be a number')]);
const cleanupThresholds = z.strictObject({
  greaterThan: threshold.optional(),
  greaterOrEqualThan: threshold.optional(),
  lowerThan: threshold.optional(),
  lowerOrEqualThan: threshold.optional(),
});

const dateText = z.string().min(1);
export const rangeSchema = z.union([z.string().min(1), z.strictObject({ from: dateText, to: dateText })]);

export const comparisonSchema = z.enum(['previous_period', 'same_period_last_week', 'same_period_last_month', 'none']);

const postbacksSchema = z.strictObject({
  appId: z.number().int().positive(),
  keys: z.array(z.string().min(1)).min(1),
  track: z.enum(['events', 'installs', 'EVENTS', 'INSTALLS']).default('events'),
  includeRevenue: z.boolean().optional(),
  revenueKey: z.string().min(1).optional(),
  organic: z.boolean().optional(),
});

export const querySchema = z.strictObject({
  dimensions: z.array(fieldSchema).default([]),
  metrics: z.array(fieldSchema).default([]),
  filter: z.record(z.string(), filterValue).optional(),
  cleanup: z.record(z.string(), cleanupThresholds).optional(),
  range: rangeSchema.default('yesterday'),
  timezone: z.string().min(1).optional(),
  granularity: z.string().min(1).optional(),
  cohort: z
    .strictObject({
      type: z.string().min(1),
      window: z.strictObject({ amount: z.number().int().positive(), period: z.string().min(1) }).optional(),
    })
    .optional(),
  quality: z.string().min(1).optional(),
  channel: z.enum(['mobile', 'ctv', 'all']).optional(),
  options: z.strictObject({ removeZeroRows: z.boolean().optional(), priority: z.number().int().optional() }).optional(),
  postbacks: postbacksSchema.optional(),
});

const sortSchema = z.union([
  z.string().min(1),
  z.strictObject({ by: z.string().min(1), order: z.enum(['asc', 'desc']).default('desc') }),
]);

/** Why a headline KPI moved: `false` turns it off; a threshold (fraction), candidate dimensions, a query budget. */
export const explainSchema = z.union([
  z.literal(false),
  z.strictObject({
    threshold: z.number().min(0).max(10).optional(),
    dimensions: z.array(z.string().min(1)).min(1).optional(),
    budget: z.number().int().min(2).max(200).optional(),
  }),
]);

const DAY_NAMES = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

/**
 * Quiet digests: post only when a headline KPI moved `moved` (default: `explain.threshold`, 10 %)
 * against the comparison, or an incident opened since the last post (`incidents`, default true);
 * on the `allQuiet` weekday a quiet slot posts a short "all quiet" note instead of nothing.
 */
export const onlyWhenSchema = z.strictObject({
  moved: percentText.optional(),
  incidents: z.boolean().optional(),
  allQuiet: z.enum(DAY_NAMES).optional(),
});

export const presentSchema = z.strictObject({
  headline: z.array(z.string().min(1)).optional(),
  onlyWhen: onlyWhenSchema.optional(),
  explain: explainSchema.optional(),
  compare: comparisonSchema.default('none'),
  sort: sortSchema.optional(),
  top: z.number().int().positive().max(10_000).optional(),
  chart: z
    .strictObject({
      type: z.enum(['line', 'bar', 'stacked_bar', 'share']),
      x: z.string().min(1),
      series: z.array(z.string().min(1)).min(1),
      stackBy: z.string().min(1).optional(),
      title: z.string().optional(),
    })
    .optional(),
});

const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
const DURATION = /^\d+(s|m|h|d)$/;
const duration = z.string().regex(DURATION, 'must be a duration like 90s, 30m, 6h or 1d');

export const scheduleSchema = z
  .strictObject({
    cron: cronText.optional(),
    at: z
      .string()
      .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a 24-hour time like "09:00"')
      .optional(),
    days: z.union([z.enum(['daily', 'weekdays', 'weekends']), z.array(z.enum(DAYS)).min(1)]).optional(),
    timezone: timeZoneText.optional(),
    /** How late a slot missed while the bot was down may still be posted; `none` skips every missed slot. */
    catchUp: z.union([z.literal('none'), duration]).default('6h'),
    /** Attempts per slot (the first included) and the wait between them. */
    retry: z
      .strictObject({ attempts: z.number().int().min(1).max(10).default(3), backoff: duration.default('2m') })
      .default({ attempts: 3, backoff: '2m' }),
    /** Wait for late data: post once `metric` reaches `minShare` of the same weekday a week earlier, or after `wait`. */
    waitForData: z
      .strictObject({
        metric: z.string().min(1),
        minShare: z.number().gt(0).max(1).default(0.5),
        wait: duration.default('2h'),
      })
      .optional(),
  })
  .superRefine((s, ctx) => {
    if ((s.cron === undefined) === (s.at === undefined)) {
      ctx.addIssue({ code: 'custom', message: 'give either cron or at (with optional days), not both or neither' });
    }
    if (s.cron !== undefined && s.days !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['days'], message: 'days goes with at; a cron expression has its own' });
    }
  });

export const deliverSchema = z.strictObject({
  channels: z
    .array(
      z.string().regex(/^(#[a-z0-9][a-z0-9._-]{0,79}|[CGD][A-Z0-9]{6,})$/, 'must be #channel-name or a channel id'),
    )
    .default([]),
  csv: z.boolean().default(true),
});

/**
 * Who owns which entity: `{ campaign: { "1001": U024BE7LH, "1002": [U0…, S0…] } }`. Keys are
 * dimensions of the report's query; values are dimension values as the report shows them. An
 * incident whose entity has a mapped value mentions its owners in the parent.
 */
export const ownersSchema = z.record(
  z.string().min(1),
  z.record(z.string(), z.union([ownerId.transform((id) => [id]), z.array(ownerId).min(1).max(10)])),
);

export const reportSchema = z.strictObject({
  title: z.string().min(1).max(150),
  description: z.string().optional(),
  owner: z.string().min(1).optional(),
  query: querySchema,
  present: presentSchema.default({ compare: 'none' }),
  mode: z.enum(['sync', 'async', 'auto']).default('auto'),
  schedule: scheduleSchema.optional(),
  deliver: deliverSchema.optional(),
  alerts: z.array(alertSchema).default([]),
  owners: ownersSchema.optional(),
  budgets: budgetsSchema.optional(),
});

/** A parsed report definition (defaults applied), as written in YAML. */
export type ReportDefinition = z.output<typeof reportSchema>;
export type ReportQuery = z.output<typeof querySchema>;
export type ReportPresent = z.output<typeof presentSchema>;
export type FieldSpec = z.output<typeof fieldSchema>;
export type ReportSchedule = z.output<typeof scheduleSchema>;
/** `dimension → value → owner ids`, lists always (a single id is read as a list of one). */
export type ReportOwners = z.output<typeof ownersSchema>;
export { type AlertRule, alertSchema } from './alertSchema.js';

/** A definition with its id (the file name without `.yaml`) and where it came from. */
export interface LoadedReport {
  id: string;
  file: string;
  definition: ReportDefinition;
}
