import { readFile } from 'node:fs/promises';
import { getMetric, type PivotColumn, type PivotRow, parseCsv } from '../reporting/index.js';

/**
 * Reads an async pivot's CSV (RFC 4180, header of names) into rows keyed like a sync pivot's:
 * metric cells become numbers (Long values beyond 2^53 stay exact text), empty cells null.
 *
 * @example const rows = await readCsvRows('out/job.csv', columns);
 */
export async function readCsvRows(path: string, columns: readonly PivotColumn[]): Promise<PivotRow[]> {
  return parseCsvRows(await readFile(path, 'utf8'), columns);
}

/** The pure part of `readCsvRows`. */
export function parseCsvRows(text: string, columns: readonly PivotColumn[]): PivotRow[] {
  const records = parseCsv(text.replace(/^\uFEFF/, ''));
  const header = records.shift() ?? [];
  const index = columns.map((c) => header.indexOf(c.name));
  return records
    .filter((r) => !(r.length === 1 && r[0] === ''))
    .map((record) => {
      const row: PivotRow = {};
      columns.forEach((column, i) => {
        const at = index[i] ?? -1;
        row[column.key] = cell(at >= 0 ? record[at] : undefined, column);
      });
      return row;
    });
}

function cell(text: string | undefined, column: PivotColumn): PivotRow[string] {
  if (text === undefined || text === '') return null;
  if (column.kind === 'dimension') return text;
  const n = Number(text);
  if (!Number.isFinite(n)) return null;
  if (getMetric(column.name)?.type.startsWith('Long') && !Number.isSafeInteger(n) && /^-?\d+$/.test(text)) return text;
  return n;
}
