/**
 * One evaluation of a rule at one instant, from the answers to its plan's requests: the report's
 * view built from the current period, the comparison, baselines and month's pacing read from the
 * others, then `evaluateRule` with the rule's state before. Pure: the live evaluation
 * (`runRuleEvaluation`) and the backtest (`backtestRule`) both judge through it, so a backtest
 * replays the same judge, hysteresis and baselines as the bot.
 */
import type { PivotResponse } from '../reporting/index.js';
import {
  type AlertRule,
  buildView,
  type MonthPacing,
  monthPacing,
  monthPacingPath,
  type PacingDay,
  type ReportDefinition,
  type ReportView,
} from '../reports/index.js';
import { evaluateRule } from './evaluateRule.js';
import type { PeriodRows } from './observeEntities.js';
import type { RulePlan, RuleResponses } from './planRuleEvaluation.js';
import type { RuleEvaluation, RuleState } from './types.js';

export interface JudgeRuleInput {
  report: { id: string; definition: ReportDefinition };
  rule: AlertRule;
  plan: RulePlan;
  responses: RuleResponses<PivotResponse>;
  /** The rule's incidents and last evaluation before this one. */
  state: RuleState;
  now: Date;
  channel: string;
}

export interface JudgedRule {
  evaluation: RuleEvaluation;
  view: ReportView;
  /** Anomaly rules: the baseline periods' rows, most recent first. */
  baselines?: PeriodRows[];
  pacing?: MonthPacing;
  pacingPath?: PacingDay[];
}

const rowsOf = (r: PivotResponse): PeriodRows => ({ rows: r.rows, ...(r.totals ? { totals: r.totals } : {}) });

/**
 * Judges the rule on the answers to `plan` at `now`, with the state before.
 *
 * @example const { evaluation } = judgeRuleAt({ report, rule, plan, responses, state, now, channel: 'C1' });
 */
export function judgeRuleAt(input: JudgeRuleInput): JudgedRule {
  const { report, rule, plan, responses, now } = input;
  const current = responses.current;
  const view = buildView({
    id: report.id,
    definition: report.definition,
    compiled: plan.compiled,
    result: { columns: current.columns, rows: current.rows, ...(current.totals ? { totals: current.totals } : {}) },
    ...(responses.ownComparison ? { previous: rowsOf(responses.ownComparison) } : {}),
    mode: 'sync',
    warnings: [],
    generatedAt: now,
  });
  const baselines = responses.history?.map(rowsOf);
  const month = plan.pacing && responses.pacing ? plan.pacing : undefined;
  const pacing = month && responses.pacing ? monthPacing(responses.pacing.rows, month.plan) : undefined;
  const pacingPath = month && responses.pacing ? monthPacingPath(responses.pacing.rows, month.plan) : undefined;
  const evaluation = evaluateRule({
    reportId: report.id,
    rule,
    current: view,
    ...(responses.comparison ? { comparison: rowsOf(responses.comparison) } : {}),
    ...(baselines ? { history: baselines } : {}),
    ...(pacing ? { pacing } : {}),
    state: input.state,
    now,
    channel: input.channel,
  });
  return {
    evaluation,
    view,
    ...(baselines ? { baselines } : {}),
    ...(pacing ? { pacing } : {}),
    ...(pacingPath ? { pacingPath } : {}),
  };
}
