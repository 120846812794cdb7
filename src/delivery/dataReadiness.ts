/**
 * `schedule.waitForData`: before a digest of a range that ends at or just before now is posted,
 * its value of one metric is compared with the same span a week earlier (same weekdays), so a
 * digest of data that has not fully arrived waits instead of posting numbers that look like a
 * collapse. The decision itself is `dataWaitAction` (src/scheduler); this file gets the two
 * numbers from one pivot: the metric by day (by hour for hour ranges) from a week before the range
 * to its end, summed over the range's buckets and over the week-earlier span's.
 */
import type { MetricSelection, PivotRequest, PivotRow, ReportingClient } from '../reporting/index.js';
import {
  canonicalMetric,
  compileReport,
  previousRange,
  type ReportDefinition,
  type ResolvedRange,
  resolveKey,
} from '../reports/index.js';
import type { WaitForData } from '../scheduler/index.js';
import { formatDuration } from '../time/index.js';

/** A range "ends at or just before now" when its end is later than a day before now (yesterday, today). */
export const RECENT_RANGE_MS = 86_400_000;

/** The one pivot of a check, and the two spans its rows are summed over. */
export interface DataCheckPlan {
  metricKey: string;
  range: ResolvedRange;
  /** The same span a week earlier (same weekdays). */
  baselineRange: ResolvedRange;
  /** The metric by `date` bucket from the baseline's start to the range's end. */
  request: PivotRequest;
}

/**
 * What a check asks for, or undefined when there is nothing to wait for: the range ended more
 * than a day before `now` (its data is in), or the report has no pivot. Ranges are compiled as
 * the digest compiles them (as of `asOf`, the slot), filters and cleanup included; the pivot has
 * only the `date` dimension and the metric (the report's own selection of it when it has one).
 *
 * @example dataCheckPlan(definition, { metric: 'impressions', minShare: 0.5, waitMs: 7_200_000 }, { asOf: slot, now, defaultTimeZone: 'UTC' })
 */
export function dataCheckPlan(
  definition: ReportDefinition,
  rule: WaitForData,
  at: { asOf: Date; now: Date; defaultTimeZone: string },
): DataCheckPlan | undefined {
  const compiled = compileReport(definition, { now: at.asOf, defaultTimeZone: at.defaultTimeZone });
  const request = compiled.request;
  if (!request) return undefined;
  if (compiled.range.toMs <= at.now.getTime() - RECENT_RANGE_MS) return undefined;
  const metric = ownSelection(request.metrics, rule.metric) ?? (canonicalMetric(rule.metric) as MetricSelection);
  const metricKey = metric.alias ?? metric.name;
  const baselineRange = previousRange(compiled.range, 'same_period_last_week');
  const granularity = compiled.range.unit === 'hour' ? 'HOURLY' : 'DAILY';
  return {
    metricKey,
    range: compiled.range,
    baselineRange,
    request: {
      ...request,
      from: baselineRange.from,
      to: compiled.range.to,
      dimensions: [{ name: 'date', args: { granularity } }],
      metrics: [metric],
    },
  };
}

function ownSelection(metrics: readonly MetricSelection[], written: string): MetricSelection | undefined {
  const key = resolveKey(
    written,
    metrics.map((m) => m.alias ?? m.name),
  );
  const byKey = metrics.find((m) => (m.alias ?? m.name) === key);
  if (byKey) return byKey;
  const name = canonicalMetric(written).name;
  return metrics.find((m) => m.name === name && !m.args);
}

/**
 * The metric summed over the range's buckets and over the baseline's (a bucket counts where its
 * start falls; the spans may overlap for ranges longer than a week). Rows without a readable date
 * or number count as nothing.
 */
export function sumBySpan(
  rows: readonly PivotRow[],
  plan: Pick<DataCheckPlan, 'metricKey' | 'range' | 'baselineRange'>,
): { value: number; baseline: number } {
  let value = 0;
  let baseline = 0;
  for (const row of rows) {
    const at = typeof row.date === 'string' ? Date.parse(row.date) : Number.NaN;
    const raw = row[plan.metricKey];
    const amount = typeof raw === 'string' ? Number(raw) : raw;
    if (Number.isNaN(at) || typeof amount !== 'number' || !Number.isFinite(amount)) continue;
    if (at >= plan.range.fromMs && at < plan.range.toMs) value += amount;
    if (at >= plan.baselineRange.fromMs && at < plan.baselineRange.toMs) baseline += amount;
  }
  return { value, baseline };
}

/** Runs a check's pivot. */
export async function measureData(
  plan: DataCheckPlan,
  client: Pick<ReportingClient, 'pivot'>,
  signal?: AbortSignal,
): Promise<{ value: number; baseline: number }> {
  const answer = await client.pivot(plan.request, signal ? { signal } : {});
  return sumBySpan(answer.rows, plan);
}

/** The line a digest posted after its wait carries when the data is still short. */
export function incompleteDataNotice(
  plan: Pick<DataCheckPlan, 'metricKey' | 'baselineRange'>,
  share: number,
  waitedMs: number,
): string {
  const percent = Math.round(share * 100);
  // The label reads "Same period last week (Thu 12 Nov 2026)".
  const against = plan.baselineRange.label.replace(/^S/, 's');
  return `Data may be incomplete: ${plan.metricKey} is ${percent}% of the ${against} after waiting ${formatDuration(waitedMs)} for it.`;
}
