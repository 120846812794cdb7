import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { CellValue } from '../reporting/index.js';

/** A CSV column: the row key to read and the header name to write (the requested name by default). */
export interface CsvColumn {
  key: string;
  header?: string;
}

/** Rows written between two turns of the event loop. */
const YIELD_EVERY_ROWS = 2_000;

/** Leading characters that make spreadsheet programs evaluate a cell as a formula. */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * Formats one cell per RFC 4180: numbers at full precision, null as empty, text quoted when it
 * holds a comma, quote or line break; text that a spreadsheet would run as a formula (starting
 * with = + - @ tab or CR) is prefixed with a single quote. Negative numbers stay numbers.
 *
 * @example csvCell('=HYPERLINK("x")') // `"'=HYPERLINK(""x"")"`
 */
export function csvCell(value: CellValue | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  const text = FORMULA_START.test(value) && !/^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV record (with CRLF, as RFC 4180 writes it). */
export function csvLine(cells: ReadonlyArray<CellValue | undefined>): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/** The whole CSV as a string, for small results (Slack snippets, tests). */
export function toCsv(columns: readonly CsvColumn[], rows: Iterable<Readonly<Record<string, CellValue>>>): string {
  let out = csvLine(columns.map((c) => c.header ?? c.key));
  for (const row of rows) out += csvLine(columns.map((c) => row[c.key]));
  return out;
}

/**
 * Streams rows to a UTF-8 CSV file (header of requested names, one record per row) without
 * building it in memory, honouring back-pressure; writes to a temporary file and renames it into
 * place, so a reader never sees half a file.
 *
 * @example await writeCsv('out/daily.csv', [{ key: 'countryCode' }, { key: 'spend' }], rows);
 */
export async function writeCsv(
  path: string,
  columns: readonly CsvColumn[],
  rows: Iterable<Readonly<Record<string, CellValue>>> | AsyncIterable<Readonly<Record<string, CellValue>>>,
): Promise<{ path: string; rows: number; bytes: number }> {
  await mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.part`;
  const stream = createWriteStream(temporary, { encoding: 'utf8' });
  let count = 0;
  let bytes = 0;
  const write = async (text: string) => {
    bytes += Buffer.byteLength(text);
    if (!stream.write(text)) await once(stream, 'drain');
  };
  try {
    await write(csvLine(columns.map((c) => c.header ?? c.key)));
    let batch = '';
    for await (const row of rows as AsyncIterable<Readonly<Record<string, CellValue>>>) {
      batch += csvLine(columns.map((c) => row[c.key]));
      count++;
      if (batch.length >= 64 * 1024) {
        await write(batch);
        batch = '';
      }
      // Let other work (a bot acknowledging Slack) run between slices of a large result.
      if (count % YIELD_EVERY_ROWS === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    if (batch) await write(batch);
    stream.end();
    await once(stream, 'finish');
    await rename(temporary, path);
    return { path, rows: count, bytes };
  } catch (error) {
    stream.destroy();
    await rm(temporary, { force: true });
    throw error;
  }
}
