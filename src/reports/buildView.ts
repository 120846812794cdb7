import type { InputValue, PivotColumn, PivotRow, PostbackShareKey } from '../reporting/index.js';
import type { ReportView, ViewChart, ViewComparison } from '../view/index.js';
import { compareRows, compareTotals } from './comparison.js';
import type { CompiledReport } from './compileReport.js';
import { describeColumn } from './describeColumns.js';
import { resolveKey } from './outputKeys.js';
import type { ReportDefinition } from './schema.js';

export interface ViewInput {
  id: string;
  definition: ReportDefinition;
  compiled: CompiledReport;
  result?: { columns: readonly PivotColumn[]; rows: readonly PivotRow[]; totals?: PivotRow };
  previous?: { rows: readonly PivotRow[]; totals?: PivotRow };
  postbacks?: readonly PostbackShareKey[];
  mode: 'sync' | 'async';
  warnings: readonly string[];
  generatedAt: Date;
}

/**
 * Builds the `ReportView` of a run from its definition and results: columns described, deltas
 * joined, rows sorted and cut to top N (deltas stay aligned), headline and chart resolved.
 *
 * @example const view = buildView({ id: 'daily-kpi', definition, compiled, result, mode: 'sync', warnings: [], generatedAt: now });
 */
export function buildView(input: ViewInput): ReportView {
  const { definition, compiled } = input;
  const columns = (input.result?.columns ?? []).map(describeColumn);
  const metricKeys = columns.filter((c) => c.kind === 'metric').map((c) => c.key);
  const dimensionKeys = columns.filter((c) => c.kind === 'dimension').map((c) => c.key);
  const timeKeys = columns.filter((c) => c.kind === 'dimension' && c.unit === 'time').map((c) => c.key);
  const allRows = input.result?.rows ?? [];

  const deltas = input.previous
    ? compareRows(allRows, input.previous.rows, { dimensions: dimensionKeys, time: timeKeys, metrics: metricKeys })
    : undefined;
  const order = sortOrder(definition, metricKeys, [...dimensionKeys, ...metricKeys], timeKeys);
  const indexes = allRows.map((_, i) => i);
  if (order) {
    const sign = order.desc ? -1 : 1;
    indexes.sort((a, b) => sign * compareCells(allRows[a]?.[order.key], allRows[b]?.[order.key]) || a - b);
  }
  const top = definition.present.top;
  const kept = top === undefined ? indexes : indexes.slice(0, top);
  const rows = kept.map((i) => allRows[i] as PivotRow);

  const headline = (definition.present.headline ?? metricKeys.slice(0, 4))
    .map((k) => resolveKey(k, metricKeys))
    .filter((k): k is string => k !== undefined);
  const view: ReportView = {
    reportId: input.id,
    title: definition.title,
    range: rangeOf(compiled.range),
    columns,
    rows,
    totalRowCount: allRows.length,
    headline,
    mode: input.mode,
    warnings: input.warnings,
    generatedAt: input.generatedAt.toISOString(),
  };
  if (definition.description !== undefined) view.description = definition.description;
  if (definition.owner !== undefined) view.owner = definition.owner;
  const filters = filtersText(compiled);
  if (filters) view.filtersText = filters;
  if (input.result?.totals) view.totals = input.result.totals;
  if (input.postbacks) view.postbacks = input.postbacks;
  const chart = chartOf(definition, metricKeys, dimensionKeys, timeKeys, headline);
  if (chart) view.chart = chart;
  if (deltas && input.previous && compiled.comparison) {
    const comparison: ViewComparison = {
      kind: compiled.comparison.kind,
      label: `vs ${compiled.comparison.range.label.replace(/^./, (c) => c.toLowerCase())}`,
      range: rangeOf(compiled.comparison.range),
      totals: compareTotals(input.result?.totals, input.previous.totals, metricKeys),
      rows: kept.map((i) => deltas[i] ?? {}),
      previousRows: input.previous.rows,
    };
    view.comparison = comparison;
  }
  return view;
}

function rangeOf(range: CompiledReport['range']): ReportView['range'] {
  return { from: range.from, to: range.to, label: range.label, timezone: range.timezone };
}

function sortOrder(
  definition: ReportDefinition,
  metricKeys: readonly string[],
  allKeys: readonly string[],
  timeKeys: readonly string[],
): { key: string; desc: boolean } | undefined {
  const sort = definition.present.sort;
  if (sort !== undefined) {
    const written = typeof sort === 'string' ? sort.replace(/^[-+]/, '') : sort.by;
    const key = resolveKey(written, allKeys);
    if (key === undefined) return undefined;
    const desc =
      typeof sort === 'string'
        ? !sort.startsWith('+') && (sort.startsWith('-') || metricKeys.includes(key))
        : sort.order === 'desc';
    return { key, desc };
  }
  const first = timeKeys[0];
  if (first !== undefined && definition.present.top === undefined) return { key: first, desc: false };
  const metric = resolveKey(definition.present.headline?.[0] ?? '', metricKeys) ?? metricKeys[0];
  return metric === undefined ? undefined : { key: metric, desc: true };
}

/** Numbers before text, nulls last. */
function compareCells(a: PivotRow[string] | undefined, b: PivotRow[string] | undefined): number {
  const an = a === null || a === undefined;
  const bn = b === null || b === undefined;
  if (an || bn) return an === bn ? 0 : an ? 1 : -1;
  const x = Number(a);
  const y = Number(b);
  if (Number.isFinite(x) && Number.isFinite(y) && typeof a !== 'boolean') return x - y;
  return String(a).localeCompare(String(b));
}

function chartOf(
  definition: ReportDefinition,
  metricKeys: readonly string[],
  dimensionKeys: readonly string[],
  timeKeys: readonly string[],
  headline: readonly string[],
): ViewChart | undefined {
  const chart = definition.present.chart;
  if (chart) {
    const x = resolveKey(chart.x, dimensionKeys) ?? chart.x;
    const series = chart.series.map((s) => resolveKey(s, metricKeys) ?? s);
    const out: ViewChart = { kind: chart.type, x, series };
    const stackBy = chart.stackBy === undefined ? undefined : resolveKey(chart.stackBy, dimensionKeys);
    if (stackBy !== undefined) out.stackBy = stackBy;
    if (chart.title !== undefined) out.title = chart.title;
    return out;
  }
  const first = headline[0] ?? metricKeys[0];
  if (first === undefined) return undefined;
  if (timeKeys[0] !== undefined) return { kind: 'line', x: timeKeys[0], series: headline.slice(0, 2) };
  if (dimensionKeys[0] !== undefined) return { kind: 'bar', x: dimensionKeys[0], series: [first] };
  return undefined;
}

/** `countryCode in (US, BR) · appId = 101 · impressions > 1000 · CTV + mobile`. */
export function filtersText(compiled: CompiledReport): string | undefined {
  const parts: string[] = [];
  const request = compiled.request;
  for (const [field, value] of Object.entries(request?.filter ?? {})) parts.push(filterPart(field, value));
  const ops: Record<string, string> = {
    greaterThan: '>',
    greaterOrEqualThan: '≥',
    lowerThan: '<',
    lowerOrEqualThan: '≤',
  };
  for (const [metric, thresholds] of Object.entries(request?.cleanup ?? {})) {
    for (const [op, v] of Object.entries(thresholds)) parts.push(`${metric} ${ops[op] ?? op} ${String(v)}`);
  }
  const channel = request?.campaignChannel;
  if (channel === 'CTV') parts.push('CTV only');
  if (channel === 'ALL') parts.push('CTV + mobile');
  if (request?.qualityType) parts.push(`quality ${request.qualityType}`);
  if (request?.cohortType) parts.push(`${request.cohortType.toLowerCase()} cohort`);
  if (compiled.postbacks)
    parts.push(`app ${compiled.postbacks.appId} postbacks (${compiled.postbacks.track.toLowerCase()})`);
  return parts.length > 0 ? parts.join(' · ') : undefined;
}

function filterPart(field: string, value: InputValue): string {
  const list = (v: InputValue) => (Array.isArray(v) ? v.map(String).join(', ') : String(v));
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return `${field} = ${list(value)}`;
  const record = value as Record<string, InputValue>;
  const out: string[] = [];
  if (record.equals !== undefined) out.push(`${field} = ${list(record.equals)}`);
  if (record.notEquals !== undefined) out.push(`${field} ≠ ${list(record.notEquals)}`);
  if (record.isIn !== undefined) out.push(`${field} in (${list(record.isIn)})`);
  if (record.isNotIn !== undefined) out.push(`${field} not in (${list(record.isNotIn)})`);
  return out.join(' · ');
}
