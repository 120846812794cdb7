/** Chart sizes, the title block and legend shared by every chart kind, and the spec type a renderer takes. */
import type { ChartConfiguration } from 'chart.js';
import type { ReportView } from '../view/index.js';
import { MUTED_TEXT_COLOUR, TEXT_COLOUR } from './palette.js';

/** Logical size of a digest chart; rendered at 2× for retina screens. Big type for phones. */
export const CHART_WIDTH = 520;
/**
 * Type sizes in logical pixels. Slack on a phone shows a chart about 350 px wide, so a 520-wide
 * chart is scaled by about 2/3: 13 px ticks still read as 9 px there.
 */
export const FONT_SIZES = { tick: 13, legend: 13, title: 18, subtitle: 13 } as const;
export const CHART_HEIGHTS = [240, 360, 480, 640] as const;
/** Time charts are always this tall, so a week and a quarter read alike. */
export const LINE_HEIGHT = 360;
export const PIXEL_RATIO = 2;
export type AnyChartConfig = ChartConfiguration<'line' | 'bar'>;

/** What `ChartRenderer` needs: the config, the logical size, and alt text for Slack. */
export interface ChartSpec {
  config: AnyChartConfig;
  width: number;
  height: number;
  /** Describes the chart in words for screen readers and Slack's `alt_text`. */
  alt: string;
}

/** Picks a height bucket so each bar gets room for a readable label; few sizes keep few renderers. */
export function heightFor(categories: number): number {
  const wanted = 90 + Math.ceil(categories * 28);
  return CHART_HEIGHTS.find((h) => h >= wanted) ?? (CHART_HEIGHTS[CHART_HEIGHTS.length - 1] as number);
}

/** The subtitle lines: range and time zone, then what the dashed series (or pale bars) mean. */
export function chartSubtitle(view: ReportView, compared: boolean, how = 'dashed', prefix = ''): string[] {
  const lines = [`${prefix}${view.range.label} · ${view.range.timezone}`];
  if (compared && view.comparison) lines.push(`${how}: ${view.comparison.label.replace(/^vs /, '')}`);
  return lines;
}

/** Titles longer than this are cut: Chart.js squeezes, rather than wraps, a line that does not fit. */
export const TITLE_MAX = 44;

/** Room around the plot so edge labels are never clipped. */
export const CHART_PADDING = { top: 4, right: 24, bottom: 4, left: 12 };

/** Title, subtitle and legend settings shared by every chart kind. */
export function titlePlugins(
  title: string,
  subtitle: string | string[],
  lineLegend = false,
): NonNullable<NonNullable<AnyChartConfig['options']>['plugins']> {
  return {
    title: {
      display: true,
      text: title,
      align: 'start',
      color: TEXT_COLOUR,
      font: { size: FONT_SIZES.title, weight: 'bold' },
      padding: { top: 6, bottom: 2 },
    },
    subtitle: {
      display: true,
      text: subtitle,
      align: 'start',
      color: MUTED_TEXT_COLOUR,
      font: { size: FONT_SIZES.subtitle },
      padding: { bottom: 10 },
    },
    legend: {
      display: true,
      position: 'bottom',
      align: 'start',
      labels: {
        color: TEXT_COLOUR,
        font: { size: FONT_SIZES.legend },
        boxWidth: 14,
        boxHeight: lineLegend ? 3 : 10,
        padding: 12,
      },
    },
    tooltip: { enabled: false },
  };
}
