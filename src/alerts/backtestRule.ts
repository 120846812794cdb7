/**
 * A rule replayed over the past: evaluated at each instant its schedule fired over the last N
 * days (its own `check`, else the report's schedule, else daily at 09:00 in the report's zone),
 * each instant judged by `judgeRuleAt` (the live evaluation's judge, hysteresis and baselines)
 * with the state the instants before left, on data from a few queries over the whole window
 * (`planWindow`) instead of one set per instant. Data the service did not have yet at an instant
 * (the rest of "today") is left out, so a rule of today judges today so far.
 */
import { didYouMean, ErrorCode, PivotbotError, suggest, UserInputError, userMessageOf } from '../core/index.js';
import { collectPivotProblems, LIMITS, type PivotRequest, type PivotResponse } from '../reporting/index.js';
import { type AlertRule, compoundOf, type ReportDefinition } from '../reports/index.js';
import type { AlertIncident } from '../store/index.js';
import { firesBetween, type Timing, wallClock } from '../time/index.js';
import { answerFromWindow, indexWindow, planWindow, unaggregatable } from './backtestWindow.js';
import { judgeRuleAt } from './judgeRuleAt.js';
import { planRequests, planRuleEvaluation, type RulePlan, responsesOf } from './planRuleEvaluation.js';
import type { ConditionFacts, RuleState, SkipReason, TransitionKind } from './types.js';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** Days a backtest replays unless told otherwise. */
export const BACKTEST_DAYS = 60;
/** Evaluations one backtest replays at most (a check every 5 minutes for 60 days is 17,280). */
export const MAX_BACKTEST_EVALUATIONS = 5_000;

export interface BacktestEvent {
  /** The evaluation's instant (ISO UTC) and its local day in the report's zone. */
  at: string;
  day: string;
  kind: TransitionKind;
  entityKey: string;
  entityLabel: string;
  value: number;
  /** The value's condition: threshold, band, comparison, plan. */
  condition: ConditionFacts;
  /** The range judged (`Yesterday (Wed 4 Nov 2026)`), and its start. */
  range: string;
  rangeFrom: string;
  /** Resolutions: how long the incident was open. */
  durationMs?: number;
}

export interface BacktestPoint {
  /** The start of the range judged. */
  at: string;
  value: number;
  breach: boolean;
  threshold: number;
}

export interface BacktestResult {
  reportId: string;
  ruleId: string;
  ruleName: string;
  timezone: string;
  days: number;
  /** The instants replayed: from (exclusive) to (inclusive). */
  from: string;
  to: string;
  /** How the rule was timed in the replay: its check, the report's schedule, or daily. */
  timing: string;
  granularity: 'DAILY' | 'HOURLY';
  evaluations: number;
  /** Requests sent to the Reporting Service for the whole backtest. */
  queries: number;
  events: BacktestEvent[];
  /** Local days on which an incident opened or reopened, oldest first. */
  firedDays: string[];
  /** Local days on which at least one entity was in breach. */
  breachDays: string[];
  /** Entities that opened an incident. */
  entities: Array<{ entityKey: string; entityLabel: string; opened: number; resolved: number }>;
  /** Incidents still open after the last evaluation. */
  openAtEnd: number;
  /** Entities skipped at an evaluation, counted by reason (with the last detail). */
  skipped: Array<{ reason: SkipReason; count: number; detail: string }>;
  /** Each judged entity's values over the evaluations, oldest first. */
  series: Map<string, { label: string; points: BacktestPoint[] }>;
}

export interface BacktestInput {
  report: { id: string; definition: ReportDefinition };
  rule: AlertRule;
  /** Sends one pivot request (`client.pivot`). */
  pivot: (request: PivotRequest) => Promise<PivotResponse>;
  now: Date;
  days?: number;
  defaultTimeZone?: string;
}

const refuse = (message: string): never => {
  throw new UserInputError(ErrorCode.BacktestRefused, message);
};

/**
 * The rules of a report a backtest runs: the one named `ruleId`, else all of them. Throws a
 * `UserInputError` when the report has none, or none of that id ("Did you mean …?").
 *
 * @example rulesToBacktest(report, 'cpi-too-hihg') // throws: No rule "cpi-too-hihg" in daily-kpi. Did you mean "cpi-too-high"?
 */
export function rulesToBacktest(report: { id: string; definition: ReportDefinition }, ruleId?: string): AlertRule[] {
  const rules = report.definition.alerts ?? [];
  if (rules.length === 0) {
    throw new UserInputError(ErrorCode.AlertRuleNotFound, `Report "${report.id}" has no alert rules to backtest.`);
  }
  if (ruleId === undefined) return [...rules];
  const rule = rules.find((r) => r.id === ruleId.toLowerCase());
  if (rule) return [rule];
  const ids = rules.map((r) => r.id);
  const suggestions = suggest(ruleId, ids);
  throw new UserInputError(
    ErrorCode.AlertRuleNotFound,
    `No rule "${ruleId}" in ${report.id}.${didYouMean(suggestions)} Its rules: ${ids.join(', ')}.`,
    { suggestions },
  );
}

/** When the rule is evaluated, as the scheduler times it (`listAlertSchedules`), and in words. */
export function backtestTiming(
  definition: ReportDefinition,
  rule: AlertRule,
  defaultTimeZone = 'UTC',
): { timing: Timing; text: string } {
  const zone = definition.schedule?.timezone ?? definition.query.timezone ?? defaultTimeZone;
  if (rule.check) {
    const timezone = rule.check.timezone ?? zone;
    return { timing: { cron: rule.check.cron, timezone }, text: `its check (${rule.check.cron}, ${timezone})` };
  }
  const schedule = definition.schedule;
  if (schedule?.cron !== undefined) {
    return {
      timing: { cron: schedule.cron, timezone: zone },
      text: `the report's schedule (${schedule.cron}, ${zone})`,
    };
  }
  if (schedule?.at !== undefined) {
    const days = schedule.days === undefined ? {} : { days: schedule.days };
    return {
      timing: { at: schedule.at, ...days, timezone: zone },
      text: `the report's schedule (${schedule.at}, ${zone})`,
    };
  }
  return {
    timing: { at: '09:00', timezone: zone },
    text: `daily at 09:00 (${zone}): neither the rule nor the report has a schedule`,
  };
}

/**
 * Replays `rule` over the last `days` days (default 60). Throws a `UserInputError`
 * (`BACKTEST_REFUSED`) with one line saying why when it cannot: a request the service would
 * refuse, siteBundle past its 3 months, hourly data past 15 days, a metric no bucket rebuilds.
 *
 * @example const result = await backtestRule({ report, rule, pivot: (r) => client.pivot(r), now: new Date(), days: 30 });
 *          result.firedDays // ['2026-11-04', '2026-11-12']
 */
export async function backtestRule(input: BacktestInput): Promise<BacktestResult> {
  const { report, rule, now } = input;
  const days = input.days ?? BACKTEST_DAYS;
  const zone = input.defaultTimeZone !== undefined ? { defaultTimeZone: input.defaultTimeZone } : {};
  const { timing, text } = backtestTiming(report.definition, rule, input.defaultTimeZone);
  const start = new Date(now.getTime() - days * DAY_MS);
  const instants = firesBetween(timing, start, now, MAX_BACKTEST_EVALUATIONS + 1);
  if (instants.length > MAX_BACKTEST_EVALUATIONS) {
    refuse(
      `the rule is evaluated more than ${MAX_BACKTEST_EVALUATIONS} times in ${days} days (${text}); backtest fewer days`,
    );
  }
  const plans = instants.map((at) => ({
    at,
    plan: clipToInstant(planRuleEvaluation(report, rule, { now: at, ...zone }), at),
  }));
  const all = plans.flatMap(({ plan }) => planRequests(plan));
  if (all.length === 0) refuse(`the rule is not evaluated at all in the last ${days} days (${text})`);
  const window = planWindow(all);
  checkWindow(window.requests, rule, now, days, window.granularity !== 'DAILY' || all.some(spansBuckets));
  const responses = await Promise.all(window.requests.map((r) => input.pivot(r).catch(refusedBy)));
  const data = indexWindow(window, responses);

  let state: RuleState = { incidents: [] };
  const timezone = plans[0]?.plan.compiled.timezone ?? 'UTC';
  const dayOf = (at: Date) => new Date(wallClock(at.getTime(), timezone)).toISOString().slice(0, 10);
  const events: BacktestEvent[] = [];
  const breachDays = new Set<string>();
  const skipped = new Map<SkipReason, { count: number; detail: string }>();
  const series: BacktestResult['series'] = new Map();
  for (const { at, plan } of plans) {
    const answers = planRequests(plan).map((r) => answerFromWindow(data, r));
    const responses = responsesOf(plan, answers);
    const { evaluation } = judgeRuleAt({ report, rule, plan, responses, state, now: at, channel: 'backtest' });
    const unjudgeable = evaluation.skipped.find((s) => s.reason === 'no_metric');
    if (unjudgeable) refuse(unjudgeable.detail);
    const day = dayOf(at);
    const range = plan.compiled.range;
    for (const t of evaluation.transitions) {
      events.push({
        at: at.toISOString(),
        day,
        kind: t.kind,
        entityKey: t.entityKey,
        entityLabel: t.entityLabel,
        value: t.value,
        condition: t.condition,
        range: range.label,
        rangeFrom: range.from,
        ...(t.durationMs !== undefined ? { durationMs: t.durationMs } : {}),
      });
    }
    for (const j of evaluation.judged ?? []) {
      if (j.breach) breachDays.add(day);
      const line = series.get(j.entityKey) ?? { label: j.entityLabel, points: [] };
      line.points.push({ at: range.from, value: j.value, breach: j.breach, threshold: j.threshold });
      series.set(j.entityKey, line);
    }
    for (const s of evaluation.skipped) {
      const seen = skipped.get(s.reason);
      skipped.set(s.reason, { count: (seen?.count ?? 0) + 1, detail: s.detail });
    }
    state = applied(state, evaluation.nextState);
  }
  const opened = events.filter((e) => e.kind === 'open' || e.kind === 'reopen');
  const entities = new Map<string, BacktestResult['entities'][number]>();
  for (const e of events) {
    if (e.kind !== 'open' && e.kind !== 'reopen' && e.kind !== 'resolve') continue;
    const seen = entities.get(e.entityKey) ?? {
      entityKey: e.entityKey,
      entityLabel: e.entityLabel,
      opened: 0,
      resolved: 0,
    };
    if (e.kind === 'resolve') seen.resolved++;
    else seen.opened++;
    entities.set(e.entityKey, seen);
  }
  return {
    reportId: report.id,
    ruleId: rule.id,
    ruleName: rule.name ?? rule.id,
    timezone,
    days,
    from: start.toISOString(),
    to: now.toISOString(),
    timing: text,
    granularity: window.granularity,
    evaluations: plans.length,
    queries: window.requests.length,
    events,
    firedDays: [...new Set(opened.map((e) => e.day))].sort(),
    breachDays: [...breachDays].sort(),
    entities: [...entities.values()].filter((e) => e.opened > 0),
    openAtEnd: state.incidents.filter((i) => i.state === 'open').length,
    skipped: [...skipped].map(([reason, s]) => ({ reason, ...s })),
    series,
  };
}

/** The plan's requests cut at the instant: a range of today holds only the hours already past. */
function clipToInstant(plan: RulePlan, at: Date): RulePlan {
  const hour = new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS);
  const clip = (r: PivotRequest): PivotRequest =>
    Date.parse(r.to) > hour.getTime() ? { ...r, to: hour.toISOString() } : r;
  const out: RulePlan = { ...plan, current: clip(plan.current) };
  if (plan.ownComparison) out.ownComparison = clip(plan.ownComparison);
  if (plan.pacing) out.pacing = { ...plan.pacing, request: clip(plan.pacing.request) };
  return out;
}

const spansBuckets = (r: PivotRequest): boolean => Date.parse(r.to) - Date.parse(r.from) > 25 * HOUR_MS;

/** The window's queries checked as the service would check them, and the limits of its data. */
function checkWindow(
  requests: readonly PivotRequest[],
  rule: AlertRule,
  now: Date,
  days: number,
  aggregates: boolean,
): void {
  for (const request of requests) {
    const problem = collectPivotProblems(request, { now }).problems[0];
    if (problem) {
      const hourly = problem.path === 'from' && /Hourly/.test(problem.message);
      refuse(
        hourly
          ? `the rule judges part of a day at its check, which needs hourly data, and the service keeps ${LIMITS.hourlyMaxAgeDays} days of it: backtest fewer days than ${days}`
          : `${problem.path}: ${problem.message}`,
      );
    }
    const bundleFloor = new Date(now);
    bundleFloor.setUTCMonth(bundleFloor.getUTCMonth() - LIMITS.siteBundleMaxAgeMonths);
    if (request.dimensions.some((d) => d.name === 'siteBundle') && Date.parse(request.from) < bundleFloor.getTime()) {
      refuse(
        `siteBundle is kept for ${LIMITS.siteBundleMaxAgeMonths} months and this backtest reaches back to ${request.from.slice(0, 10)} (${days} days and the periods the rule compares them with): backtest fewer days`,
      );
    }
  }
  if (!aggregates && rule.on !== 'total') return;
  const names = (compoundOf(rule)?.conditions.map((c) => c.metric) ?? [rule.metric]).map((m) =>
    typeof m === 'string' ? m : m.name,
  );
  const why = unaggregatable(names);
  if (why) refuse(`${why}, so its value over a range of several buckets (or its total) cannot be rebuilt`);
}

function refusedBy(error: unknown): never {
  if (error instanceof PivotbotError)
    refuse(`the Reporting Service refused the backtest's query: ${userMessageOf(error)}`);
  throw error;
}

/** The state after an evaluation's write, as `store.incidents.applyEvaluation` leaves it. */
function applied(
  state: RuleState,
  next: { evaluation: RuleState['evaluation']; incidents: AlertIncident[] },
): RuleState {
  const byId = new Map(state.incidents.map((i) => [i.id, i]));
  for (const incident of next.incidents) byId.set(incident.id, incident);
  return { incidents: [...byId.values()], ...(next.evaluation ? { evaluation: next.evaluation } : {}) };
}
