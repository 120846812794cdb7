import { getMetric } from './catalog/index.js';
import { ReportingResponseError } from './errors.js';
import type { CellValue, PivotColumn, PivotRow } from './request.js';

/**
 * Turns the `results`/`totals` of a pivot answer into rows keyed by output key: Long values (sent
 * as strings) become numbers when exact, and stay exact strings beyond 2^53; missing cells are null.
 */
export function normalizeRows(raw: unknown, columns: readonly PivotColumn[], operation: string): PivotRow[] {
  if (!Array.isArray(raw)) throw new ReportingResponseError(`${operation} answered results that are not a list`);
  return raw.map((row, i) => normalizeRow(row, columns, `${operation} results[${i}]`));
}

export function normalizeRow(raw: unknown, columns: readonly PivotColumn[], where: string): PivotRow {
  if (raw === null || typeof raw !== 'object') throw new ReportingResponseError(`${where} is not an object`);
  const record = raw as Record<string, unknown>;
  const row: PivotRow = {};
  for (const column of columns) {
    row[column.key] = toCell(record[column.key], column, where);
  }
  return row;
}

function toCell(value: unknown, column: PivotColumn, where: string): CellValue {
  if (value === undefined || value === null) return null;
  if (column.kind === 'metric') {
    const type = getMetric(column.name)?.type ?? 'Float';
    if (type.startsWith('Long')) return longCell(value, column, where);
    if (typeof value === 'number') return value;
    if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
    throw new ReportingResponseError(`${where}.${column.key} is not a number: ${JSON.stringify(value)}`);
  }
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  throw new ReportingResponseError(`${where}.${column.key} has an unexpected value: ${JSON.stringify(value)}`);
}

function longCell(value: unknown, column: PivotColumn, where: string): CellValue {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && /^-?\d+$/.test(value)) {
    const n = Number(value);
    return Number.isSafeInteger(n) ? n : value;
  }
  throw new ReportingResponseError(`${where}.${column.key} is not a whole number: ${JSON.stringify(value)}`);
}
