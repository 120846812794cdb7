/**
 * Slack's Block Kit limits and the functions that enforce them: `fitText` cuts one text without
 * splitting a mention, link or emoji shortcode; every builder passes its message through
 * `fitMessage`, and whatever is cut is said in the message, with a pointer to the CSV that holds
 * the full result. Limits: https://docs.slack.dev/reference/block-kit/blocks.
 */
import { type Align, monospaceTable } from './blocks/monospace.js';
import type { Block, ContextBlock, SlackMessage, TableBlock } from './blocks/types.js';

export const SLACK_LIMITS = {
  blocksPerMessage: 50,
  sectionText: 3000,
  sectionFields: 10,
  fieldText: 2000,
  headerText: 150,
  contextElements: 10,
  contextText: 3000,
  actionsElements: 25,
  buttonText: 75,
  buttonValue: 2000,
  imageAltText: 2000,
  /** Rows of a table block, its header row included. */
  tableRows: 100,
  tableCells: 20,
  /** Slack rejects a second table block in one message. */
  tablesPerMessage: 1,
  /** Slack answers `msg_blocks_too_long` from about 13.2k characters of blocks (bolt-js #2509). */
  blockCharacters: 12_000,
  /** Notification text; Slack truncates message text past 40k, but a notification needs far less. */
  fallbackText: 3000,
  /** A select option's text and its description. */
  optionText: 75,
  optionDescription: 75,
  /** Labels, hints and placeholders of a modal's inputs: the placeholder's 150, the tightest of them. */
  modalPlainText: 150,
  /** An error shown under a modal's input: pivotbot keeps it to one short line. */
  inputError: 150,
} as const;

/**
 * What may not be cut in half: a mention, channel link, special mention or link (`<@U1>`,
 * `<#C1|ua-daily>`, `<!here>`, `<https://…|label>`), an emoji shortcode (`:warning:`) and an HTML
 * entity (`&lt;`, which `escapeMrkdwn` writes for a literal `<`).
 */
const UNCUTTABLE = /<[^<>]*>|&(?:amp|lt|gt);/g;
/** Shortcodes may overlap (`10:30:warning:`), so they are found at every colon. */
const SHORTCODE = /(?=(:[a-z0-9_+'-]+:))/gi;

/**
 * Cuts text to at most `max` characters (UTF-16 code units, what Slack counts), ending in `…`
 * when cut. The cut never falls inside a mention, link, emoji shortcode, entity or surrogate
 * pair: it moves back to before it. Every text Slack limits goes through here.
 *
 * @example fitText('Alert for <#C123|ua-daily> :rotating_light:', 20) // 'Alert for…'
 */
export function fitText(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max < 1) return '';
  let end = max - 1;
  const spans: Array<[start: number, stop: number]> = [];
  for (const m of text.matchAll(UNCUTTABLE)) {
    if (m.index >= end) break;
    spans.push([m.index, m.index + m[0].length]);
  }
  for (const m of text.matchAll(SHORTCODE)) {
    if (m.index >= end) break;
    spans.push([m.index, m.index + (m[1] ?? '').length]);
  }
  for (let moved = true; moved; ) {
    moved = false;
    for (const [start, stop] of spans) {
      if (start < end && end < stop) {
        end = start;
        moved = true;
      }
    }
  }
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${text.slice(0, end).trimEnd()}…`;
}

export interface FitOptions {
  /** What the builder already left out (e.g. `headline KPIs beyond 10`), said in the note. */
  cuts?: readonly string[];
  /** The CSV holding the full result, named in the note. */
  csvName?: string;
}

export interface FitResult {
  message: SlackMessage;
  /** Everything that was cut, builder's and ours; empty when the message fit. */
  cuts: string[];
}

/** The note added when anything was cut. */
export function truncationNote(cuts: readonly string[], csvName?: string): ContextBlock {
  const where = csvName ? `the CSV \`${csvName}\`` : 'the CSV export';
  const text = `:scissors: Cut to fit Slack's limits (${cuts.join('; ')}). The full result is in ${where}.`;
  return { type: 'context', elements: [{ type: 'mrkdwn', text: fitText(text, SLACK_LIMITS.contextText) }] };
}

/** The text of a table cell: its text, its number, or the text runs of a rich-text cell. */
export function cellText(cell: TableBlock['rows'][number][number]): string {
  if (cell.type === 'raw_text') return cell.text;
  if (cell.type === 'raw_number') return String(cell.value);
  const runs: string[] = [];
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) for (const v of value) walk(v);
    else if (value && typeof value === 'object')
      for (const [k, v] of Object.entries(value)) k === 'text' && typeof v === 'string' ? runs.push(v) : walk(v);
  };
  walk(cell.elements);
  return runs.join('');
}

function tableToMonospace(table: TableBlock, maxChars: number): Block {
  const rows = table.rows.map((r) => r.map(cellText));
  const align: Align[] = (table.column_settings ?? []).map((s) => (s?.align === 'right' ? 'right' : 'left'));
  return { type: 'section', text: { type: 'mrkdwn', text: monospaceTable(rows, align, maxChars).text } };
}

/** Fits one block to its own limits, recording what was cut. */
function fitBlock(block: Block, cuts: string[], state: { tables: number }): Block {
  const L = SLACK_LIMITS;
  switch (block.type) {
    case 'header':
      if (block.text.text.length > L.headerText) cuts.push('a long title');
      return { ...block, text: { ...block.text, text: fitText(block.text.text, L.headerText) } };
    case 'section': {
      const out = { ...block };
      if (block.text && block.text.text.length > L.sectionText) {
        cuts.push('a long section');
        const code = block.text.text.startsWith('```');
        const text = fitText(block.text.text, L.sectionText - (code ? 4 : 0));
        out.text = { ...block.text, text: code ? `${text}\n\`\`\`` : text };
      }
      if (block.fields) {
        if (block.fields.length > L.sectionFields) cuts.push(`${block.fields.length - L.sectionFields} fields`);
        out.fields = block.fields.slice(0, L.sectionFields).map((f) => ({ ...f, text: fitText(f.text, L.fieldText) }));
      }
      return out;
    }
    case 'context':
      if (block.elements.length > L.contextElements) cuts.push('context items');
      return {
        ...block,
        elements: block.elements
          .slice(0, L.contextElements)
          .map((e) => (e.type === 'image' ? e : { ...e, text: fitText(e.text, L.contextText) })),
      };
    case 'actions':
      if (block.elements.length > L.actionsElements) cuts.push('buttons');
      return {
        ...block,
        elements: block.elements.slice(0, L.actionsElements).map((b) =>
          b.type === 'button'
            ? {
                ...b,
                text: { ...b.text, text: fitText(b.text.text, L.buttonText) },
                ...(b.value === undefined ? {} : { value: b.value.slice(0, L.buttonValue) }),
              }
            : b,
        ),
      };
    case 'image':
      return { ...block, alt_text: fitText(block.alt_text, L.imageAltText) };
    case 'table': {
      state.tables++;
      if (state.tables > L.tablesPerMessage) return fitBlock(tableToMonospace(block, L.sectionText), cuts, state);
      const tooWide = block.rows.some((r) => r.length > L.tableCells);
      if (block.rows.length > L.tableRows) cuts.push(`table rows beyond ${L.tableRows - 1}`);
      if (tooWide) cuts.push(`table columns beyond ${L.tableCells}`);
      return {
        ...block,
        rows: block.rows.slice(0, L.tableRows).map((r) => r.slice(0, L.tableCells)),
        ...(block.column_settings ? { column_settings: block.column_settings.slice(0, L.tableCells) } : {}),
      };
    }
    default:
      return block;
  }
}

/** Characters of text in the blocks (every `text` and `alt_text`): what `msg_blocks_too_long` counts. */
export function blockCharacters(blocks: readonly Block[]): number {
  let total = 0;
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) for (const v of value) walk(v);
    else if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) {
        if ((k === 'text' || k === 'alt_text') && typeof v === 'string') total += v.length;
        else walk(v);
      }
    }
  };
  walk(blocks);
  return total;
}

/** Which block to drop first when the message is too long: the last one that is plain content. */
function droppableIndex(blocks: readonly Block[]): number {
  for (let i = blocks.length - 1; i > 0; i--) {
    const b = blocks[i] as Block;
    if (b.type === 'actions' || b.type === 'header') continue;
    if (b.type === 'context' && i === blocks.length - 1) continue;
    return i;
  }
  return -1;
}

/**
 * Enforces every limit: each block to its own, at most 50 blocks and one table per message, and
 * the total size; when anything was cut, adds a note saying what and pointing at the CSV, just
 * before the buttons.
 *
 * @example const { message, cuts } = fitMessage({ text, blocks }, { csvName: 'daily-kpi.csv' });
 */
export function fitMessage(message: SlackMessage, options: FitOptions = {}): FitResult {
  const cuts = [...(options.cuts ?? [])];
  const state = { tables: 0 };
  const blocks = message.blocks.map((b) => fitBlock(b, cuts, state));
  const noteBudget = 700;
  const budget = SLACK_LIMITS.blockCharacters - noteBudget;
  const table = blocks.find((b): b is TableBlock => b.type === 'table');
  let tableRowsCut = 0;
  while (table && table.rows.length > 2 && blockCharacters(blocks) > budget) {
    table.rows.pop();
    tableRowsCut++;
  }
  if (tableRowsCut > 0) cuts.push(`${tableRowsCut} table rows`);
  let dropped = 0;
  while (blocks.length > SLACK_LIMITS.blocksPerMessage - 1 || blockCharacters(blocks) > budget) {
    const i = droppableIndex(blocks);
    if (i < 0) break;
    blocks.splice(i, 1);
    dropped++;
  }
  if (dropped > 0) cuts.push(`${dropped} block${dropped === 1 ? '' : 's'}`);
  if (cuts.length > 0) {
    const note = truncationNote(cuts, options.csvName);
    const actions = blocks.findIndex((b) => b.type === 'actions');
    blocks.splice(actions < 0 ? blocks.length : actions, 0, note);
  }
  return { message: { text: fitText(message.text, SLACK_LIMITS.fallbackText), blocks }, cuts };
}
