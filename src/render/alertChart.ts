/**
 * The small chart of an alert: the metric over the recent evaluations with the threshold line
 * (and, for anomaly rules, both edges of the expected band), as a Chart.js spec for the same
 * renderer as digest charts. Built through `buildChartConfig` so it looks like every other chart.
 */
import type { Polarity } from '../reporting/index.js';
import type { ReportView, ViewColumn } from '../view/index.js';
import { buildChartConfig } from './buildChartConfig.js';
import type { ChartSpec } from './chartStyle.js';
import type { FormatUnit } from './format.js';
import { formatValue } from './format.js';
import { THRESHOLD_COLOUR } from './palette.js';

export interface AlertChartInput {
  /** The rule's name, as the title. */
  title: string;
  metric: { key: string; label: string; unit: Exclude<FormatUnit, 'text' | 'time'>; polarity: Polarity };
  /** The values over the recent period, oldest first (ISO times with offset). */
  points: ReadonlyArray<{ at: string; value: number | null }>;
  /** The trigger (for anomaly rules, the edge that was crossed). */
  threshold?: number;
  /** Anomaly rules: the expected band. */
  band?: { low: number; high: number };
  /** The entity, shown in the subtitle: `Country BR`. */
  entity?: string;
  timezone: string;
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
 * The chart as a one-line view, for a renderer that draws views (the bot's chart process): it
 * draws the metric and the threshold (for anomaly rules the edge that was crossed, not the band's
 * other edge, which only `alertChartSpec` adds). Null with fewer than two values.
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
  const line = input.band ? input.band.high : input.threshold;
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
      ...(line === undefined
        ? {}
        : {
            threshold: {
              metric: input.metric.key,
              value: line,
              label: input.band
                ? `expected ≤ ${formatValue(line, input.metric.unit)}`
                : `threshold ${formatValue(line, input.metric.unit)}`,
            },
          }),
    },
  };
  return view;
}

function finishAlertChart(
  spec: ChartSpec,
  input: AlertChartInput,
  points: ReadonlyArray<{ at: string; value: number | null }>,
): ChartSpec {
  if (input.band) {
    const threshold = spec.config.data.datasets.find((d) => d.label?.startsWith('expected'));
    spec.config.data.datasets.push({
      ...(threshold ?? {}),
      type: 'line',
      label: `expected ≥ ${formatValue(input.band.low, input.metric.unit)}`,
      data: points.map(() => input.band?.low ?? null),
      borderColor: THRESHOLD_COLOUR,
      borderDash: [4, 4],
      pointRadius: 0,
    } as (typeof spec.config.data.datasets)[number]);
  }
  const limit = input.band
    ? `expected band ${formatValue(input.band.low, input.metric.unit)} – ${formatValue(input.band.high, input.metric.unit)}`
    : input.threshold === undefined
      ? 'no threshold'
      : `threshold ${formatValue(input.threshold, input.metric.unit)}`;
  spec.alt = `Line chart of ${input.metric.label}${input.entity ? ` for ${input.entity}` : ''} over the last ${points.length} evaluations, ${limit}; latest ${formatValue(points[points.length - 1]?.value, input.metric.unit)}.`;
  return spec;
}
