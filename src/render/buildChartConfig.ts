/**
 * ReportView → Chart.js configuration, as a pure function: which chart, which series on which
 * axis, tick formats, colours, the dashed comparison series and the threshold line are all
 * decided here and tested without a canvas. `ChartRenderer` turns the result into a PNG.
 */
import type { ChartDataset } from 'chart.js';
import type { PivotRow } from '../reporting/index.js';
import type { ReportView, ViewChart, ViewColumn } from '../view/index.js';
import { groupBy, seriesValues, shortTitle, topGroups } from './chartData.js';
import {
  type AnyChartConfig,
  CHART_WIDTH,
  type ChartSpec,
  chartSubtitle,
  FONT_SIZES,
  heightFor,
  LINE_HEIGHT,
  PIXEL_RATIO,
  TITLE_MAX,
  titlePlugins,
} from './chartStyle.js';
import { distinctLabels } from './distinctLabels.js';
import { type FormatUnit, formatTimeShort, formatValue } from './format.js';
import { GRID_COLOUR, MUTED_TEXT_COLOUR, seriesColour, TEXT_COLOUR, THRESHOLD_COLOUR, withAlpha } from './palette.js';
import { buildShareChart } from './shareChart.js';

/** Series beyond this many are folded into "Other" (or dropped): more lines are unreadable. */
export const MAX_SPLIT_SERIES = 6;
/** Categories drawn as bars at most. */
export const MAX_BARS = 20;

type AnyDataset = ChartDataset<'line' | 'bar', Array<number | null>>;

/** A dataset as this module builds it, before axes are assigned. */
export interface SeriesDraft {
  label: string;
  data: Array<number | null>;
  unit: FormatUnit;
  colour: string;
  dashed?: boolean;
  threshold?: boolean;
  /** Stacked segments share a stack id. */
  stack?: string;
}

function column(view: ReportView, key: string): ViewColumn | undefined {
  return view.columns.find((c) => c.key === key);
}

/**
 * The chart of a report, or null when it has none (no chart configured and no postbacks).
 *
 * @example const spec = buildChartConfig(view); if (spec) png = await renderer.render(spec);
 */
export function buildChartConfig(view: ReportView, chart: ViewChart | undefined = view.chart): ChartSpec | null {
  if (chart?.kind === 'share' || (!chart && view.postbacks && view.postbacks.length > 0)) {
    return buildShareChart(view, shortTitle(chart?.title ?? view.title, TITLE_MAX));
  }
  if (!chart) return null;
  const xColumn = column(view, chart.x);
  const metrics = chart.series.map((k) => column(view, k)).filter((c): c is ViewColumn => c?.kind === 'metric');
  if (!xColumn || metrics.length === 0) return null;
  const isTime = xColumn.unit === 'time';
  const splitKey =
    chart.kind === 'stacked_bar'
      ? chart.stackBy
      : chart.kind === 'line' && metrics.length === 1
        ? view.columns.find((c) => c.kind === 'dimension' && c.key !== chart.x)?.key
        : undefined;

  const groups = groupBy(view.rows, chart.x, isTime);
  // A bar per category stops being readable past MAX_BARS; the report's own top-N usually applies first.
  const allKeys = [...groups.keys()];
  const keys = isTime ? allKeys : allKeys.slice(0, MAX_BARS);
  // Categories cut together, so two long names never share a bar's label.
  const labels = isTime ? keys.map(formatTimeShort) : distinctLabels(keys.map((k) => (k === '' ? '—' : k)));
  const drafts: SeriesDraft[] = [];

  if (splitKey && metrics[0]) {
    drafts.push(...splitSeries(view, chart, metrics[0], splitKey, keys));
  } else {
    metrics.forEach((metric, i) => {
      drafts.push({
        label: metric.label,
        data: seriesValues(groups, keys, metric, view.columns),
        unit: metric.unit,
        colour: seriesColour(i),
        ...(chart.dashed?.includes(metric.key) ? { dashed: true } : {}),
      });
    });
    // Pale comparison bars beside several series would make four bars per category: lines only then.
    const compare = view.comparison && (chart.kind === 'line' || metrics.length === 1);
    if (compare) drafts.push(...comparisonSeries(view, chart, metrics, keys, isTime));
  }
  for (const line of chart.thresholds ?? []) {
    drafts.push({
      label: line.label,
      data: keys.map(() => line.value),
      unit: column(view, line.metric)?.unit ?? metrics[0]?.unit ?? 'count',
      colour: THRESHOLD_COLOUR,
      threshold: true,
    });
  }

  const horizontal = chart.kind !== 'line' && !isTime;
  const height = horizontal ? heightFor(keys.length * (drafts.length > 1 ? 1.5 : 1)) : LINE_HEIGHT;
  const config = assemble(chart, drafts, labels, horizontal);
  config.options = {
    ...config.options,
    plugins: titlePlugins(
      shortTitle(chart.title ?? view.title, TITLE_MAX),
      chartSubtitle(
        view,
        drafts.some((d) => d.dashed),
        chart.kind === 'line' ? 'dashed' : 'pale bars',
        keys.length < allKeys.length ? `Top ${keys.length} of ${allKeys.length} · ` : '',
      ),
      chart.kind === 'line',
    ),
  };
  return { config, width: CHART_WIDTH, height, alt: altText(view, chart, metrics, splitKey) };
}

function splitSeries(
  view: ReportView,
  chart: ViewChart,
  metric: ViewColumn,
  splitKey: string,
  keys: readonly string[],
): SeriesDraft[] {
  const { keep, other } = topGroups(view.rows, splitKey, metric, MAX_SPLIT_SERIES);
  const kept = new Set(keep);
  const names = distinctLabels(keep);
  const drafts: SeriesDraft[] = keep.map((value, i) => {
    const rows = view.rows.filter((r) => String(r[splitKey] ?? '—') === value);
    return {
      label: names[i] as string,
      data: seriesValues(groupBy(rows, chart.x, false), keys, metric, view.columns),
      unit: metric.unit,
      colour: seriesColour(i),
      stack: 'split',
    };
  });
  if (other) {
    const rows = view.rows.filter((r) => !kept.has(String(r[splitKey] ?? '—')));
    drafts.push({
      label: 'Other',
      data: seriesValues(groupBy(rows, chart.x, false), keys, metric, view.columns),
      unit: metric.unit,
      colour: '#BBBBBB',
      stack: 'split',
    });
  }
  return drafts;
}

/**
 * Previous-period series: in a time chart, day i of the previous period is drawn under day i of
 * this one; in a bar chart, each category's previous value comes from the row deltas.
 */
function comparisonSeries(
  view: ReportView,
  chart: ViewChart,
  metrics: readonly ViewColumn[],
  keys: readonly string[],
  isTime: boolean,
): SeriesDraft[] {
  const comparison = view.comparison;
  if (!comparison) return [];
  const suffix = comparison.kind.replaceAll('_', ' ');
  return metrics.flatMap((metric, i): SeriesDraft[] => {
    let data: Array<number | null>;
    if (isTime) {
      if (comparison.previousRows.length === 0) return [];
      const previous = groupBy(comparison.previousRows as PivotRow[], chart.x, true);
      const previousKeys = [...previous.keys()];
      data = seriesValues(previous, previousKeys, metric, view.columns).slice(0, keys.length);
    } else {
      const byKey = new Map<string, number | null>();
      view.rows.forEach((row, r) => {
        byKey.set(String(row[chart.x] ?? ''), comparison.rows[r]?.[metric.key]?.previous ?? null);
      });
      data = keys.map((k) => byKey.get(k) ?? null);
    }
    if (data.every((v) => v === null)) return [];
    return [{ label: `${metric.label} (${suffix})`, data, unit: metric.unit, colour: seriesColour(i), dashed: true }];
  });
}

/** Axis ids by unit, in order of first use: the first unit on the left, the next on the right. */
export function axesByUnit(drafts: readonly SeriesDraft[]): Map<FormatUnit, string> {
  const axes = new Map<FormatUnit, string>();
  for (const d of drafts) {
    if (d.threshold && axes.size > 0 && !axes.has(d.unit)) continue;
    if (!axes.has(d.unit)) axes.set(d.unit, axes.size === 0 ? 'value' : `value${axes.size}`);
  }
  for (const d of drafts) if (!axes.has(d.unit)) axes.set(d.unit, 'value');
  return axes;
}

function assemble(
  chart: ViewChart,
  drafts: readonly SeriesDraft[],
  labels: string[],
  horizontal: boolean,
): AnyChartConfig {
  const axes = axesByUnit(drafts);
  const valueAxis = horizontal ? 'x' : 'y';
  const categoryAxis = horizontal ? 'y' : 'x';
  const stacked = chart.kind === 'stacked_bar';
  const datasets: AnyDataset[] = drafts.map((d) => {
    const axisId = axes.get(d.unit) ?? 'value';
    const axisKey = horizontal ? 'xAxisID' : 'yAxisID';
    const line = chart.kind === 'line' || d.threshold === true;
    const base = { label: d.label, data: d.data, [axisKey]: axisId };
    if (line) {
      const many = d.data.length > 14;
      return {
        ...base,
        type: 'line' as const,
        borderColor: d.dashed ? withAlpha(d.colour, 0.75) : d.colour,
        backgroundColor: d.colour,
        borderWidth: d.threshold ? 2 : 2.5,
        borderDash: d.dashed ? [7, 5] : d.threshold ? [4, 4] : [],
        pointRadius: d.threshold || d.dashed || many ? 0 : 2.5,
        pointHoverRadius: 0,
        // Smoothing is for a handful of points; dense series draw faster and more honestly straight.
        tension: many ? 0 : 0.2,
        spanGaps: false,
        order: d.threshold ? 3 : d.dashed ? 2 : 1,
      };
    }
    return {
      ...base,
      type: 'bar' as const,
      backgroundColor: d.dashed ? withAlpha(d.colour, 0.3) : d.colour,
      borderColor: d.colour,
      borderWidth: d.dashed ? 1.5 : 0,
      borderRadius: stacked ? 0 : 3,
      maxBarThickness: 34,
      ...(d.stack && stacked ? { stack: d.stack } : {}),
      order: d.dashed ? 2 : 1,
    };
  });

  const scales: Record<string, object> = {
    [categoryAxis]: {
      type: 'category',
      stacked,
      grid: { display: false },
      ticks: {
        color: TEXT_COLOUR,
        autoSkip: true,
        maxRotation: 0,
        maxTicksLimit: horizontal ? 30 : 8,
        // Measure a dozen labels, not all 90 of a quarter, to decide how many fit.
        sampleSize: 12,
        font: { size: FONT_SIZES.tick },
      },
    },
  };
  let index = 0;
  for (const [unit, id] of axes) {
    const side = horizontal ? (index === 0 ? 'bottom' : 'top') : index === 0 ? 'left' : 'right';
    const titled = axes.size > 1;
    scales[id] = {
      axis: valueAxis,
      type: 'linear',
      position: side,
      beginAtZero: true,
      stacked,
      grace: '5%',
      grid: { color: GRID_COLOUR, drawOnChartArea: index === 0, drawTicks: false },
      border: { display: false },
      ticks: {
        color: MUTED_TEXT_COLOUR,
        padding: 6,
        maxTicksLimit: 6,
        font: { size: FONT_SIZES.tick },
        callback: (value: number | string) => formatValue(Number(value), unit, { compact: true }),
      },
      title: {
        display: titled,
        text: drafts
          .filter((d) => (axes.get(d.unit) ?? 'value') === id && !d.dashed && !d.threshold)
          .map((d) => d.label)
          .join(', '),
        color: MUTED_TEXT_COLOUR,
        font: { size: FONT_SIZES.tick },
      },
    };
    index++;
  }
  return {
    type: chart.kind === 'line' ? 'line' : 'bar',
    data: { labels, datasets: datasets as AnyChartConfig['data']['datasets'] },
    options: {
      indexAxis: horizontal ? 'y' : 'x',
      devicePixelRatio: PIXEL_RATIO,
      layout: { padding: { top: 4, right: axes.size > 1 && !horizontal ? 8 : 24, bottom: 4, left: 12 } },
      scales,
    } as NonNullable<AnyChartConfig['options']>,
  };
}

function altText(
  view: ReportView,
  chart: ViewChart,
  metrics: readonly ViewColumn[],
  splitKey: string | undefined,
): string {
  const kind = { line: 'Line chart', bar: 'Bar chart', stacked_bar: 'Stacked bar chart', share: 'Share chart' }[
    chart.kind
  ];
  const by = column(view, chart.x)?.label ?? chart.x;
  const split = splitKey ? ` split by ${column(view, splitKey)?.label ?? splitKey}` : '';
  const what = metrics.map((m) => m.label).join(' and ');
  return `${kind} of ${what} by ${by}${split}, ${view.range.label} (${view.range.timezone})`;
}
