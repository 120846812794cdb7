/**
 * The schema of alert rules inside a report definition. Only the schema lives here; evaluation
 * (incidents, threads, renotify) belongs to `alerts/`.
 */
import { z } from 'zod';

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

export const alertSchema = z
  .strictObject({
    id: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'must be kebab-case, like cpi-spike'),
    name: z.string().min(1).optional(),
    /** A metric of the report by output key, or a metric with arguments evaluated for this rule. */
    metric: fieldRef,
    above: z.number().optional(),
    below: z.number().optional(),
    change: z
      .strictObject({
        percent: z.number().positive(),
        direction: z.enum(['up', 'down', 'any']).default('any'),
        against: z.enum(['previous_period', 'same_period_last_week']).default('previous_period'),
      })
      .optional(),
    /** Skip rows (or the total) whose volume is below this: small samples make noisy ratios. */
    minVolume: z.strictObject({ metric: z.string().min(1), value: z.number().nonnegative() }).optional(),
    /** Evaluate per value of this dimension (one incident per country…) instead of on the totals. */
    by: z.string().min(1).optional(),
    /** The value at which an open incident resolves (hysteresis); defaults to the trigger threshold. */
    recovery: z.number().optional(),
    consecutive: z.number().int().min(1).max(100).default(1),
    renotify: duration.optional(),
    mentions: z
      .array(z.string().regex(/^(@[\w.-]+|<[@!][\w^|-]+>|[UWS][A-Z0-9]{2,})$/, 'must be @name, <@U…> or a user id'))
      .default([]),
    severity: z.enum(['info', 'warning', 'critical']).default('warning'),
  })
  .superRefine((rule, ctx) => {
    const kinds = [rule.above, rule.below, rule.change].filter((k) => k !== undefined).length;
    if (kinds !== 1) {
      ctx.addIssue({ code: 'custom', message: 'give exactly one condition: above, below or change' });
    }
    if (rule.recovery !== undefined && rule.above !== undefined && rule.recovery > rule.above) {
      ctx.addIssue({ code: 'custom', path: ['recovery'], message: `must not be above the trigger (${rule.above})` });
    }
    if (rule.recovery !== undefined && rule.below !== undefined && rule.recovery < rule.below) {
      ctx.addIssue({ code: 'custom', path: ['recovery'], message: `must not be below the trigger (${rule.below})` });
    }
  });

export type AlertRule = z.output<typeof alertSchema>;
