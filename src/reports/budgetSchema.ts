/**
 * The schema of a report's `budgets:` section: the spend plan of each calendar month, in the
 * report's zone, for what the report's filter selects (a campaign, an app, the whole account).
 */
import { z } from 'zod';

/** `2026-11`: a calendar month. */
export const MONTH_PATTERN = /^(\d{4})-(0[1-9]|1[0-2])$/;

/**
 * `budgets: { currency: USD, months: { "2026-11": 120000 } }`. The Reporting Service reports
 * spend in US dollars, so a plan is in US dollars too (`currency` says so, and only USD is allowed).
 */
export const budgetsSchema = z.strictObject({
  currency: z.enum(['USD']).default('USD'),
  /** Month (`YYYY-MM`, checked by `checkReport` so the key itself is pointed at) → the month's spend plan. */
  months: z
    .record(z.string(), z.number().positive('must be a positive amount, like 120000').finite())
    .refine((months) => Object.keys(months).length > 0, 'needs at least one month, like "2026-11": 120000'),
});

export type ReportBudgets = z.output<typeof budgetsSchema>;

/**
 * The plan of `month` (`YYYY-MM`), or undefined when the report has none for it.
 *
 * @example planFor({ currency: 'USD', months: { '2026-11': 120000 } }, '2026-11') // 120000
 */
export function planFor(budgets: ReportBudgets | undefined, month: string): number | undefined {
  return budgets?.months[month];
}
