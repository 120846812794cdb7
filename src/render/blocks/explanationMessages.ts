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
  /** The drivers are moves that cancel out (US +501 offset by BR −500). */
  readonly offset?: boolean;
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

/**
 * An explanation in the explanation engine's words, as plain text (made outside render, by the
 * engine's word helpers: the CLI and Slack say the same). Data names in it are not escaped yet.
 */
export interface ExplanationWords {
  /** One per driver, in the explanation's order. */
  readonly drivers: readonly DriverText[];
  /** Moves that cancel out: `no net change: Country code US +501 offset by Country code BR −500`. */
  readonly offset?: string;
  /** A diffuse change, before its pieces: `diffuse — no segment stands out; largest pieces`. */
  readonly diffuse?: string;
  /** What the explanation could not say (too little volume, a partial search…), in words. */
  readonly notes: readonly string[];
}

export interface DriverText {
  /** `Country code BR · Source (empty)`. */
  readonly segment: string;
  /** Its contribution, signed: `+$1.49`, `−415`. */
  readonly amount: string;
  /** `90 %`, `<1 %`. */
  readonly share: string;
  /** A ratio driver's mechanism: `more of the installs came from BR (10 % → 35 %), where CPI is $10 against $3.4 elsewhere`. */
  readonly mechanism?: string;
  /** What follows the KPI's move when this driver leads (mechanism, amount and share). */
  readonly lead: string;
}

/** One explained KPI: its label and unit as the message shows them, and what it says in words. */
export interface ExplainedMetric {
  readonly label: string;
  readonly unit: FormatUnit;
  readonly explanation: ExplanationSummary;
  readonly words: ExplanationWords;
}

/** Drivers shown in a thread's ranking. */
export const RANKING_DRIVERS = 5;

/** Pieces of a diffuse change named in a digest's one line. */
export const BECAUSE_PIECES = 3;

/** `−16.5 %`, or the absolute change where the baseline is 0. */
export function changeText(explanation: Pick<ExplanationSummary, 'change' | 'baseline'>, unit: FormatUnit): string {
  if (explanation.baseline !== 0 && Number.isFinite(explanation.baseline)) {
    const percent = (explanation.change / Math.abs(explanation.baseline)) * 100;
    return `${percent > 0 ? '+' : percent < 0 ? '−' : '±'}${Math.abs(percent).toFixed(1)} %`;
  }
  return signedValue(explanation.change, unit);
}

/**
 * A signed value in its unit, compact: `+$1.2K`, `−415`. `±` only for an exact 0: a small non-zero
 * value that the unit's format would round to 0 keeps two significant digits (`+0.000042`).
 */
export function signedValue(value: number, unit: FormatUnit): string {
  let text = formatValue(Math.abs(value), unit, { compact: true });
  if (value !== 0 && !/[1-9]/.test(text)) {
    const digits = Number(Math.abs(value).toPrecision(2)).toString();
    text = unit === 'currency' ? `$${digits}` : digits;
  }
  return `${value > 0 ? '+' : value < 0 ? '−' : '±'}${text}`;
}

/**
 * `mix +$0.06, rate +$1.15`, for a ratio driver the engine gave no mechanism; a part that is zero at
 * the data's precision (a float residue such as 2e-17 beside a move of $1.15) is left out.
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

/** The words of the i-th driver (`words.drivers` runs alongside `explanation.drivers`). */
function wordsOf(metric: ExplainedMetric, i: number): DriverText | undefined {
  return metric.words.drivers[i];
}

/** `A +1 (30 %), B +0.5 (12 %)`: a diffuse change's pieces, none named as a cause. */
function piecesText(metric: ExplainedMetric, count: number): string {
  return metric.words.drivers
    .slice(0, count)
    .map((d) => `${d.segment} ${d.amount} (${d.share})`)
    .join(', ');
}

/**
 * The digest's one line for a KPI that moved: its change and what led it, in the engine's words (a
 * ratio's mechanism first); moves that cancel out; or "diffuse" with its largest pieces, none named
 * as a cause.
 *
 * @example becauseLine(installs) // 'Installs −16.5 %: Country code BR · App platform IOS −16.6 (72 % of the change)'
 */
export function becauseLine(metric: ExplainedMetric): string {
  const e = metric.explanation;
  const head = `${metric.label} ${changeText(e, metric.unit)}`;
  const partial =
    e.partial && e.explored ? ` (partial: explored ${e.explored.dimensions} of ${e.explored.of} dimensions)` : '';
  if (e.offset === true && metric.words.offset !== undefined) return `${head}: ${metric.words.offset}${partial}`;
  if (e.change === 0) return `${head}: no change to explain`;
  if (e.diffuse) {
    const pieces = piecesText(metric, BECAUSE_PIECES);
    return `${head}: ${metric.words.diffuse ?? 'diffuse'}${pieces === '' ? '' : `: ${pieces}`}${partial}`;
  }
  const best = wordsOf(metric, 0);
  if (best === undefined) return `${head}: ${metric.words.notes[0] ?? 'no segment could be named'}${partial}`;
  return `${head}: ${best.lead}${partial}`;
}

/** `Diffuse — …`: a sentence's first letter raised. */
const capital = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/** One driver's line in the ranking: its segment, amount and share, then its mechanism or its values. */
function driverLine(rank: number, driver: ExplanationDriver, words: DriverText, unit: FormatUnit): string {
  const head = `${rank}. *${escapeMrkdwn(words.segment)}*  ${words.amount} (${words.share} of the change)`;
  if (words.mechanism !== undefined) return `${head}: ${escapeMrkdwn(words.mechanism)}`;
  const was = `${formatValue(driver.baseline, unit, { compact: true })} → ${formatValue(driver.current, unit, { compact: true })}`;
  const split =
    driver.mix !== undefined && driver.rate !== undefined ? ` · ${splitParts(driver.mix, driver.rate, unit)}` : '';
  return `${head} · ${was}${split}`;
}

/**
 * The ranking of one KPI's drivers as mrkdwn lines, with what the explanation could not say: a
 * diffuse change lists its largest pieces as pieces, moves that cancel out are said so.
 */
export function rankingText(metric: ExplainedMetric): string {
  const e = metric.explanation;
  const lines = [
    `*${escapeMrkdwn(metric.label)}* ${formatValue(e.baseline, metric.unit)} → ${formatValue(e.current, metric.unit)} (${changeText(e, metric.unit)})`,
  ];
  const drivers = e.drivers.slice(0, RANKING_DRIVERS);
  const value = (x: number) => formatValue(x, metric.unit);
  if (e.offset === true && metric.words.offset !== undefined) {
    lines.push(`_${escapeMrkdwn(capital(metric.words.offset))}._`);
    drivers.forEach((d, i) => {
      const w = wordsOf(metric, i);
      if (w) lines.push(`• *${escapeMrkdwn(w.segment)}*  ${w.amount} (${value(d.baseline)} → ${value(d.current)})`);
    });
  } else if (e.diffuse) {
    lines.push(`_${escapeMrkdwn(capital(metric.words.diffuse ?? 'diffuse'))}${drivers.length > 0 ? ':' : '.'}_`);
    drivers.forEach((_, i) => {
      const w = wordsOf(metric, i);
      if (w) lines.push(`• *${escapeMrkdwn(w.segment)}*  ${w.amount} (${w.share} of the change)`);
    });
  } else {
    drivers.forEach((d, i) => {
      const w = wordsOf(metric, i);
      if (w) lines.push(driverLine(i + 1, d, w, metric.unit));
    });
    if (drivers.length === 0 && e.change !== 0) lines.push('_No segment could be named._');
  }
  for (const note of metric.words.notes) lines.push(`_${escapeMrkdwn(note)}_`);
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
 * rate in words for ratios), what the engine explored, and a contribution chart.
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
        '  ·  shares are of the whole change',
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
  const rows = drivers.map((d, i) => ({
    segment: metric.words.drivers[i]?.segment ?? Object.values(d.where).join(' · '),
    contribution: d.contribution,
  }));
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
