// Alert rules at work: per-entity evaluation (thresholds, percent change, robust anomaly scores), the incident state machine, ack/snooze, backtests over past data, and the facts of alert summaries.
export type {
  AlertCondition,
  AlertConditionPart,
  AlertSeverity,
  PacingCondition,
  SimpleAlertCondition,
} from './AlertCondition.js';
export { type EntityPart, entityParts, incidentEntity } from './alertEntity.js';
export {
  type AlertRequestOptions,
  type AlertRequests,
  alertRequests,
  anomalyRequests,
  type PeriodRequest,
  TREND_DAYS,
  trendRequest,
} from './alertRequests.js';
export {
  type AnomalyScore,
  anomalyScore,
  MAD_TO_SIGMA,
  MIN_BASELINE,
  MIN_RELATIVE_SPREAD,
  median,
} from './anomalyScore.js';
export {
  BACKTEST_DAYS,
  type BacktestEvent,
  type BacktestInput,
  type BacktestPoint,
  type BacktestResult,
  backtestRule,
  backtestTiming,
  MAX_BACKTEST_EVALUATIONS,
  rulesToBacktest,
} from './backtestRule.js';
export {
  backtestChartLine,
  backtestOfEntity,
  backtestSummary,
  backtestValue,
  conditionText,
  shortDay,
} from './backtestSummary.js';
export { entityOwners } from './entityOwners.js';
export { type EvaluateInput, evaluateRule, ruleKey } from './evaluateRule.js';
export { acknowledge, IncidentActionError, SNOOZE_HOURS, snooze } from './incidentActions.js';
export { anomalyDirection } from './judge.js';
export { conditionRule, judgeEntities } from './judgeEntities.js';
export { judgePacing, MIN_PACING_DAYS } from './judgePacing.js';
export { type JudgedRule, type JudgeRuleInput, judgeRuleAt } from './judgeRuleAt.js';
export { durationMs, incidentId, REOPEN_WINDOW_MS, VALUES_KEPT } from './nextIncidentState.js';
export {
  entitySeries,
  type Observation,
  observeEntities,
  type PeriodRows,
  ruleMetricKey,
  TOTAL_KEY,
} from './observeEntities.js';
export {
  editDone,
  type OwedNotices,
  owedWrite,
  oweNotices,
  owesThreads,
  REPLY_KIND,
  replySent,
  withOwed,
} from './outbox.js';
export {
  planRequests,
  planRuleEvaluation,
  type RulePlan,
  type RuleResponses,
  responsesOf,
} from './planRuleEvaluation.js';
export {
  type RuleEvaluationInput,
  type RuleEvaluationResult,
  runRuleEvaluation,
} from './runRuleEvaluation.js';
export {
  MIN_SUGGESTION_DAYS,
  roundAway,
  SUGGESTION_DAYS,
  suggestThreshold,
  type ThresholdSuggestion,
} from './suggestThreshold.js';
export {
  type AlertsSummary,
  FIGURE_DAYS,
  type OpenIncident,
  type RuleFigures,
  type RuleStatus,
  ruleFigures,
  type SummaryInput,
  summarizeAlerts,
} from './summarizeAlerts.js';
export { shapeTrend, type TrendShape, trendDaysFor, trendShape } from './trendShape.js';
export type * from './types.js';
