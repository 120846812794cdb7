/**
 * The schema of alert rules inside a report definition. Only the schema lives here; evaluation
 * (incidents, threads, renotify) belongs to `alerts/`. Parsing normalises what people write
 * (`30%`, the older `change: { percent, direction, against }`) into one shape, so the evaluator
 * reads numbers only.
 */
import { z } from 'zod';
import { cronText, timeZoneText } from './timingFields.js';

const fieldRef = z.union([
  z.string().min(1),
  z.strictObject({
    name: z.string().min(1),
    args: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
    as: z.string().min(1).optional(),
  }),
]);

/** `30m`, `6h`, `1d`: how long before an open incident is announced again. */
const duration = z.string().regex(/^\d+(m|h|d)$/, 'must be a duration like 30m, 6h or 1d');

/** `30%`, `-20%`, `+12.5%` → 0.3, -0.2, 0.125. A bare number is refused: 0.3 and 30 read alike. */
export const percentText = z
  .union([z.string(), z.number()])
  .refine(
    (v) => typeof v === 'string' && /^[+-]?\d+(\.\d+)?\s*%$/.test(v.trim()),
    'must be a percentage in quotes or plain, like 30% or -20%',
  )
  .transform((v) => Number(String(v).trim().replace('%', '')) / 100);

/**
 * A Slack mention the message can render: a user id (`U…`/`W…`), a user group id (`S…`), `here`
 * or `channel`, or those in Slack syntax (`<@U…>`, `<!subteam^S…>`, `<!here>`).
 */
export const MENTION_PATTERN =
  /^([UW][A-Z0-9]{2,}|S[A-Z0-9]{2,}|here|channel|<@[UW][A-Z0-9]{2,}>|<!subteam\^S[A-Z0-9]{2,}>|<!(here|channel)>)$/;

const MENTION_HELP =
  'Slack notifies ids, not names: use a member id (profile → ⋮ → Copy member ID, like U024BE7LH), a user group id ' +
  '(People → User groups → the group → ⋮ → Copy group ID, like S0614TZR7), here or channel.';

/** An owner: a user (`U…`/`W…`) or user group (`S…`) id, or either in Slack syntax; never `here` or `channel`. */
export const OWNER_PATTERN = /^([UW][A-Z0-9]{2,}|S[A-Z0-9]{2,}|<@[UW][A-Z0-9]{2,}>|<!subteam\^S[A-Z0-9]{2,}>)$/;

/** One owner id, checked as mentions are (an owner is a person or a team: `here` and `channel` are refused). */
export const ownerId = z.string().superRefine((v, ctx) => {
  if (OWNER_PATTERN.test(v)) return;
  const shown = JSON.stringify(v);
  const why = v === 'here' || v === 'channel' ? `${shown} is not a person or a team.` : `${shown} is not a Slack id.`;
  ctx.addIssue({
    code: 'custom',
    message: `${why} An owner is a member id (profile → ⋮ → Copy member ID, like U024BE7LH) or a user group id (People → User groups → the group → ⋮ → Copy group ID, like S0614TZR7).`,
  });
});

const mention = z.string().superRefine((v, ctx) => {
  if (MENTION_PATTERN.test(v)) return;
  const shown = JSON.stringify(v);
  ctx.addIssue({ code: 'custom', message: `${shown} is not a Slack id. ${MENTION_HELP}` });
});

/** A cron expression, checked field by field like report schedules. */

const comparisonKind = z.enum(['previous_period', 'same_period_last_week']);

/**
 * `change: { vs, above: 30%, below: -20% }` (at least one of above/below), or the older
 * `{ percent: 30, direction: up|down|any, against }`, which parses into the same shape.
 */
const changeSchema = z
  .union([
    z.strictObject({
      vs: comparisonKind.default('previous_period'),
      above: percentText.optional(),
      below: percentText.optional(),
    }),
    z
      .strictObject({
        percent: z.number().positive(),
        direction: z.enum(['up', 'down', 'any']).default('any'),
        against: comparisonKind.default('previous_period'),
      })
      .transform((old) => ({
        vs: old.against,
        ...(old.direction !== 'down' ? { above: old.percent / 100 } : {}),
        ...(old.direction !== 'up' ? { below: -old.percent / 100 } : {}),
      })),
  ])
  .superRefine((c, ctx) => {
    if (c.above === undefined && c.below === undefined) {
      ctx.addIssue({ code: 'custom', message: 'give above (a rise, like 30%) or below (a fall, like -20%), or both' });
    }
    if (c.above !== undefined && c.above <= 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['above'],
        message: 'above is a rise: write a positive percentage, like 30%',
      });
    }
    if (c.below !== undefined && c.below >= 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['below'],
        message: 'below is a fall: write a negative percentage, like -20%',
      });
    }
  });

const anomalySchema = z.strictObject({
  /** `same_weekday`: the same span 1…weeks weeks earlier; `same_hour`: the same hour on each of the previous weeks × 7 days. */
  baseline: z.enum(['same_weekday', 'same_hour']).default('same_weekday'),
  weeks: z.number().int().min(2).max(12).default(4),
  /** How many robust standard deviations (1.4826 × MAD) away from the median count as unusual. */
  sensitivity: z.number().positive().max(20).default(3),
  /** Which side fires; without it, the metric's polarity decides (a rising CPI, falling installs; both when neutral). */
  direction: z.enum(['up', 'down', 'any']).optional(),
});

/** An open pacing incident resolves once the forecast is back within this share of the tolerance. */
export const PACING_RECOVERY_SHARE = 0.5;

/**
 * Budget pacing: the month-end forecast of spend against the month's plan (`budgets:`), outside
 * ±`tolerance` of it; an open incident resolves once back within ±`recovery` (default half the
 * tolerance), so a forecast hovering at the edge does not open and resolve on alternate days.
 * Judged only once the month has 3 complete days.
 */
const pacingSchema = z
  .strictObject({
    tolerance: percentText.refine((t) => t > 0 && t < 10, 'must be a positive percentage, like 10%'),
    recovery: percentText.optional(),
  })
  .superRefine((p, ctx) => {
    if (p.recovery === undefined) return;
    if (p.recovery <= 0) {
      ctx.addIssue({ code: 'custom', path: ['recovery'], message: 'must be a positive percentage, like 5%' });
    } else if (p.recovery > p.tolerance) {
      ctx.addIssue({
        code: 'custom',
        path: ['recovery'],
        message: `must not be wider than the tolerance (${Math.round(p.tolerance * 1000) / 10}%): an incident resolves once the forecast is back within it`,
      });
    }
  });

/**
 * A pacing rule's recovery band: `recovery`, or half the tolerance.
 *
 * @example pacingRecovery({ tolerance: 0.1 }) // 0.05
 */
export function pacingRecovery(pacing: { tolerance: number; recovery?: number | undefined }): number {
  return pacing.recovery ?? pacing.tolerance * PACING_RECOVERY_SHARE;
}

type RecoveryValue = number | { percent: number };

/** The condition fields a rule (or one condition of a compound rule) carries, checked the same way. */
interface ConditionFields {
  above?: number | undefined;
  below?: number | undefined;
  equals?: number | undefined;
  change?: { above?: number | undefined; below?: number | undefined } | undefined;
  anomaly?: unknown;
  recovery?: RecoveryValue | undefined;
}

function checkRecovery(rule: ConditionFields, ctx: z.RefinementCtx, path: Array<string | number> = []): void {
  const recovery = rule.recovery;
  if (recovery === undefined) return;
  const at = (message: string) => ctx.addIssue({ code: 'custom', path: [...path, 'recovery'], message });
  if (rule.anomaly !== undefined) at('an anomaly resolves when back in its band: remove recovery');
  else if (rule.equals !== undefined) at('an equals condition resolves as soon as the value differs: remove recovery');
  else if (rule.change !== undefined) {
    if (typeof recovery === 'number') at('for a change rule write recovery as a percentage, like 15%');
    else if (rule.change.above !== undefined && rule.change.below !== undefined) {
      at('recovery needs one side: give change only above or only below');
    } else if (rule.change.above !== undefined && recovery.percent > rule.change.above) {
      at('must not be above the trigger');
    } else if (rule.change.below !== undefined && recovery.percent < rule.change.below) {
      at('must not be below the trigger');
    }
  } else if (typeof recovery !== 'number') at('write recovery as a number, like the trigger');
  else if (rule.above !== undefined && recovery > rule.above) at(`must not be above the trigger (${rule.above})`);
  else if (rule.below !== undefined && recovery < rule.below) at(`must not be below the trigger (${rule.below})`);
}

const recoverySchema = z.union([z.number(), percentText.transform((percent) => ({ percent }))]);

/**
 * One condition of a compound rule (`all:` / `any:`): a metric and exactly one of above, below,
 * equals or change, with its own optional `recovery`.
 */
export const conditionSchema = z
  .strictObject({
    metric: fieldRef,
    above: z.number().optional(),
    below: z.number().optional(),
    /** Breach when the value equals this number (`equals: 0`: installs stopped). */
    equals: z.number().optional(),
    change: changeSchema.optional(),
    recovery: recoverySchema.optional(),
  })
  .superRefine((c, ctx) => {
    const kinds = [c.above, c.below, c.equals, c.change].filter((k) => k !== undefined).length;
    if (kinds !== 1) {
      ctx.addIssue({ code: 'custom', message: 'give exactly one condition: above, below, equals or change' });
    }
    checkRecovery(c, ctx);
  });

export type RuleCondition = z.output<typeof conditionSchema>;
type FieldRef = z.output<typeof fieldRef>;

export const alertSchema = z
  .strictObject({
    id: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'must be kebab-case, like cpi-spike'),
    name: z.string().min(1).optional(),
    /**
     * A metric of the report by output key, or a metric with arguments evaluated for this rule.
     * A compound rule names its metrics in its conditions; parsing sets this to the first one's.
     */
    metric: fieldRef.optional(),
    above: z.number().optional(),
    below: z.number().optional(),
    /** Breach when the value equals this number. */
    equals: z.number().optional(),
    change: changeSchema.optional(),
    anomaly: anomalySchema.optional(),
    /** Compound rules: every condition (`all`) or at least one (`any`) holds for the same entity. */
    all: z.array(conditionSchema).min(2).max(6).optional(),
    any: z.array(conditionSchema).min(2).max(6).optional(),
    /** Budget pacing: the month's spend forecast outside ±tolerance of the plan in the report's `budgets:`. */
    pacing: pacingSchema.optional(),
    /** `entity` (default): each row of the report's query is evaluated on its own; `total`: the totals row. */
    on: z.enum(['entity', 'total']).default('entity'),
    /** The range the rule judges (`yesterday`, `today`, `last_7_days` …) when not the report's own. */
    range: z.string().min(1).optional(),
    /** Skip rows (or the total) whose volume is below this: small samples make noisy ratios. */
    minVolume: z.strictObject({ metric: z.string().min(1), value: z.number().nonnegative() }).optional(),
    /** Replaced by per-entity evaluation; kept in the schema only to explain the change. */
    by: z.string().optional(),
    /**
     * The value at which an open incident resolves (hysteresis); defaults to the trigger. A number
     * for above/below, a percentage (`15%`) for change.
     */
    recovery: recoverySchema.optional(),
    consecutive: z.number().int().min(1).max(100).default(1),
    renotify: duration.optional(),
    mentions: z.array(mention).default([]),
    severity: z.enum(['info', 'warning', 'critical']).default('warning'),
    /** Its own evaluation schedule; without it the rule is evaluated whenever the report's schedule fires. */
    check: z.strictObject({ cron: cronText, timezone: timeZoneText.optional() }).optional(),
  })
  .superRefine((rule, ctx) => {
    const compound = rule.all ?? rule.any;
    if (rule.pacing !== undefined) {
      const others = ['metric', 'above', 'below', 'equals', 'change', 'anomaly', 'all', 'any', 'recovery', 'minVolume'];
      for (const field of others) {
        if (rule[field as keyof typeof rule] === undefined) continue;
        ctx.addIssue({
          code: 'custom',
          path: [field],
          message:
            field === 'recovery'
              ? 'a pacing rule writes its recovery band inside pacing: { tolerance: 10%, recovery: 5% }'
              : `a pacing rule judges the month's spend forecast against its plan (budgets:); remove ${field}, or write it as another rule`,
        });
      }
      return;
    }
    if (rule.all !== undefined && rule.any !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['any'],
        message: 'give all or any, not both (nest none: write two rules)',
      });
    }
    if (compound !== undefined) {
      const at = rule.all !== undefined ? 'all' : 'any';
      for (const field of ['metric', 'above', 'below', 'equals', 'change', 'anomaly', 'recovery'] as const) {
        if (rule[field] !== undefined) {
          ctx.addIssue({
            code: 'custom',
            path: [field],
            message: `a rule with ${at}: names its metrics and thresholds in each condition; move ${field} into one of them`,
          });
        }
      }
      const vs = new Set(compound.flatMap((c) => (c.change ? [c.change.vs] : [])));
      if (vs.size > 1) {
        ctx.addIssue({
          code: 'custom',
          path: [at],
          message: 'every change condition of one rule compares with the same period: use one vs for all of them',
        });
      }
    } else {
      if (rule.metric === undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['metric'],
          message: 'give the metric to watch (or all: / any: conditions)',
        });
      }
      const kinds = [rule.above, rule.below, rule.equals, rule.change, rule.anomaly].filter(
        (k) => k !== undefined,
      ).length;
      if (kinds !== 1) {
        ctx.addIssue({
          code: 'custom',
          message: 'give exactly one condition: above, below, equals, change or anomaly (or all: / any: of conditions)',
        });
      }
      checkRecovery(rule, ctx);
    }
    if (rule.by !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['by'],
        message:
          'by is no longer used: each row of the report (one combination of its dimensions) is evaluated on its own. ' +
          'Remove by, and change the query dimensions to choose the entities (or write on: total).',
      });
    }
  })
  .transform((rule) => ({
    ...rule,
    // A pacing rule watches spend, the metric plans are written in.
    metric: (rule.metric ?? (rule.all ?? rule.any)?.[0]?.metric ?? (rule.pacing ? 'spend' : undefined)) as FieldRef,
  }));

export type AlertRule = z.output<typeof alertSchema>;
export type AlertChange = NonNullable<AlertRule['change']>;
export type AlertAnomaly = NonNullable<AlertRule['anomaly']>;
export type AlertPacing = NonNullable<AlertRule['pacing']>;

/**
 * A compound rule's mode and conditions; undefined for a rule with one condition.
 *
 * @example compoundOf(rule) // { mode: 'all', conditions: [{ metric: 'spend', above: 200 }, { metric: 'installs', equals: 0 }] }
 */
export function compoundOf(rule: AlertRule): { mode: 'all' | 'any'; conditions: readonly RuleCondition[] } | undefined {
  if (rule.all !== undefined) return { mode: 'all', conditions: rule.all };
  if (rule.any !== undefined) return { mode: 'any', conditions: rule.any };
  return undefined;
}

/** The comparison a rule needs: its own `change`, or the first change condition of a compound rule. */
export function ruleChange(rule: AlertRule): AlertChange | undefined {
  return rule.change ?? compoundOf(rule)?.conditions.find((c) => c.change !== undefined)?.change;
}
