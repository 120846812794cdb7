/**
 * One evaluation of one rule, from the report definition to `evaluateRule`'s answer: the rule's
 * requests (`planRuleEvaluation`) sent through the `pivot` function the caller passes (the
 * Reporting Service client, or the sandbox's), then the pure judgement at the instant
 * (`judgeRuleAt`, which a backtest shares). The bot's scheduler, `pivotbot demo` and bench/alerts
 * share it.
 */

import { toError } from '../core/index.js';
import { findMetric, type PivotRequest, type PivotResponse } from '../reporting/index.js';
import {
  type AlertRule,
  type MonthPacing,
  type PacingDay,
  type ReportDefinition,
  type ReportView,
  resolveKey,
} from '../reports/index.js';
import { trendRequest } from './alertRequests.js';
import { judgeRuleAt } from './judgeRuleAt.js';
import { entitySeries, observeEntities, type PeriodRows } from './observeEntities.js';
import { planRequests, planRuleEvaluation, responsesOf } from './planRuleEvaluation.js';
import { shapeTrend, type TrendShape, trendDaysFor, trendShape } from './trendShape.js';
import type { RuleEvaluation, RuleState } from './types.js';

/** The catalog name of the metric a rule's chart draws (a compound rule's first condition's), aliases resolved. */
function ruleMetricName(rule: AlertRule, view: ReportView): string {
  if (typeof rule.metric !== 'string') return rule.metric.name;
  const metrics = view.columns.filter((c) => c.kind === 'metric');
  const key = resolveKey(
    rule.metric,
    metrics.map((c) => c.key),
  );
  return metrics.find((c) => c.key === key)?.name ?? rule.metric;
}

export interface RuleEvaluationInput {
  report: { id: string; definition: ReportDefinition };
  rule: AlertRule;
  /** Sends one pivot request (`client.pivot`). */
  pivot: (request: PivotRequest) => Promise<PivotResponse>;
  state: RuleState;
  /** The evaluation's instant: the scheduled slot (ranges resolve at it; transitions are stamped with it). */
  now: Date;
  /** Where new incidents' threads go (the report's first channel). */
  channel: string;
  defaultTimeZone?: string;
  /**
   * When an incident of a threshold or change rule opens, fetch its recent values by day over this
   * many days (one more request, only then) for the parent's chart. Off when absent.
   */
  trendDays?: number;
}

export interface RuleEvaluationResult {
  evaluation: RuleEvaluation;
  view: ReportView;
  /** `Yesterday (Sun 22 Nov 2026)`: the range evaluated, for messages. */
  rangeLabel: string;
  timezone: string;
  /** Anomaly rules: the baseline periods' rows, most recent first (for the chart). */
  history?: PeriodRows[];
  /** The baseline periods' starts, aligned with `history`. */
  historyFrom?: string[];
  /** Anomaly rules: an entity's baseline values, most recent period first (missing periods left out). */
  baselineOf?: (entityKey: string) => readonly number[] | undefined;
  /**
   * Anomaly rules: the points of an entity's chart, oldest first: each baseline period it has a
   * value in, at that period's start, then `value` at the start of the period evaluated (not the
   * evaluation's instant: yesterday's value is drawn at yesterday).
   */
  anomalyPoints?: (entityKey: string, value: number) => Array<{ at: string; value: number }>;
  /** With `trendDays`, when a threshold or change incident opened: each entity's values by day, oldest first. */
  trend?: ReadonlyMap<string, ReadonlyArray<{ at: string; value: number }>>;
  /** Why the trend could not be fetched (the parents then go out without a chart, saying so). */
  trendError?: Error;
  /**
   * How `trend` is drawn (`trendShape`): by day, or as the running total over the rule's range.
   * `per_day_without_line`: the chart must not draw the threshold (it would misstate the rule).
   */
  trendShape?: TrendShape;
  /** Pacing rules: the month's forecast against its plan, when the month has a plan. */
  pacing?: MonthPacing;
  /**
   * Pacing rules: every day of the month for the incident's chart (`pacingPath`): the spend so far,
   * the forecast's path to the month's end (its last point the value judged), the plan pro rata.
   */
  pacingPath?: PacingDay[];
}

/**
 * Fetches what the rule needs and evaluates it. Requests go out together (the current period,
 * the report's own comparison when a change rule uses it, the rule's comparison or baselines).
 *
 * @example const { evaluation } = await runRuleEvaluation({ report, rule, pivot: (r) => client.pivot(r), state, now: slot, channel: 'C1' });
 */
export async function runRuleEvaluation(input: RuleEvaluationInput): Promise<RuleEvaluationResult> {
  const { report, rule, now } = input;
  const plan = planRuleEvaluation(report, rule, {
    now,
    ...(input.defaultTimeZone !== undefined ? { defaultTimeZone: input.defaultTimeZone } : {}),
  });
  const responses = responsesOf(plan, await Promise.all(planRequests(plan).map((r) => input.pivot(r))));
  const judged = judgeRuleAt({ report, rule, plan, responses, state: input.state, now, channel: input.channel });
  const { evaluation, view, pacing, pacingPath } = judged;
  const baselines = judged.baselines ?? [];
  const requests = { compiled: plan.compiled, history: plan.history };
  const trend: Pick<RuleEvaluationResult, 'trend' | 'trendError' | 'trendShape'> = {};
  // Anomaly charts draw their baselines, pacing charts the month (`pacingPath`): no trend for them.
  const opened = evaluation.transitions.some(
    (t) => t.kind === 'open' && t.condition.kind !== 'anomaly' && t.condition.kind !== 'pacing',
  );
  if (input.trendDays !== undefined && opened) {
    const range = requests.compiled.range;
    const time = view.columns.find((c) => c.kind === 'dimension' && c.unit === 'time');
    const bucket = time ? String(time.args.granularity ?? report.definition.query.granularity ?? 'DAILY') : undefined;
    const shape = trendShape(range, findMetric(ruleMetricName(rule, view))?.additive === true, bucket);
    trend.trendShape = shape;
    try {
      const { request } = trendRequest(report, rule, {
        now,
        days: trendDaysFor(range, shape, input.trendDays),
        ...(input.defaultTimeZone !== undefined ? { defaultTimeZone: input.defaultTimeZone } : {}),
      });
      const series = entitySeries(rule, view, (await input.pivot(request)).rows);
      trend.trend = new Map([...series].map(([k, points]) => [k, shapeTrend(points, shape, range.from)]));
    } catch (error) {
      trend.trendError = toError(error);
    }
  }
  return {
    evaluation,
    view,
    ...trend,
    ...(pacing ? { pacing } : {}),
    ...(pacingPath ? { pacingPath } : {}),
    rangeLabel: requests.compiled.range.label,
    timezone: requests.compiled.timezone,
    ...(requests.history
      ? {
          history: baselines,
          historyFrom: requests.history.map((h) => h.from),
          baselineOf: (entityKey: string) => baselineOf(rule, view, baselines, entityKey),
          anomalyPoints: (entityKey: string, value: number) => {
            const points = requests.history?.flatMap((h, i) => {
              const past = baselineOf(rule, view, baselines.slice(i, i + 1), entityKey)?.[0];
              return past === undefined ? [] : [{ at: h.from, value: past }];
            });
            return [...(points ?? []).reverse(), { at: requests.compiled.range.from, value }];
          },
        }
      : {}),
  };
}

function baselineOf(
  rule: AlertRule,
  view: ReportView,
  history: PeriodRows[],
  entityKey: string,
): readonly number[] | undefined {
  const observed = observeEntities(rule, view, { history });
  if ('reason' in observed) return undefined;
  return observed.observations.find((o) => o.entityKey === entityKey)?.baseline;
}
