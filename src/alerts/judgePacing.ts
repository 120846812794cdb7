/**
 * Judges a pacing rule: the month-end forecast of spend against the month's plan, in breach
 * outside ±tolerance of it, recovered only once back within ±recovery (a narrower band, so a
 * forecast hovering at the tolerance's edge does not open and resolve on alternate days), and only
 * once the month has `MIN_PACING_DAYS` complete days (a forecast from one or two days is mostly
 * noise). Pure.
 */
import { type AlertRule, type MonthPacing, pacingRecovery } from '../reports/index.js';
import type { Judgement, Skip } from './judge.js';

/** Complete days of the month before a pacing rule judges. */
export const MIN_PACING_DAYS = 3;

/**
 * The judgement of `pacing` (from `monthPacing`), or why there is none: no plan for the month,
 * or fewer than 3 complete days in it. `measure` is the share of the plan (1.25 = 125 %), so a
 * large move is the share going twice as far past the tolerance as last announced; `recovered`
 * is the share within ±recovery (`pacing.recovery`, default half the tolerance).
 *
 * @example judgePacing(rule, { forecast: 150_000, plan: 120_000, share: 1.25, daysElapsed: 10, … }) // { breach: true, … }
 */
export function judgePacing(rule: AlertRule, pacing: MonthPacing | undefined): Judgement | Skip {
  const tolerance = rule.pacing?.tolerance;
  if (tolerance === undefined) return { reason: 'no_value', detail: 'the rule is not a pacing rule' };
  if (pacing === undefined) {
    return { reason: 'no_plan', detail: "the report's budgets have no plan for this month, or it is its first day" };
  }
  if (pacing.daysElapsed < MIN_PACING_DAYS) {
    return {
      reason: 'too_early',
      detail: `${pacing.daysElapsed} complete day(s) of ${pacing.month} so far; pacing is judged from day ${MIN_PACING_DAYS + 1}`,
    };
  }
  const recovery = pacingRecovery({ tolerance, recovery: rule.pacing?.recovery });
  const distance = (share: number) => Math.abs(share - 1) - tolerance;
  const breach = distance(pacing.share) > 0;
  return {
    breach,
    recovered: Math.abs(pacing.share - 1) <= recovery,
    measure: pacing.share,
    distance,
    threshold: pacing.share >= 1 ? pacing.plan * (1 + tolerance) : pacing.plan * (1 - tolerance),
    facts: {
      kind: 'pacing',
      month: pacing.month,
      plan: pacing.plan,
      spent: pacing.spent,
      forecast: pacing.forecast,
      share: pacing.share,
      tolerance,
      recovery,
      daysElapsed: pacing.daysElapsed,
      daysInMonth: pacing.daysInMonth,
      low: pacing.low,
      high: pacing.high,
      neededPerDay: pacing.neededPerDay,
      ...(pacing.pending !== undefined ? { pending: pacing.pending } : {}),
    },
  };
}
