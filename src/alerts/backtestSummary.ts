/**
 * A backtest in one sentence, for the terminal and Slack alike: "would have fired on 3 of the
 * last 30 days (Nov 4, Nov 12, Nov 20) for 2 entities". Pure.
 */
import type { BacktestResult } from './backtestRule.js';
import type { ConditionFacts } from './types.js';

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

const amount = (n: number): string =>
  Math.abs(n) >= 1000
    ? n.toLocaleString('en-US', { maximumFractionDigits: 0 })
    : n.toLocaleString('en-US', { maximumFractionDigits: 3 });
const percent = (f: number): string => `${f >= 0 ? '+' : ''}${(f * 100).toFixed(1)} %`;

/**
 * What a value was held against, in words, for one line of a backtest: the trigger and recovery,
 * the band, the comparison, the plan.
 *
 * @example conditionText({ kind: 'above', threshold: 12, recovery: 11 }) // 'above 12 (resolves at 11)'
 */
export function conditionText(facts: ConditionFacts): string {
  switch (facts.kind) {
    case 'above':
    case 'below':
      return `${facts.kind} ${amount(facts.threshold)}${facts.recovery !== facts.threshold ? ` (resolves at ${amount(facts.recovery)})` : ''}`;
    case 'equals':
      return `equal to ${amount(facts.target)}`;
    case 'change': {
      const triggers = [
        facts.above !== undefined ? `above ${percent(facts.above)}` : '',
        facts.below !== undefined ? `below ${percent(facts.below)}` : '',
      ].filter(Boolean);
      const was = facts.comparisonValue === null ? 'no value' : amount(facts.comparisonValue);
      return `${percent(facts.percent)} vs ${facts.vs.replace(/_/g, ' ')} (${was}); trigger ${triggers.join(' or ')}`;
    }
    case 'anomaly':
      return `expected ${amount(facts.low)}–${amount(facts.high)} (usual ${amount(facts.median)}, score ${facts.score.toFixed(1)})`;
    case 'compound':
      return facts.parts
        .map((p) => `${p.metric} ${amount(p.value)} ${conditionText(p.facts)}${p.breach ? '' : ' (not holding)'}`)
        .join(facts.mode === 'all' ? ' and ' : ' or ');
    case 'pacing':
      return `forecast ${amount(facts.forecast)} is ${(facts.share * 100).toFixed(0)} % of the ${amount(facts.plan)} plan (±${(facts.tolerance * 100).toFixed(0)} %), ${facts.daysElapsed} of ${facts.daysInMonth} days`;
  }
}

/** A value as the backtest lines print it. */
export function backtestValue(n: number): string {
  return amount(n);
}
