import { getDimension, getMetric, type InputValue, type PivotColumn, type PivotRow } from '../reporting/index.js';
import type { ViewColumn } from '../view/index.js';

const ACRONYMS: Readonly<Record<string, string>> = {
  cpi: 'CPI',
  cpm: 'CPM',
  cpc: 'CPC',
  ctr: 'CTR',
  cvr: 'CVR',
  roas: 'ROAS',
  cpa: 'CPA',
  cpx: 'CPX',
  id: 'ID',
  vta: 'VTA',
  iti: 'ITI',
  ite: 'ITE',
  ctv: 'CTV',
  dma: 'DMA',
  skad: 'SKAd',
};

/** `installsCpi` → `Installs CPI`, `countryCode` → `Country code`. */
export function humanize(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s_]+/)
    .filter(Boolean);
  return words
    .map((word, i) => {
      const lower = word.toLowerCase();
      const acronym = ACRONYMS[lower];
      if (acronym) return acronym;
      return i === 0 ? lower.charAt(0).toUpperCase() + lower.slice(1) : lower;
    })
    .join(' ');
}

function argsText(args: Readonly<Record<string, InputValue>>): string {
  const parts = Object.entries(args).map(([k, v]) => `${k}=${String(v)}`);
  return parts.length > 0 ? ` (${parts.join(', ')})` : '';
}

/** A column with its label, unit and polarity, for renderers. */
export function describeColumn(column: PivotColumn): ViewColumn {
  if (column.kind === 'metric') {
    const def = getMetric(column.name);
    const label =
      column.key !== column.name ? humanize(column.key) : `${humanize(column.name)}${argsText(column.args)}`;
    return { ...column, label, unit: def?.unit ?? 'count', polarity: def?.polarity ?? 'neutral' };
  }
  const def = getDimension(column.name);
  const granularity = column.args.granularity;
  const label =
    column.key !== column.name
      ? humanize(column.key)
      : `${humanize(column.name)}${granularity ? ` (${String(granularity).toLowerCase()})` : ''}`;
  return { ...column, label, unit: def?.kind === 'time' ? 'time' : 'text', polarity: 'neutral' };
}

/**
 * Totals computed from rows (async results carry none): additive metrics are summed, ratios are
 * recomputed from their summed parts when both are columns; anything else is null.
 */
export function totalsFromRows(rows: readonly PivotRow[], columns: readonly PivotColumn[]): PivotRow {
  const totals: PivotRow = {};
  const sums = new Map<string, number>();
  for (const column of columns) {
    if (column.kind !== 'metric') continue;
    const def = getMetric(column.name);
    if (def?.additive) {
      let sum = 0;
      for (const row of rows) sum += Number(row[column.key] ?? 0) || 0;
      totals[column.key] = sum;
      sums.set(column.name, sum);
    }
  }
  for (const column of columns) {
    if (column.kind !== 'metric' || column.key in totals) continue;
    const derived = getMetric(column.name)?.derivedFrom;
    const numerator = derived ? sums.get(derived.numerator) : undefined;
    const denominator = derived ? sums.get(derived.denominator) : undefined;
    totals[column.key] =
      derived && numerator !== undefined && denominator ? (numerator / denominator) * derived.scale : null;
  }
  return totals;
}
