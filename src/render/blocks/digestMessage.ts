/**
 * The digest: what a scheduled report posts. Header; headline KPIs with value, delta and an arrow
 * coloured by polarity; a context line with range, time zone and filters; the chart; a top-N
 * table; warnings; buttons to re-run, change the range or get the CSV.
 */
import type { CellValue } from '../../reporting/index.js';
import type { ReportView, ViewColumn } from '../../view/index.js';
import { formatTime, formatValue, NULL_TEXT } from '../format.js';
import { fitMessage, SLACK_LIMITS } from '../slackLimits.js';
import { ACTION_IDS, RANGE_BUTTONS, type ReportActionValue } from './actionIds.js';
import { type PacingFigures, pacingLine } from './pacingLine.js';
import { postbackSection } from './postbacks.js';
import { buildTable, type TableStyle } from './table.js';
import { button, context, deltaText, escapeMrkdwn, mrkdwn, plain } from './text.js';
import type { ActionsBlock, Block, ChartImage, ImageBlock, SectionBlock, SlackMessage } from './types.js';

export interface DigestOptions {
  /** The chart, uploaded or at a URL; omitted when the report has none. */
  chart?: ChartImage;
  /** Table rows to show (default 10). */
  tableRows?: number;
  tableStyle?: TableStyle;
  /** The share chart of postbackShare distributions, when the main chart is another kind. */
  shareChart?: ChartImage;
  /** Name of the CSV file with the full result, for the footer and the truncation note. */
  csvName?: string;
  /** Leave out the buttons (e.g. for a preview outside Slack). */
  buttons?: boolean;
  /**
   * Marks a digest posted after its time (caught up after downtime), in the message and in its
   * notification text: `Late: the digest due Mon 09:00 America/Sao_Paulo, posted 09:47`.
   */
  lateNote?: string;
  /** What the reader must know about this digest: "chart unavailable", "data may be incomplete". */
  notices?: readonly string[];
  /** One "because" line per headline KPI that moved (see `becauseLine`), shown under the KPIs. */
  because?: readonly string[];
  /** Budget pacing of the current month (a report with a plan for it): one line under the KPIs. */
  pacing?: PacingFigures;
}

export function imageBlock(chart: ChartImage): ImageBlock {
  const base = { type: 'image' as const, alt_text: chart.alt, ...(chart.title ? { title: plain(chart.title) } : {}) };
  return 'slackFileId' in chart
    ? { ...base, slack_file: { id: chart.slackFileId } }
    : { ...base, image_url: chart.url };
}

function headlineValue(view: ReportView, column: ViewColumn): CellValue | undefined {
  if (view.totals && column.key in view.totals) return view.totals[column.key];
  return view.rows.length === 1 ? view.rows[0]?.[column.key] : undefined;
}

/** The headline KPIs as section fields (at most 10): label, value, coloured delta. */
export function headlineFields(view: ReportView): { block: SectionBlock | null; cut: number } {
  const columns = view.headline
    .map((k) => view.columns.find((c) => c.key === k))
    .filter((c): c is ViewColumn => c !== undefined);
  const shown = columns.slice(0, SLACK_LIMITS.sectionFields);
  if (shown.length === 0) return { block: null, cut: 0 };
  const fields = shown.map((c) => {
    const value = formatValue(headlineValue(view, c), c.unit);
    const lines = [`*${escapeMrkdwn(c.label)}*`, value];
    const delta = view.comparison?.totals[c.key];
    if (view.comparison && delta) {
      const previous =
        delta?.previous === null || delta?.previous === undefined
          ? NULL_TEXT
          : formatValue(delta.previous, c.unit, { compact: true });
      lines.push(`${deltaText(delta, c.unit, c.polarity)}  _was ${previous}_`);
    }
    return mrkdwn(lines.join('\n'));
  });
  return { block: { type: 'section', fields }, cut: columns.length - shown.length };
}

/** Range, time zone, comparison, filters and owner, as one context line. */
export function contextLine(view: ReportView): string {
  const parts = [`:calendar: ${escapeMrkdwn(view.range.label)}`, escapeMrkdwn(view.range.timezone)];
  if (view.comparison) parts.push(escapeMrkdwn(view.comparison.label));
  if (view.filtersText) parts.push(escapeMrkdwn(view.filtersText));
  if (view.owner) parts.push(`owner ${escapeMrkdwn(view.owner)}`);
  return parts.join('  ·  ');
}

export function reportButtons(view: ReportView, csv: boolean): ActionsBlock {
  const id = view.reportId;
  return {
    type: 'actions',
    block_id: `pivot_actions:${id}`.slice(0, 255),
    elements: [
      button('Re-run', ACTION_IDS.rerun, { reportId: id } satisfies ReportActionValue, 'primary'),
      ...RANGE_BUTTONS.map(([range, label]) =>
        button(label, `${ACTION_IDS.rangePrefix}${range}`, { reportId: id, range } satisfies ReportActionValue),
      ),
      ...(csv ? [button('Download CSV', ACTION_IDS.csv, { reportId: id } satisfies ReportActionValue)] : []),
      // Every answer with a comparison can say why it moved.
      ...(view.comparison ? [button('Explain', ACTION_IDS.explain, { reportId: id } satisfies ReportActionValue)] : []),
    ],
  };
}

/** "Top 10 of 42 rows" above the table, when top-N or the table limit cut rows. */
function tableCaption(view: ReportView, shown: number): string {
  const total = Math.max(view.totalRowCount, view.rows.length);
  return shown < total ? `*Top ${shown} of ${total.toLocaleString('en-US')} rows*` : `*All ${total} rows*`;
}

/** The "because" lines' block (one context element each, up to Slack's limit); undefined for none. */
function becauseBlock(lines: readonly string[]): Block | undefined {
  const because = lines.slice(0, SLACK_LIMITS.contextElements);
  return because.length > 0 ? context(...because.map((line) => `:mag: ${escapeMrkdwn(line)}`)) : undefined;
}

/**
 * A posted digest's blocks (as Slack gives them back) with its "because" lines added where
 * `digestMessage` puts them: after the headline KPIs and the pacing line, before the chart. For a
 * digest posted before its explanation (`chat.update` of the message). An image block showing an
 * uploaded file keeps only what a post sends (Slack adds its URL and size when it gives it back).
 *
 * @example slack.update(channel, ts, { text, blocks: withBecause(posted.blocks, because) })
 */
export function withBecause(posted: readonly unknown[], because: readonly string[]): Block[] {
  const blocks = posted.map((b) => sentForm(b as Block));
  const added = becauseBlock(because);
  if (!added) return blocks;
  const headline = blocks.findIndex((b) => b.type === 'section' && Array.isArray((b as { fields?: unknown }).fields));
  if (headline < 0) return blocks;
  let at = headline + 1;
  const next = blocks[at] as { type?: string; elements?: Array<{ text?: unknown }> } | undefined;
  if (next?.type === 'context' && String(next.elements?.[0]?.text ?? '').startsWith(':dart:')) at++;
  return [...blocks.slice(0, at), added, ...blocks.slice(at)];
}

/** An image block of an uploaded file as a post sends it; any other block as it is. */
function sentForm(block: Block): Block {
  const image = block as {
    type?: string;
    slack_file?: unknown;
    alt_text?: unknown;
    title?: unknown;
    block_id?: unknown;
  };
  if (image.type !== 'image' || image.slack_file === undefined) return block;
  return {
    type: 'image',
    slack_file: image.slack_file,
    alt_text: image.alt_text,
    ...(image.title !== undefined ? { title: image.title } : {}),
    ...(image.block_id !== undefined ? { block_id: image.block_id } : {}),
  } as Block;
}

/** Body blocks shared by the digest and the ad-hoc result. */
export function resultBlocks(view: ReportView, options: DigestOptions, cuts: string[]): Block[] {
  const blocks: Block[] = [];
  const headline = headlineFields(view);
  if (headline.block) blocks.push(headline.block);
  if (headline.cut > 0) cuts.push(`${headline.cut} headline KPIs beyond ${SLACK_LIMITS.sectionFields}`);
  if (options.pacing) blocks.push(context(`:dart: ${escapeMrkdwn(pacingLine(options.pacing))}`));
  const because = becauseBlock(options.because ?? []);
  if (because) blocks.push(because);
  if (options.chart) blocks.push(imageBlock(options.chart));
  if (view.rows.length > 0 && view.columns.length > 0) {
    const table = buildTable(view, { maxRows: options.tableRows ?? 10, style: options.tableStyle ?? 'table' });
    blocks.push({ type: 'section', text: mrkdwn(tableCaption(view, table.rowsShown)) }, table.block);
    cuts.push(...table.cuts);
  } else if (!view.postbacks?.length) {
    blocks.push({ type: 'section', text: mrkdwn('_No rows for this range and these filters._') });
  }
  const postbacks = postbackSection(view);
  if (postbacks) blocks.push(postbacks);
  if (options.shareChart) blocks.push(imageBlock(options.shareChart));
  const warnings = view.warnings.slice(0, SLACK_LIMITS.contextElements);
  if (warnings.length > 0) blocks.push(context(...warnings.map((w) => `:warning: ${escapeMrkdwn(w)}`)));
  if (view.warnings.length > SLACK_LIMITS.contextElements)
    cuts.push(`${view.warnings.length - SLACK_LIMITS.contextElements} warnings`);
  return blocks;
}

export function footer(view: ReportView, csvName: string | undefined): string {
  const at = formatTime(view.generatedAt.replace(/Z$/, ''));
  const parts = [`Generated ${at} UTC`, view.mode === 'async' ? 'async job' : 'live query'];
  if (csvName) parts.push(`full result: \`${escapeMrkdwn(csvName)}\``);
  return parts.join('  ·  ');
}

/**
 * The digest message of a report run, fitted to Slack's limits.
 *
 * @example const msg = digestMessage(view, { chart: { url: 'daily-kpi.png', alt: spec.alt }, csvName: 'daily-kpi.csv' });
 */
export function digestMessage(view: ReportView, options: DigestOptions = {}): SlackMessage {
  const cuts: string[] = [];
  const csvName = options.csvName ?? (view.csvPath ? view.csvPath.split(/[\\/]/).pop() : undefined);
  const blocks: Block[] = [{ type: 'header', text: plain(view.title) }];
  if (options.lateNote) blocks.push(context(`:stopwatch: ${escapeMrkdwn(options.lateNote)}`));
  for (const notice of options.notices ?? []) blocks.push(context(`:warning: ${escapeMrkdwn(notice)}`));
  if (view.description) blocks.push(context(escapeMrkdwn(view.description)));
  blocks.push(context(contextLine(view)));
  blocks.push(...resultBlocks(view, options, cuts));
  blocks.push(context(footer(view, csvName)));
  if (options.buttons !== false) blocks.push(reportButtons(view, csvName !== undefined));
  const text = options.lateNote ? `${escapeMrkdwn(options.lateNote)}. ${fallbackText(view)}` : fallbackText(view);
  return fitMessage({ text, blocks }, { cuts, ...(csvName ? { csvName } : {}) }).message;
}

/** The notification text: title, range and the headline numbers with their changes, escaped (it is mrkdwn). */
export function fallbackText(view: ReportView): string {
  const kpis = view.headline.slice(0, 4).flatMap((k) => {
    const c = view.columns.find((col) => col.key === k);
    if (!c) return [];
    const delta = view.comparison?.totals[k]?.percent;
    const change =
      delta === null || delta === undefined ? '' : ` (${delta >= 0 ? '+' : ''}${(delta * 100).toFixed(1)}%)`;
    return [`${c.label} ${formatValue(headlineValue(view, c), c.unit, { compact: true })}${change}`];
  });
  return escapeMrkdwn(`${view.title} · ${view.range.label}${kpis.length ? `: ${kpis.join(', ')}` : ''}`);
}
