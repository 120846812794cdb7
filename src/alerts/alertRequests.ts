/**
 * The Reporting Service requests a rule needs besides the report's own: the comparison period of
 * a change rule (when the report compares with another period, or none), and the baseline periods
 * of an anomaly rule. Ranges come from the report's compiled range, shifted the way
 * `previousRange` shifts it, so alerts and digests agree on what "yesterday" is.
 */
import { ErrorCode, UserInputError } from '../core/index.js';
import type { PivotRequest } from '../reporting/index.js';
import {
  type AlertRule,
  type CompiledReport,
  canonicalMetric,
  compileReport,
  compoundOf,
  outputKeys,
  previousRange,
  type ReportDefinition,
  type ResolvedRange,
  resolveKey,
  ruleChange,
} from '../reports/index.js';
import { isoInZone, wallClock, wallToEpoch } from '../time/index.js';

const DAY_MS = 86_400_000;

export interface PeriodRequest {
  /** Inclusive start and exclusive end, ISO 8601 with offset. */
  from: string;
  to: string;
  request: PivotRequest;
}

export interface AlertRequests {
  compiled: CompiledReport;
  /** The report's request, with the rule's metric added when the query lacks it. */
  current: PivotRequest;
  /** Change rules whose comparison the report does not fetch itself. */
  comparison?: PeriodRequest;
  /** Anomaly rules: the baseline periods, most recent first. */
  history?: PeriodRequest[];
}

export interface AlertRequestOptions {
  now: Date;
  /** PIVOTBOT_TIMEZONE, for reports that name no zone. */
  defaultTimeZone?: string;
}

/**
 * The requests for the current period and, for an anomaly rule, the same weekday of each of the
 * previous `weeks` weeks (`same_weekday`), or the same hours on each of the previous `weeks × 7`
 * days (`same_hour`). Undefined `history` for other rules.
 *
 * @example const { current, history } = anomalyRequests(report, rule, { now, defaultTimeZone: 'UTC' });
 */
export function anomalyRequests(
  report: { definition: ReportDefinition },
  rule: AlertRule,
  options: AlertRequestOptions,
): AlertRequests {
  return alertRequests(report, rule, options);
}

/**
 * Every request a rule needs: see `anomalyRequests`; for change rules, the comparison period
 * when the report's own (`present.compare`) is not of the rule's kind.
 *
 * @example const { current, comparison } = alertRequests(report, rule, { now });
 */
export function alertRequests(
  report: { definition: ReportDefinition },
  rule: AlertRule,
  options: AlertRequestOptions,
): AlertRequests {
  const compiled = compileReport(report.definition, {
    now: options.now,
    ...(rule.range !== undefined ? { range: rule.range } : {}),
    ...(options.defaultTimeZone !== undefined ? { defaultTimeZone: options.defaultTimeZone } : {}),
  });
  const base = compiled.request;
  if (base === undefined) {
    throw new UserInputError(
      ErrorCode.AlertNoQuery,
      'This report has no pivot query (postbacks only): alert rules need its metrics.',
    );
  }
  const current = withRuleMetric(base, rule);
  const out: AlertRequests = { compiled, current };
  const period = (range: Pick<ResolvedRange, 'from' | 'to'>): PeriodRequest => ({
    from: range.from,
    to: range.to,
    request: { ...current, from: range.from, to: range.to },
  });
  const change = ruleChange(rule);
  if (change && compiled.comparison?.kind !== change.vs) {
    out.comparison = period(previousRange(compiled.range, change.vs));
  }
  if (rule.anomaly) {
    const history: PeriodRequest[] = [];
    if (rule.anomaly.baseline === 'same_weekday') {
      let range = compiled.range;
      for (let week = 1; week <= rule.anomaly.weeks; week++) {
        range = previousRange(range, 'same_period_last_week');
        history.push(period(range));
      }
    } else {
      for (let day = 1; day <= rule.anomaly.weeks * 7; day++) history.push(period(daysEarlier(compiled.range, day)));
    }
    out.history = history;
  }
  return out;
}

/** Days of recent values on the chart of a newly opened threshold or change incident. */
export const TREND_DAYS = 14;

/**
 * The one extra request a newly opened threshold or change incident's chart needs: the rule's own
 * request (the report's, with the rule's metric) by day over the `days` days up to the end of the
 * evaluated range, so the chart's last point is the value that breached. `on: total` rules get the
 * totals by day (no other dimension). `date` replaces the report's own time dimension, if any.
 *
 * @example const { request } = trendRequest(report, rule, { now: slot }); // from 14 days before the range's end, by day
 */
export function trendRequest(
  report: { definition: ReportDefinition },
  rule: AlertRule,
  options: AlertRequestOptions & { days?: number },
): PeriodRequest {
  const { compiled, current } = alertRequests(report, rule, options);
  const range = compiled.range;
  const days = options.days ?? TREND_DAYS;
  const from = isoInZone(
    wallToEpoch(wallClock(range.toMs, range.timezone) - days * DAY_MS, range.timezone),
    range.timezone,
  );
  const others = rule.on === 'total' ? [] : current.dimensions.filter((d) => d.name !== 'date');
  const dimensions = [{ name: 'date', args: { granularity: 'DAILY' } }, ...others];
  return { from, to: range.to, request: { ...current, from, to: range.to, dimensions, totals: false } };
}

/** The same wall-clock span `days` days earlier (23- and 25-hour days keep their local hours). */
function daysEarlier(range: ResolvedRange, days: number): Pick<ResolvedRange, 'from' | 'to'> {
  const zone = range.timezone;
  const shift = (ms: number) => isoInZone(wallToEpoch(wallClock(ms, zone) - days * DAY_MS, zone), zone);
  return { from: shift(range.fromMs), to: shift(range.toMs) };
}

/** A metric written with arguments on the rule only (not in the query) is fetched for it (each condition's, for compound rules). */
function withRuleMetric(request: PivotRequest, rule: AlertRule): PivotRequest {
  const metrics = compoundOf(rule)?.conditions.map((c) => c.metric) ?? [rule.metric];
  let out = request;
  for (const metric of metrics) {
    if (typeof metric === 'string') continue;
    const key = metric.as ?? metric.name;
    if (resolveKey(key, outputKeys(out).metrics) !== undefined) continue;
    out = { ...out, metrics: [...out.metrics, canonicalMetric(metric)] };
  }
  return out;
}
