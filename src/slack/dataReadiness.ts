/**
 * `schedule.waitForData`: before a digest of a range that ends at or just before now is posted,
 * its value of one metric is compared with the same span a week earlier (same weekdays), so a
 * digest of data that has not fully arrived waits instead of posting numbers that look like a
 * collapse. The decision itself is `dataWaitAction` (src/scheduler); this file asks the Reporting
 * Service for the two numbers.
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
import { formatDuration, type WaitForData } from '../scheduler/index.js';

/** A range "ends at or just before now" when its end is later than a day before now (yesterday, today). */
export const RECENT_RANGE_MS = 86_400_000;

/** The two totals-only pivots of one check: the range, and the same span a week earlier. */
export interface DataCheckPlan {
  metricKey: string;
  range: ResolvedRange;
  baselineRange: ResolvedRange;
  current: PivotRequest;
  baseline: PivotRequest;
}

/**
 * What a check asks for, or undefined when there is nothing to wait for: the range ended more
 * than a day before `now` (its data is in), or the report has no pivot. Ranges are compiled as
 * the digest compiles them (as of `asOf`, the slot), filters and cleanup included, with no
 * dimensions and only the metric (the report's own selection of it when it has one).
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
  const totalsOnly: PivotRequest = { ...request, dimensions: [], metrics: [metric] };
  return {
    metricKey,
    range: compiled.range,
    baselineRange,
    current: totalsOnly,
    baseline: { ...totalsOnly, from: baselineRange.from, to: baselineRange.to },
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

/** The metric's total in a totals-only answer (its one row when the service sends no totals). */
export function metricTotal(answer: { rows: readonly PivotRow[]; totals?: PivotRow }, key: string): number {
  const raw = answer.totals?.[key] ?? answer.rows[0]?.[key];
  const value = typeof raw === 'string' ? Number(raw) : raw;
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

/** Runs a check's two pivots at once. */
export async function measureData(
  plan: DataCheckPlan,
  client: Pick<ReportingClient, 'pivot'>,
  signal?: AbortSignal,
): Promise<{ value: number; baseline: number }> {
  const options = signal ? { signal } : {};
  const [current, baseline] = await Promise.all([
    client.pivot(plan.current, options),
    client.pivot(plan.baseline, options),
  ]);
  return { value: metricTotal(current, plan.metricKey), baseline: metricTotal(baseline, plan.metricKey) };
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
