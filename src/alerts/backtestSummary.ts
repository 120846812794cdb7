/**
 * A backtest in one sentence, for the terminal and Slack alike: "would have fired on 3 of the
 * last 30 days (Nov 4, Nov 12, Nov 20) for 2 entities". Pure.
 */
import type { BacktestResult } from './backtestRule.js';

/** Days named in the sentence at most; more are counted. */
const DAYS_NAMED = 8;

/** `2026-11-04` → `Nov 4`. */
export function shortDay(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  return date.toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
}

/**
 * The sentence: on how many days an incident would have opened (or reopened), which days, and
 * for how many entities; or that it would not have fired, and how often it was in breach.
 *
 * @example backtestSummary(result) // 'would have fired on 3 of the last 30 days (Nov 4, Nov 12, Nov 20) for 2 entities'
 */
export function backtestSummary(
  result: Pick<BacktestResult, 'firedDays' | 'days' | 'entities' | 'breachDays'>,
): string {
  const fired = result.firedDays;
  const last = `the last ${result.days} day${result.days === 1 ? '' : 's'}`;
  if (fired.length === 0) {
    return result.breachDays.length === 0
      ? `would not have fired in ${last}`
      : `would not have fired in ${last} (in breach on ${result.breachDays.length} of them, not long enough to open)`;
  }
  const named = fired.slice(0, DAYS_NAMED).map(shortDay).join(', ');
  const more = fired.length > DAYS_NAMED ? ` and ${fired.length - DAYS_NAMED} more` : '';
  const n = result.entities.length;
  return `would have fired on ${fired.length} of ${last} (${named}${more}) for ${n} ${n === 1 ? 'entity' : 'entities'}`;
}
