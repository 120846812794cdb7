/**
 * A backtest in one sentence, for the terminal and Slack alike: "would have fired on 3 of the
 * last 30 days (Nov 4, Nov 12, Nov 20) for 2 entities". Pure.
 */
import { type AlertRule, compoundOf } from '../reports/index.js';
import type { BacktestPoint, BacktestResult } from './backtestRule.js';
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

/**
 * The backtest narrowed to one entity (a watch of one row): its events, days and series only.
 *
 * @example backtestOfEntity(result, 'countryCode=BR').firedDays // ['2026-11-20']
 */
export function backtestOfEntity(result: BacktestResult, entityKey: string): BacktestResult {
  const events = result.events.filter((e) => e.entityKey === entityKey);
  const line = result.series.get(entityKey);
  const opened = events.filter((e) => e.kind === 'open' || e.kind === 'reopen');
  const breachDays = new Set<string>();
  const dayOfEvaluation = new Map(result.events.map((e) => [e.rangeFrom, e.day]));
  for (const p of line?.points ?? []) if (p.breach) breachDays.add(dayOfEvaluation.get(p.at) ?? p.at.slice(0, 10));
  return {
    ...result,
    events,
    firedDays: [...new Set(opened.map((e) => e.day))].sort(),
    breachDays: [...breachDays].sort(),
    entities: result.entities.filter((e) => e.entityKey === entityKey),
    openAtEnd: ['open', 'reopen'].includes(
      events.filter((e) => e.kind !== 'remind' && e.kind !== 'bigMove').at(-1)?.kind ?? '',
    )
      ? 1
      : 0,
    series: line ? new Map([[entityKey, line]]) : new Map(),
  };
}

/**
 * What a backtest's chart draws: the entity that opened the most incidents (else the first
 * judged), its judged values at each range's start, and the rule's line when it has a fixed one
 * (above, below, equals; a compound rule's first condition's). Anomaly bands, changes and plans
 * move from one evaluation to the next: no line.
 *
 * @example backtestChartLine(result, rule) // { entityKey: 'countryCode=BR', label: 'Country BR', metric: 'spend', points: [...], threshold: 500 }
 */
export function backtestChartLine(
  result: BacktestResult,
  rule: AlertRule,
): { entityKey: string; label: string; metric: string; points: BacktestPoint[]; threshold?: number } | undefined {
  const ranked = [...result.entities].sort((a, b) => b.opened - a.opened);
  const key = ranked[0]?.entityKey ?? [...result.series.keys()][0];
  const line = key === undefined ? undefined : result.series.get(key);
  if (key === undefined || line === undefined) return undefined;
  const first = compoundOf(rule)?.conditions[0] ?? rule;
  const fixed = first.above ?? first.below ?? first.equals;
  const metric = typeof first.metric === 'string' ? first.metric : (first.metric.as ?? first.metric.name);
  return {
    entityKey: key,
    label: line.label,
    metric,
    points: line.points,
    ...(fixed !== undefined && !rule.pacing ? { threshold: fixed } : {}),
  };
}
