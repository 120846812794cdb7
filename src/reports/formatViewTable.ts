import type { CellValue } from '../reporting/index.js';
import type { ReportView, ViewColumn } from '../view/index.js';

/**
 * A report view as a plain-text table for terminals: a title line, the range, one aligned column
 * per dimension and metric (numbers right-aligned, formatted by unit), a totals line, the
 * postback distributions and the warnings.
 *
 * @example io.out(formatViewTable(view));
 */
export function formatViewTable(view: ReportView): string {
  const lines = [`${view.title} — ${view.range.label} (${view.range.timezone})`];
  if (view.filtersText) lines.push(view.filtersText);
  if (view.columns.length > 0) {
    const header = view.columns.map((c) => c.key);
    const body = view.rows.map((row) => view.columns.map((c) => formatCell(row[c.key] ?? null, c)));
    const totals = view.totals
      ? view.columns.map((c, i) =>
          c.kind === 'metric' ? formatCell(view.totals?.[c.key] ?? null, c) : i === 0 ? 'Total' : '',
        )
      : undefined;
    const deltas = view.comparison
      ? view.columns.map((c, i) => {
          if (c.kind !== 'metric') return i === 0 ? 'Change' : '';
          const p = view.comparison?.totals[c.key]?.percent;
          return p === null || p === undefined ? '–' : `${p >= 0 ? '+' : ''}${(p * 100).toFixed(1)}%`;
        })
      : undefined;
    const all = [header, ...body, ...(totals ? [totals] : []), ...(deltas ? [deltas] : [])];
    const widths = header.map((_, i) => Math.max(...all.map((r) => (r[i] ?? '').length)));
    const right = view.columns.map((c) => c.kind === 'metric');
    const render = (cells: string[]) =>
      cells
        .map((cell, i) => (right[i] ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0)))
        .join('  ')
        .trimEnd();
    const rule = widths.map((w) => '-'.repeat(w)).join('  ');
    lines.push('', render(header), rule, ...body.map(render));
    if (totals) lines.push(rule, render(totals));
    if (deltas && view.comparison) lines.push(render(deltas), `(${view.comparison.label})`);
    if (view.rows.length < view.totalRowCount) lines.push(`${view.rows.length} of ${view.totalRowCount} rows shown`);
    if (view.totalRowCount === 0) lines.push('(no rows)');
  }
  for (const key of view.postbacks ?? []) {
    lines.push('', `postback key ${key.postbackKey ?? '?'}: ${String(key.totalCount ?? 0)} postbacks`);
    const rows = key.results.map((r) => [
      r.value ?? '(none)',
      String(r.count ?? ''),
      r.percentage === null ? '' : `${r.percentage.toFixed(1)}%`,
      r.revenue === null ? '' : r.revenue.toFixed(2),
    ]);
    const widths = [0, 1, 2, 3].map((i) => Math.max(5, ...rows.map((r) => (r[i] ?? '').length)));
    for (const r of rows.slice(0, 20)) {
      lines.push(
        `  ${(r[0] ?? '').padEnd(widths[0] ?? 0)}  ${(r[1] ?? '').padStart(widths[1] ?? 0)}  ${(r[2] ?? '').padStart(widths[2] ?? 0)}  ${r[3] ?? ''}`.trimEnd(),
      );
    }
    if (rows.length > 20) lines.push(`  … ${rows.length - 20} more values`);
  }
  for (const warning of view.warnings) lines.push(`warning: ${warning}`);
  return `${lines.join('\n')}\n`;
}

/** A cell as text, by the column's unit: `1,234`, `1,234.56`, `1.23%`. */
export function formatCell(value: CellValue, column: Pick<ViewColumn, 'unit'>): string {
  if (value === null) return '';
  if (typeof value === 'boolean') return String(value);
  if (column.unit === 'time' && typeof value === 'string')
    return value.replace(/T00:00:00(\.000)?(Z|[+-]\d{2}:?\d{2})?$/, '');
  if (column.unit === 'text' || column.unit === 'time') return String(value);
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(n)) return String(value);
  switch (column.unit) {
    case 'count':
      return Number.isInteger(n) ? group(n, 0) : group(n, 2);
    case 'currency':
      return group(n, 2);
    case 'ratio':
      return `${(n * 100).toFixed(2)}%`;
    case 'percent':
      return `${n.toFixed(1)}%`;
    default:
      return n.toFixed(2);
  }
}

function group(n: number, digits: number): string {
  return n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}
