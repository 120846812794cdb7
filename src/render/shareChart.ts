/**
 * The share chart of a postbackShare report: how the values of each postback key split. One key
 * reads best as bars of its values by share; several keys as one 100 % stacked bar each.
 */
import type { PostbackShareKey } from '../reporting/index.js';
import type { ReportView } from '../view/index.js';
import {
  type AnyChartConfig,
  CHART_PADDING,
  CHART_WIDTH,
  type ChartSpec,
  chartSubtitle,
  FONT_SIZES,
  heightFor,
  PIXEL_RATIO,
  titlePlugins,
} from './chartStyle.js';
import { distinctLabels } from './distinctLabels.js';
import { toNumber } from './format.js';
import { GRID_COLOUR, MUTED_TEXT_COLOUR, seriesColour, TEXT_COLOUR } from './palette.js';

/** Values shown per key before the rest become "Other". */
export const MAX_SHARE_VALUES = 7;

/** Each value's share of its key in percent (0..100), from counts where present, else percentages. */
export function sharesOf(key: PostbackShareKey): Array<{ value: string; share: number }> {
  const counts = key.results.map((r) => toNumber(r.count));
  const total = toNumber(key.totalCount) ?? counts.reduce<number>((a, b) => a + (b ?? 0), 0);
  const percentages = key.results.map((r) => r.percentage ?? 0);
  // The spec does not say whether percentage is 0..1 or 0..100; a sum above 1.5 means 0..100.
  const scale = percentages.reduce((a, b) => a + b, 0) > 1.5 ? 1 : 100;
  return key.results
    .map((r, i) => {
      const count = counts[i];
      const share =
        count !== null && count !== undefined && total > 0 ? (count / total) * 100 : (r.percentage ?? 0) * scale;
      return { value: r.value ?? '(none)', share };
    })
    .sort((a, b) => b.share - a.share);
}

const percentTick = (value: number | string): string => `${Math.round(Number(value))}%`;

export function buildShareChart(view: ReportView, title: string): ChartSpec | null {
  const keys = chartablePostbackKeys(view);
  if (keys.length === 0) return null;
  const subtitle = chartSubtitle(view, false);
  const valueScale = {
    type: 'linear' as const,
    beginAtZero: true,
    grid: { color: GRID_COLOUR },
    border: { display: false },
    ticks: { color: MUTED_TEXT_COLOUR, font: { size: FONT_SIZES.tick }, callback: percentTick },
  };
  const categoryScale = {
    type: 'category' as const,
    grid: { display: false },
    ticks: { color: TEXT_COLOUR, font: { size: FONT_SIZES.tick } },
  };
  if (keys.length === 1) {
    const key = keys[0] as PostbackShareKey;
    const shares = sharesOf(key).slice(0, 12);
    const config: AnyChartConfig = {
      type: 'bar',
      data: {
        labels: distinctLabels(shares.map((s) => s.value)),
        datasets: [
          {
            label: `Share of ${key.postbackKey ?? 'postbacks'}`,
            data: shares.map((s) => s.share),
            backgroundColor: seriesColour(0),
            borderRadius: 3,
            maxBarThickness: 30,
          },
        ],
      },
      options: {
        indexAxis: 'y',
        devicePixelRatio: PIXEL_RATIO,
        layout: { padding: CHART_PADDING },
        scales: { x: valueScale, y: categoryScale },
        plugins: { ...titlePlugins(title, subtitle), legend: { display: false } },
      },
    };
    return {
      config,
      width: CHART_WIDTH,
      height: heightFor(shares.length),
      alt: `Bar chart of the share of each ${key.postbackKey ?? 'postback'} value, ${view.range.label} (${view.range.timezone})`,
    };
  }
  const perKey = keys.map((k) => sharesOf(k));
  const overall = new Map<string, number>();
  for (const shares of perKey) for (const s of shares) overall.set(s.value, (overall.get(s.value) ?? 0) + s.share);
  const ordered = [...overall.entries()].sort((a, b) => b[1] - a[1]).map(([v]) => v);
  const shown = ordered.length > MAX_SHARE_VALUES ? ordered.slice(0, MAX_SHARE_VALUES - 1) : ordered;
  const names = distinctLabels(shown);
  const datasets = shown.map((value, i) => ({
    label: names[i] as string,
    data: perKey.map((shares) => shares.find((s) => s.value === value)?.share ?? 0),
    backgroundColor: seriesColour(i),
    borderColor: '#FFFFFF',
    borderWidth: 1,
    stack: 'share',
  }));
  if (shown.length < ordered.length) {
    const kept = new Set(shown);
    datasets.push({
      label: 'Other',
      data: perKey.map((shares) => shares.filter((s) => !kept.has(s.value)).reduce((a, s) => a + s.share, 0)),
      backgroundColor: '#BBBBBB',
      borderColor: '#FFFFFF',
      borderWidth: 1,
      stack: 'share',
    });
  }
  const config: AnyChartConfig = {
    type: 'bar',
    data: { labels: distinctLabels(keys.map((k) => k.postbackKey ?? '(none)')), datasets },
    options: {
      indexAxis: 'y',
      devicePixelRatio: PIXEL_RATIO,
      layout: { padding: CHART_PADDING },
      scales: { x: { ...valueScale, stacked: true, max: 100 }, y: { ...categoryScale, stacked: true } },
      plugins: titlePlugins(title, subtitle),
    },
  };
  return {
    config,
    width: CHART_WIDTH,
    height: heightFor(keys.length + 3),
    alt: `Stacked bar chart of postback value shares for ${keys.map((k) => k.postbackKey).join(', ')}, ${view.range.label} (${view.range.timezone})`,
  };
}

/** The postback keys a share chart draws: those with at least one value. */
export function chartablePostbackKeys(view: ReportView): NonNullable<ReportView['postbacks']> {
  return (view.postbacks ?? []).filter((k) => k.results.length > 0);
}
