/**
 * Every request one evaluation of a rule sends at one instant, by role: the report's current
 * period (with the rule's metric), the report's own comparison when a change rule uses it, the
 * rule's comparison or baseline periods (`alertRequests`), and a pacing rule's spend by day. The
 * live evaluation sends them; a backtest answers them from one fetch over its whole window. Pure.
 */
import type { PivotRequest } from '../reporting/index.js';
import {
  type AlertRule,
  type CompiledReport,
  type PacingPlan,
  pacingPlan,
  pacingRequest,
  type ReportDefinition,
  ruleChange,
} from '../reports/index.js';
import { type AlertRequestOptions, alertRequests, type PeriodRequest } from './alertRequests.js';

export interface RulePlan {
  compiled: CompiledReport;
  /** The report's request for the evaluated range, with the rule's metrics. */
  current: PivotRequest;
  /** A change rule of the report's own comparison kind: that period, with the same metrics. */
  ownComparison?: PivotRequest;
  /** A change rule whose comparison the report does not fetch itself. */
  comparison?: PeriodRequest;
  /** Anomaly rules: the baseline periods, most recent first. */
  history?: PeriodRequest[];
  /** Pacing rules whose month has a plan: the month's spend by day. */
  pacing?: { plan: PacingPlan; request: PivotRequest };
}

/**
 * The requests of one evaluation of `rule` at `options.now`.
 *
 * @example const plan = planRuleEvaluation(report, rule, { now: slot, defaultTimeZone: 'UTC' }); planRequests(plan).length // 5 for a 4-week anomaly rule
 */
export function planRuleEvaluation(
  report: { definition: ReportDefinition },
  rule: AlertRule,
  options: AlertRequestOptions,
): RulePlan {
  const requests = alertRequests(report, rule, options);
  const own = requests.compiled.comparison;
  const plan: RulePlan = { compiled: requests.compiled, current: requests.current };
  if (ruleChange(rule) !== undefined && own !== undefined && requests.comparison === undefined) {
    plan.ownComparison = { ...own.request, metrics: requests.current.metrics };
  }
  if (requests.comparison) plan.comparison = requests.comparison;
  if (requests.history) plan.history = requests.history;
  if (rule.pacing) {
    const zone = options.defaultTimeZone !== undefined ? { defaultTimeZone: options.defaultTimeZone } : {};
    const month = pacingPlan(report.definition, { now: options.now, ...zone });
    const request = month ? pacingRequest(report.definition, month, { now: options.now, ...zone }) : undefined;
    if (month && request) plan.pacing = { plan: month, request };
  }
  return plan;
}

/**
 * The plan's requests in one fixed order: current, own comparison, comparison, the baselines,
 * pacing. `RuleResponses` of the same plan line up with it (`responsesOf`).
 *
 * @example await Promise.all(planRequests(plan).map((r) => client.pivot(r)))
 */
export function planRequests(plan: RulePlan): PivotRequest[] {
  return [
    plan.current,
    ...(plan.ownComparison ? [plan.ownComparison] : []),
    ...(plan.comparison ? [plan.comparison.request] : []),
    ...(plan.history ?? []).map((h) => h.request),
    ...(plan.pacing ? [plan.pacing.request] : []),
  ];
}

/** The answers to a plan's requests, by role. */
export interface RuleResponses<R> {
  current: R;
  ownComparison?: R;
  comparison?: R;
  history?: R[];
  pacing?: R;
}

/**
 * The answers of `planRequests(plan)`, in its order, by role again.
 *
 * @example responsesOf(plan, await Promise.all(planRequests(plan).map(send)))
 */
export function responsesOf<R>(plan: RulePlan, answers: readonly R[]): RuleResponses<R> {
  let i = 0;
  const next = (): R => answers[i++] as R;
  const out: RuleResponses<R> = { current: next() };
  if (plan.ownComparison) out.ownComparison = next();
  if (plan.comparison) out.comparison = next();
  if (plan.history) out.history = plan.history.map(() => next());
  if (plan.pacing) out.pacing = next();
  return out;
}
