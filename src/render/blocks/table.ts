/**
 * A ReportView's rows as a Slack table block (where it fits) or as a monospace code block (the
 * fallback), with cells formatted by unit and a Δ column for the lead metric when there is a
 * comparison.
 */
import type { ReportView, ViewColumn } from '../../view/index.js';
import { formatDelta, formatValue } from '../format.js';
import { SLACK_LIMITS } from '../slackLimits.js';
import { type Align, monospaceTable } from './monospace.js';
import type { Block, TableBlock } from './types.js';

export type TableStyle = 'table' | 'monospace';

export interface TableOptions {
  /** `table` (Slack's table block, the default) or `monospace` (a code block). */
  style?: TableStyle;
  /** Body rows to show at most (the report's top-N already applies). */
  maxRows?: number;
  /** Characters the monospace fallback may use (a section holds 3,000). */
  maxChars?: number;
}

export interface BuiltTable {
  block: Block;
  rowsShown: number;
  columnsShown: number;
  /** What did not fit, for the truncation note. */
  cuts: string[];
}

/** The metric whose change gets a Δ column: the first headline metric among the columns. */
function deltaColumn(view: ReportView): ViewColumn | undefined {
  if (!view.comparison || view.comparison.rows.length === 0) return undefined;
  return view.headline.map((k) => view.columns.find((c) => c.key === k)).find((c) => c?.kind === 'metric');
}

/**
 * Header and formatted cells of the first `limit` rows (all by default). A message shows a few
 * rows of results that can hold tens of thousands: formatting only those keeps a large result
 * from blocking the event loop.
 */
export function tableCells(
  view: ReportView,
  limit = Number.POSITIVE_INFINITY,
): { header: string[]; rows: string[][]; align: Align[] } {
  const columns = view.columns;
  const delta = deltaColumn(view);
  const header = columns.map((c) => c.label);
  const align: Align[] = columns.map((c) => (c.kind === 'metric' ? 'right' : 'left'));
  if (delta) {
    header.push(`${delta.label} Δ`);
    align.push('right');
  }
  const rows = view.rows.slice(0, limit).map((row, i) => {
    const cells = columns.map((c) => formatValue(row[c.key], c.unit));
    if (delta) cells.push(formatDelta(view.comparison?.rows[i]?.[delta.key], delta.unit));
    return cells;
  });
  return { header, rows, align };
}

/**
 * The table of a report: Slack's table block by default (at most 99 body rows and 20 columns),
 * or a monospace code block that fits one section.
 *
 * @example const { block, cuts } = buildTable(view, { maxRows: 10 });
 */
export function buildTable(view: ReportView, options: TableOptions = {}): BuiltTable {
  const cuts: string[] = [];
  const maxBody = Math.min(options.maxRows ?? Number.POSITIVE_INFINITY, SLACK_LIMITS.tableRows - 1);
  const { header, rows: body, align } = tableCells(view, maxBody);
  if (view.rows.length > body.length && options.maxRows === undefined) cuts.push(`rows beyond ${body.length}`);
  const width = Math.min(header.length, SLACK_LIMITS.tableCells);
  if (header.length > width) cuts.push(`${header.length - width} columns`);
  const clip = (cells: string[]) => cells.slice(0, width);

  if ((options.style ?? 'table') === 'monospace') {
    const table = monospaceTable(
      [clip(header), ...body.map(clip)],
      align.slice(0, width),
      options.maxChars ?? SLACK_LIMITS.sectionText,
    );
    if (table.rowsShown < body.length) cuts.push(`rows beyond ${table.rowsShown}`);
    return {
      block: { type: 'section', text: { type: 'mrkdwn', text: table.text } },
      rowsShown: table.rowsShown,
      columnsShown: width,
      cuts,
    };
  }
  const cell = (text: string) => ({ type: 'raw_text' as const, text: text === '' ? ' ' : text });
  const block: TableBlock = {
    type: 'table',
    column_settings: align.slice(0, width).map((a, i) => (i === 0 ? { align: a, is_wrapped: true } : { align: a })),
    rows: [clip(header).map(cell), ...body.map((r) => clip(r).map(cell))],
  };
  return { block, rowsShown: body.length, columnsShown: width, cuts };
}
