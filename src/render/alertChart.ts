/**
 * The small chart of an alert: the metric over the recent evaluations with the threshold line
 * (and, for anomaly rules, both edges of the expected band), as a Chart.js spec for the same
 * renderer as digest charts. Built through `buildChartConfig` so it looks like every other chart.
 */
import type { AlertCondition, TrendShape } from '../alerts/index.js';
import type { Polarity } from '../reporting/index.js';
import type { ReportView, ViewColumn } from '../view/index.js';
import { buildChartConfig } from './buildChartConfig.js';
import type { ChartSpec } from './chartStyle.js';
import type { FormatUnit } from './format.js';
import { formatValue } from './format.js';

export interface AlertChartInput {
  /** The rule's name, as the title. */
  title: string;
  metric: { key: string; label: string; unit: Exclude<FormatUnit, 'text' | 'time'>; polarity: Polarity };
  /** The values over the recent period, oldest first (ISO times with offset). */
  points: ReadonlyArray<{ at: string; value: number | null }>;
  /** The trigger of an above/below rule. */
  threshold?: number;
  /** Anomaly rules: the expected band, both edges drawn (instead of `threshold`). */
  band?: { low: number; high: number };
  /** The entity, shown in the subtitle: `Country BR`. */
  entity?: string;
  timezone: string;
}

/**
 * The lines an alert's chart draws for its condition: the threshold of an above/below rule, both
 * edges of an anomaly's expected band, and none for a change rule: its trigger is a percentage of
 * another period's value, which a line over the recent days (by day, while the rule's range may be
 * a week) would misstate.
 *
 * @example chartLimits({ kind: 'above', threshold: 6 }) // { threshold: 6 }
 */
export function chartLimits(condition: AlertCondition): Pick<AlertChartInput, 'threshold' | 'band'> {
  switch (condition.kind) {
    case 'above':
    case 'below':
      return { threshold: condition.threshold };
    case 'anomaly':
      return { band: { low: condition.low, high: condition.high } };
    case 'equals':
      return { threshold: condition.target };
    case 'change':
    case 'pacing':
      return {};
    case 'compound': {
      // The chart draws the first condition's metric: its own threshold, when it has one.
      const first = condition.parts[0]?.condition;
      return first ? chartLimits(first) : {};
    }
  }
}

/**
 * The lines a chart of this shape (`trendShape`, the alert core's decision) draws for the
 * condition: `chartLimits`, or none when the values drawn are not what the rule judged (a ratio by
 * day while the rule judges a week).
 *
 * @example trendLimits({ kind: 'above', threshold: 6 }, 'per_day_without_line') // {}
 */
export function trendLimits(
  condition: AlertCondition,
  shape: TrendShape | undefined,
): Pick<AlertChartInput, 'threshold' | 'band'> {
  return shape === 'per_day_without_line' ? {} : chartLimits(condition);
}

/**
 * A line chart of the metric with the threshold drawn dashed, or null with fewer than two points
 * (a single dot says nothing about "recent").
 *
 * @example alertChartSpec({ title: 'CPI above target', metric, points: incident.values, threshold: 6, timezone: 'UTC' })
 */
export function alertChartSpec(input: AlertChartInput): ChartSpec | null {
  const view = alertChartView(input);
  if (!view) return null;
  const points = input.points.filter((p) => p.value !== null);
  const spec = buildChartConfig(view);
  if (!spec) return null;
  return finishAlertChart(spec, input, points);
}

/**
 * The chart as a one-line view, for a renderer that draws views (the bot's chart process): the
 * metric and the threshold, or for anomaly rules both edges of the expected band, the same lines
 * as `alertChartSpec`. Null with fewer than two values.
 *
 * @example const png = await charts.renderView(alertChartView(input))
 */
export function alertChartView(input: AlertChartInput): ReportView | null {
  const points = input.points.filter((p) => p.value !== null);
  if (points.length < 2) return null;
  const time: ViewColumn = {
    key: 'at',
    kind: 'dimension',
    name: 'date',
    args: {},
    label: 'Time',
    unit: 'time',
    polarity: 'neutral',
  };
  const metric: ViewColumn = { ...input.metric, kind: 'metric', name: input.metric.key, args: {} };
  const first = points[0]?.at ?? '';
  const last = points[points.length - 1]?.at ?? '';
  const unit = input.metric.unit;
  const key = input.metric.key;
  const thresholds = input.band
    ? [
        { metric: key, value: input.band.high, label: `expected ≤ ${formatValue(input.band.high, unit)}` },
        { metric: key, value: input.band.low, label: `expected ≥ ${formatValue(input.band.low, unit)}` },
      ]
    : input.threshold === undefined
      ? []
      : [{ metric: key, value: input.threshold, label: `threshold ${formatValue(input.threshold, unit)}` }];
  const view: ReportView = {
    reportId: 'alert',
    title: input.title,
    range: { from: first, to: last, label: input.entity ?? input.metric.label, timezone: input.timezone },
    columns: [time, metric],
    rows: points.map((p) => ({ at: p.at, [input.metric.key]: p.value })),
    totalRowCount: points.length,
    headline: [input.metric.key],
    mode: 'sync',
    warnings: [],
    generatedAt: last,
    chart: {
      kind: 'line',
      x: 'at',
      series: [input.metric.key],
      title: input.title,
      ...(thresholds.length > 0 ? { thresholds } : {}),
    },
  };
  return view;
}

function finishAlertChart(
  spec: ChartSpec,
  input: AlertChartInput,
  points: ReadonlyArray<{ at: string; value: number | null }>,
): ChartSpec {
  const limit = input.band
    ? `expected band ${formatValue(input.band.low, input.metric.unit)} – ${formatValue(input.band.high, input.metric.unit)}`
    : input.threshold === undefined
      ? 'no threshold'
      : `threshold ${formatValue(input.threshold, input.metric.unit)}`;
  spec.alt = `Line chart of ${input.metric.label}${input.entity ? ` for ${input.entity}` : ''} over the last ${points.length} evaluations, ${limit}; latest ${formatValue(points[points.length - 1]?.value, input.metric.unit)}.`;
  return spec;
}
