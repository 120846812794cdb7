/**
 * A table as aligned monospace text inside a code block: the fallback where Slack's table block
 * does not fit (a second table in one message, clients without it, terminals).
 */
import { distinctLabels } from '../distinctLabels.js';
import { escapeMrkdwn } from '../escapeMrkdwn.js';

export type Align = 'left' | 'right';

/**
 * Pads cells to column widths; numbers align right, text left. Cells are cut to `maxCell` chars,
 * a column's cells together, so that two long names stay two names (`distinctLabels`).
 */
export function monospaceLines(rows: readonly (readonly string[])[], align: readonly Align[], maxCell = 28): string[] {
  const width = Math.max(0, ...rows.map((row) => row.length));
  const columns = Array.from({ length: width }, (_, i) =>
    distinctLabels(
      rows.map((row) => row[i] ?? ''),
      maxCell,
    ),
  );
  const cut = rows.map((row, r) => row.map((_, i) => columns[i]?.[r] ?? ''));
  const widths: number[] = [];
  for (const row of cut) {
    row.forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, cell.length);
    });
  }
  return cut.map((row) =>
    row
      .map((cell, i) => (align[i] === 'right' ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd(),
  );
}

/**
 * The table as a ``` code block of at most `maxChars` characters: the header, a rule, then as
 * many rows as fit. Returns how many body rows made it.
 *
 * @example monospaceTable([['Country', 'Spend'], ['US', '$1.2K']], ['left', 'right'], 3000)
 */
export function monospaceTable(
  rows: readonly (readonly string[])[],
  align: readonly Align[],
  maxChars: number,
): { text: string; rowsShown: number } {
  // Escaped after padding: `&amp;` is one character on screen. Cells are text from the data
  // (campaign names): a `<!channel>` in one must not notify anyone.
  const lines = monospaceLines(rows, align).map(escapeMrkdwn);
  const [header, ...body] = lines;
  if (header === undefined) return { text: '```\n```', rowsShown: 0 };
  const rule = '-'.repeat(Math.min(header.length, 120));
  let text = `\`\`\`\n${header}\n${rule}`;
  let shown = 0;
  for (const line of body) {
    if (text.length + line.length + 5 > maxChars) break;
    text += `\n${line}`;
    shown++;
  }
  return { text: `${text}\n\`\`\``, rowsShown: shown };
}
