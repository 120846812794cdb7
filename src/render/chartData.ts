/**
 * Pure data shaping for charts: group rows by the x value, combine several rows per x the way the
 * metric allows (sum what is additive, recompute ratios from their parts), and pick the top
 * groups of a split. No Chart.js here, so it is tested on plain rows.
 */
import { getMetric, type PivotRow } from '../reporting/index.js';
import type { ViewColumn } from '../view/index.js';
import { toNumber } from './format.js';

/** Rows grouped by one key, in first-seen order (or sorted, for time keys). */
export function groupBy(rows: readonly PivotRow[], key: string, sort: boolean): Map<string, PivotRow[]> {
  const groups = new Map<string, PivotRow[]>();
  for (const row of rows) {
    const k = String(row[key] ?? '');
    const list = groups.get(k);
    if (list) list.push(row);
    else groups.set(k, [row]);
  }
  if (!sort) return groups;
  return new Map([...groups.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * One metric over several rows: additive metrics sum; ratios the catalog derives from two base
 * metrics are recomputed from those columns when the rows carry them; anything else averages.
 * Null when no row has a value.
 */
export function combine(rows: readonly PivotRow[], column: ViewColumn, columns: readonly ViewColumn[]): number | null {
  const values = rows.map((r) => toNumber(r[column.key])).filter((v): v is number => v !== null);
  if (values.length === 0) return null;
  if (rows.length === 1) return values[0] ?? null;
  const def = getMetric(column.name);
  if (!def || def.additive) return values.reduce((a, b) => a + b, 0);
  const derived = def.derivedFrom;
  if (derived) {
    const num = columns.find((c) => c.kind === 'metric' && c.name === derived.numerator);
    const den = columns.find((c) => c.kind === 'metric' && c.name === derived.denominator);
    if (num && den) {
      const n = sum(rows, num.key);
      const d = sum(rows, den.key);
      return d === 0 ? null : (n / d) * derived.scale;
    }
  }
  return values.reduce((a, b) => a + b, 0) / values.length;
}

function sum(rows: readonly PivotRow[], key: string): number {
  let total = 0;
  for (const row of rows) total += toNumber(row[key]) ?? 0;
  return total;
}

/** One value per x label for a metric, aligned with `labels`. */
export function seriesValues(
  groups: ReadonlyMap<string, readonly PivotRow[]>,
  labels: readonly string[],
  column: ViewColumn,
  columns: readonly ViewColumn[],
): Array<number | null> {
  return labels.map((label) => combine(groups.get(label) ?? [], column, columns));
}

/**
 * The split values worth their own series: the `limit` largest by the metric's total; the rest
 * are folded into one "Other" group when the metric adds up, and dropped otherwise.
 */
export function topGroups(
  rows: readonly PivotRow[],
  splitKey: string,
  metric: ViewColumn,
  limit: number,
): { keep: string[]; other: boolean } {
  const totals = new Map<string, number>();
  for (const row of rows) {
    const k = String(row[splitKey] ?? '—');
    totals.set(k, (totals.get(k) ?? 0) + Math.abs(toNumber(row[metric.key]) ?? 0));
  }
  const ordered = [...totals.entries()].sort((a, b) => b[1] - a[1]).map(([k]) => k);
  const additive = getMetric(metric.name)?.additive ?? false;
  if (ordered.length <= limit) return { keep: ordered, other: false };
  return { keep: ordered.slice(0, limit - (additive ? 1 : 0)), other: additive };
}

/**
 * Shortens a category label for an axis, keeping both ends: campaign names share long prefixes
 * (`Merge Kingdom · Android · RTGT · FR · ROAS #3`), so the end is what tells them apart.
 *
 * @example shortLabel('Merge Kingdom · Android · RTGT · FR · ROAS #3') // 'Merge Kin… · ROAS #3'
 */
export function shortLabel(text: string, max = 22): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  const head = Math.ceil((max - 1) / 2);
  const tail = max - 1 - head;
  return `${chars.slice(0, head).join('').trimEnd()}…${chars
    .slice(chars.length - tail)
    .join('')
    .trimStart()}`;
}

/** Cuts a title at the end, on a word boundary where one is near. */
export function shortTitle(text: string, max: number): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  const cut = chars.slice(0, max - 1).join('');
  const space = cut.lastIndexOf(' ');
  return `${space > max * 0.6 ? cut.slice(0, space) : cut}…`;
}
