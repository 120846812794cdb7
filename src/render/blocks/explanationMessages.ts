/**
 * How an explanation ("why did it move") reads in Slack: the one "because" line a digest carries
 * under its headline KPIs, and the full ranking posted in a thread (a digest's, an alert's, or the
 * answer to `/pivot why` and the Explain button). An explanation that is not sure says so: a
 * diffuse change names no driver, a partial one says how much it explored.
 */
import type { ReportView } from '../../view/index.js';
import type { FormatUnit } from '../format.js';
import { formatValue } from '../format.js';
import { fitMessage } from '../slackLimits.js';
import { imageBlock } from './digestMessage.js';
import { context, escapeMrkdwn, mrkdwn } from './text.js';
import type { Block, ChartImage, SlackMessage } from './types.js';

/** The shape of an explanation this module reads (the explanation engine's output, structurally). */
export interface ExplanationSummary {
  readonly metric: string;
  readonly current: number;
  readonly baseline: number;
  readonly change: number;
  readonly diffuse: boolean;
  readonly queries: number;
  readonly partial: boolean;
  readonly explored?: { readonly dimensions: number; readonly of: number };
  readonly drivers: readonly ExplanationDriver[];
  readonly notes: readonly string[];
}

export interface ExplanationDriver {
  readonly where: Readonly<Record<string, string>>;
  readonly current: number;
  readonly baseline: number;
  readonly contribution: number;
  readonly share: number;
  readonly mix?: number;
  readonly rate?: number;
}

/** One explained KPI: its label and unit as the message shows them. */
export interface ExplainedMetric {
  readonly label: string;
  readonly unit: FormatUnit;
  readonly explanation: ExplanationSummary;
  /** A dimension's label (`countryCode` → `Country`); default: the name as is. */
  readonly labelOf?: (dimension: string) => string;
}

/** Drivers shown in a thread's ranking. */
export const RANKING_DRIVERS = 5;

/** `Country BR · Source Vungle`: a segment as a person reads it. */
export function segmentText(where: Readonly<Record<string, string>>, labelOf?: (dimension: string) => string): string {
  // The engine's order: the dimension it found first, then the ones it drilled into.
  const parts = Object.keys(where).map(
    (dimension) => `${labelOf ? labelOf(dimension) : dimension} ${where[dimension]}`,
  );
  return parts.length > 0 ? parts.join(' · ') : 'everything';
}

/** `−16.5 %`, or the absolute change where the baseline is 0. */
export function changeText(explanation: Pick<ExplanationSummary, 'change' | 'baseline'>, unit: FormatUnit): string {
  if (explanation.baseline !== 0 && Number.isFinite(explanation.baseline)) {
    const percent = (explanation.change / Math.abs(explanation.baseline)) * 100;
    return `${percent > 0 ? '+' : percent < 0 ? '−' : '±'}${Math.abs(percent).toFixed(1)} %`;
  }
  return signedValue(explanation.change, unit);
}

function signedValue(value: number, unit: FormatUnit): string {
  const text = formatValue(Math.abs(value), unit, { compact: true });
  return `${value > 0 ? '+' : value < 0 ? '−' : '±'}${text}`;
}

/**
 * `mix +$0.06, rate +$1.15`; a part that is zero at the data's precision (a float residue such as
 * 2e-17 beside a move of $1.15) is left out rather than shown as a long tail of zeros or as ±0.
 */
function splitParts(mix: number, rate: number, unit: FormatUnit): string {
  const scale = Math.max(Math.abs(mix), Math.abs(rate));
  const parts = [
    ['mix', mix],
    ['rate', rate],
  ] as const;
  return parts
    .filter(([, value]) => Math.abs(value) > scale * 1e-9)
    .map(([name, value]) => `${name} ${signedValue(value, unit)}`)
    .join(', ');
}

function percentShare(share: number): string {
  return `${Math.round(Math.abs(share) * 100)} %`;
}

/**
 * Whether a ratio driver's contribution is mostly mix (volume moved between segments) or rate
 * (the ratio moved within the segment): two thirds of it decides, otherwise both.
 */
export function mixOrRate(driver: ExplanationDriver): 'mix' | 'rate' | 'both' | undefined {
  if (driver.mix === undefined || driver.rate === undefined) return undefined;
  const total = Math.abs(driver.mix) + Math.abs(driver.rate);
  if (total === 0) return undefined;
  if (Math.abs(driver.mix) / total >= 2 / 3) return 'mix';
  if (Math.abs(driver.rate) / total >= 2 / 3) return 'rate';
  return 'both';
}

const KIND_TEXT = {
  mix: 'mix: volume moved to or from this segment',
  rate: 'rate: the ratio moved within this segment',
  both: 'mix and rate',
} as const;

/**
 * The digest's one line for a KPI that moved: its change and the best driver with its share, or
 * "diffuse" with no driver named.
 *
 * @example becauseLine({ label: 'Installs', unit: 'count', explanation }) // 'Installs −16.5 %: Country BR · Platform iOS −38 (72 % of the change)'
 */
export function becauseLine(metric: ExplainedMetric): string {
  const e = metric.explanation;
  const head = `${metric.label} ${changeText(e, metric.unit)}`;
  const partial =
    e.partial && e.explored ? ` (partial: explored ${e.explored.dimensions} of ${e.explored.of} dimensions)` : '';
  const best = e.drivers[0];
  if (e.change === 0) return `${head}: no change to explain`;
  if (e.diffuse || best === undefined) {
    return `${head}: diffuse, no segment stands out from the rest${partial}`;
  }
  const kind = mixOrRate(best);
  const kindText = kind === undefined ? '' : `; ${kind === 'both' ? 'mix and rate' : kind}`;
  return `${head}: ${segmentText(best.where, metric.labelOf)} ${signedValue(best.contribution, metric.unit)} (${percentShare(best.share)} of the change${kindText})${partial}`;
}

/** One driver's line in the ranking. */
function driverLine(rank: number, driver: ExplanationDriver, metric: ExplainedMetric): string {
  const was = `${formatValue(driver.baseline, metric.unit, { compact: true })} → ${formatValue(driver.current, metric.unit, { compact: true })}`;
  const kind = mixOrRate(driver);
  const split =
    driver.mix !== undefined && driver.rate !== undefined
      ? ` · ${splitParts(driver.mix, driver.rate, metric.unit)}${kind ? ` (${KIND_TEXT[kind]})` : ''}`
      : '';
  return `${rank}. *${escapeMrkdwn(segmentText(driver.where, metric.labelOf))}*  ${signedValue(driver.contribution, metric.unit)} (${percentShare(driver.share)} of the change) · ${was}${split}`;
}

/** The ranking of one KPI's drivers as mrkdwn lines, with what the explanation could not say. */
export function rankingText(metric: ExplainedMetric): string {
  const e = metric.explanation;
  const lines = [
    `*${escapeMrkdwn(metric.label)}* ${formatValue(e.baseline, metric.unit)} → ${formatValue(e.current, metric.unit)} (${changeText(e, metric.unit)})`,
  ];
  if (e.diffuse) {
    lines.push(
      '_Diffuse: no small set of segments explains most of this change. The largest pieces are listed, but none of them is the cause._',
    );
  }
  const drivers = e.drivers.slice(0, RANKING_DRIVERS);
  drivers.forEach((d, i) => {
    lines.push(driverLine(i + 1, d, metric));
  });
  if (drivers.length === 0 && !e.diffuse && e.change !== 0) lines.push('_No segment could be named._');
  for (const note of e.notes) lines.push(`_${escapeMrkdwn(note)}_`);
  return lines.join('\n');
}

export interface ExplanationMessageInput {
  /** What was explained: a report's title, or the query. */
  title: string;
  /** `Yesterday (Tue 24 Nov 2026) vs same day last week`. */
  periods: string;
  metrics: readonly ExplainedMetric[];
  /** The contribution chart of the first metric, uploaded. */
  chart?: ChartImage;
}

/**
 * The full explanation posted in a thread: per KPI, its change and ranked drivers (share, mix and
 * rate for ratios), what the engine explored, and a contribution chart.
 *
 * @example explanationMessage({ title: 'Daily KPIs', periods: 'Yesterday vs previous day', metrics: [installs] })
 */
export function explanationMessage(input: ExplanationMessageInput): SlackMessage {
  const blocks: Block[] = [
    { type: 'section', text: mrkdwn(`:mag: *Why it moved:* ${escapeMrkdwn(input.title)}`) },
    context(escapeMrkdwn(input.periods)),
  ];
  for (const metric of input.metrics) blocks.push({ type: 'section', text: mrkdwn(rankingText(metric)) });
  if (input.chart) blocks.push(imageBlock(input.chart));
  const queries = input.metrics.reduce((n, m) => n + m.explanation.queries, 0);
  const partial = input.metrics.find((m) => m.explanation.partial && m.explanation.explored);
  blocks.push(
    context(
      `${queries} ${queries === 1 ? 'query' : 'queries'}` +
        (partial?.explanation.explored
          ? `  ·  partial: explored ${partial.explanation.explored.dimensions} of ${partial.explanation.explored.of} dimensions`
          : '') +
        '  ·  shares are of the whole change; mix = volume moving between segments, rate = the ratio moving within one',
    ),
  );
  // Segment names come from the data: escaped in the notification text as in the blocks.
  const text = escapeMrkdwn(`Why it moved: ${input.title}. ${input.metrics.map((m) => becauseLine(m)).join(' ')}`);
  return fitMessage({ text, blocks }).message;
}

/**
 * The contribution chart of one explained KPI as a view the chart renderer draws: one bar per
 * driver, its signed contribution to the change (bars below zero pulled the KPI down).
 *
 * @example const png = await charts.renderView(explanationChartView(metric, { title: 'Daily KPIs', timezone: 'UTC' }));
 */
export function explanationChartView(
  metric: ExplainedMetric,
  context: { title: string; timezone: string; reportId?: string; generatedAt?: string },
): ReportView {
  const drivers = metric.explanation.drivers.slice(0, RANKING_DRIVERS);
  const rows = drivers.map((d) => ({ segment: segmentText(d.where, metric.labelOf), contribution: d.contribution }));
  const title = `${metric.label}: contribution to the change`;
  return {
    reportId: `${context.reportId ?? 'explain'}-why`,
    title,
    range: { from: '', to: '', label: title, timezone: context.timezone },
    columns: [
      {
        key: 'segment',
        name: 'segment',
        kind: 'dimension',
        args: {},
        label: 'Segment',
        unit: 'text',
        polarity: 'neutral',
      },
      {
        key: 'contribution',
        name: 'contribution',
        kind: 'metric',
        args: {},
        label: `Contribution to ${metric.label}`,
        unit: metric.unit,
        polarity: 'neutral',
      },
    ],
    rows,
    totalRowCount: rows.length,
    headline: [],
    chart: { kind: 'bar', x: 'segment', series: ['contribution'], title },
    mode: 'sync',
    warnings: [],
    generatedAt: context.generatedAt ?? new Date(0).toISOString(),
  };
}
