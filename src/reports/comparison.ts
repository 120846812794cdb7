import type { CellValue, PivotRow } from '../reporting/index.js';
import type { Delta } from '../view/index.js';

export interface JoinKeys {
  /** Dimension keys that identify a row. */
  dimensions: readonly string[];
  /** Among them, the time buckets: aligned by position in their period (day 1 with day 1…). */
  time: readonly string[];
  /** Metric keys to compare. */
  metrics: readonly string[];
}

/**
 * The change of one value against the comparison period. Null where either side is missing
 * or not a number; `percent` is null when the previous value is 0.
 *
 * @example delta(120, 100) // { previous: 100, absolute: 20, percent: 0.2 }
 */
export function delta(current: CellValue | undefined, previous: CellValue | undefined): Delta {
  const cur = toNumber(current);
  const prev = toNumber(previous);
  if (cur === null || prev === null) return { previous: prev, absolute: null, percent: null };
  return { previous: prev, absolute: cur - prev, percent: prev === 0 ? null : (cur - prev) / Math.abs(prev) };
}

/** Deltas of every metric of two totals rows. */
export function compareTotals(
  current: PivotRow | undefined,
  previous: PivotRow | undefined,
  metrics: readonly string[],
): Record<string, Delta> {
  const out: Record<string, Delta> = {};
  for (const key of metrics) out[key] = delta(current?.[key] ?? null, previous?.[key] ?? null);
  return out;
}

/**
 * Joins the current rows with the comparison period's by dimension key and returns, aligned with
 * `current`, the deltas of every metric. Time buckets cannot match across periods, so they join by
 * rank: the first day of this week with the first day of last week. Rows without a partner get
 * deltas with `previous: null`.
 *
 * @example compareRows(rows, previousRows, { dimensions: ['countryCode'], time: [], metrics: ['spend'] })
 */
export function compareRows(
  current: readonly PivotRow[],
  previous: readonly PivotRow[],
  keys: JoinKeys,
): Array<Record<string, Delta>> {
  const currentKey = rowKeyer(current, keys);
  const previousKey = rowKeyer(previous, keys);
  const byKey = new Map<string, PivotRow>();
  for (const row of previous) {
    const key = previousKey(row);
    if (!byKey.has(key)) byKey.set(key, row);
  }
  return current.map((row) => {
    const partner = byKey.get(currentKey(row));
    const deltas: Record<string, Delta> = {};
    for (const metric of keys.metrics) deltas[metric] = delta(row[metric] ?? null, partner?.[metric] ?? null);
    return deltas;
  });
}

/** A function giving each row its join key, with time values replaced by their rank in `rows`. */
function rowKeyer(rows: readonly PivotRow[], keys: JoinKeys): (row: PivotRow) => string {
  const ranks = new Map<string, Map<string, number>>();
  for (const key of keys.time) {
    const values = [...new Set(rows.map((r) => String(r[key] ?? '')))].sort();
    ranks.set(key, new Map(values.map((v, i) => [v, i])));
  }
  return (row) =>
    JSON.stringify(
      keys.dimensions.map((key) => {
        const rank = ranks.get(key);
        return rank ? `#${rank.get(String(row[key] ?? ''))}` : (row[key] ?? null);
      }),
    );
}

function toNumber(value: CellValue | undefined): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return null;
}
