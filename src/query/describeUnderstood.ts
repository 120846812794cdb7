import type { FieldSpec, RangeSpec, ReportDefinition } from '../reports/index.js';
import type { Compare } from './ast.js';

const OPERATORS: Readonly<Record<string, string>> = { equals: '=', notEquals: '!=', isIn: 'in', isNotIn: 'not in' };
const THRESHOLDS: Readonly<Record<string, string>> = {
  greaterThan: '>',
  greaterOrEqualThan: '>=',
  lowerThan: '<',
  lowerOrEqualThan: '<=',
};

/**
 * What a query was understood as, in the catalog's own words: the first line of every answer, so
 * people who typed "cpi by country" learn the exact language.
 *
 * @example describeUnderstood(compiled.definition, 'UTC') // 'installsCpi by countryCode, yesterday (UTC)'
 */
export function describeUnderstood(definition: ReportDefinition, defaultTimeZone = 'UTC'): string {
  const q = definition.query;
  const zone = q.timezone ?? defaultTimeZone;
  const range = `${rangeText(q.range)} (${zone})`;
  if (q.postbacks) {
    const p = q.postbacks;
    const flags = [p.includeRevenue ? ' revenue' : '', p.organic ? ' organic' : ''].join('');
    return `postbacks app:${p.appId} keys:${p.keys.join(',')} track:${p.track.toLowerCase()}${flags}, ${range}`;
  }
  const parts = [
    `${q.metrics.map(fieldText).join(', ')}${q.dimensions.length > 0 ? ` by ${q.dimensions.map(fieldText).join(', ')}` : ''}`,
    range,
  ];
  if (q.filter) {
    const where = Object.entries(q.filter).flatMap(([field, value]) => conditionTexts(field, value));
    if (where.length > 0) parts.push(`where ${where.join(' and ')}`);
  }
  if (q.cleanup) {
    const having = Object.entries(q.cleanup).flatMap(([field, ops]) =>
      Object.entries(ops ?? {}).map(([op, v]) => `${field} ${THRESHOLDS[op] ?? op} ${v}`),
    );
    if (having.length > 0) parts.push(`having ${having.join(' and ')}`);
  }
  const p = definition.present;
  const sort = typeof p.sort === 'string' ? { by: p.sort.replace(/^[-+]/, ''), order: 'desc' } : p.sort;
  if (p.top !== undefined)
    parts.push(`top ${p.top}${sort ? ` by ${sort.by}${sort.order === 'asc' ? ' asc' : ''}` : ''}`);
  else if (sort) parts.push(`sort by ${sort.by} ${sort.order}`);
  if (p.compare && p.compare !== 'none') parts.push(compareWords(p.compare));
  if (q.channel && q.channel !== 'mobile') parts.push(`channel ${q.channel}`);
  return parts.join(', ');
}

/** `installs(attrTouch=CLICK) as clickInstalls`, `date:daily`, `countryCode`. */
export function fieldText(field: FieldSpec): string {
  if (typeof field === 'string') return field;
  if (!field.args && !field.as) return field.name;
  const { granularity, ...rest } = field.args ?? {};
  const args = Object.entries(rest).map(([k, v]) => `${k}=${String(v)}`);
  const gran = field.name === 'date' && typeof granularity === 'string' ? `:${granularity.toLowerCase()}` : '';
  if (granularity !== undefined && gran === '') args.unshift(`granularity=${String(granularity)}`);
  return `${field.name}${gran}${args.length > 0 ? `(${args.join(', ')})` : ''}${field.as ? ` as ${field.as}` : ''}`;
}

/** `last_7_days` as `last 7 days`; dates as `2026-11-01..2026-11-08`. */
export function rangeText(range: RangeSpec): string {
  if (typeof range !== 'string') return `${range.from}..${range.to}`;
  return range.includes('..') ? range : range.replace(/_/g, ' ');
}

function conditionTexts(field: string, value: unknown): string[] {
  const list = (v: unknown) => (Array.isArray(v) ? `(${v.join(', ')})` : String(v));
  if (Array.isArray(value)) return [`${field} in ${list(value)}`];
  if (value === null || typeof value !== 'object') return [`${field} = ${String(value)}`];
  return Object.entries(value).map(([op, v]) => `${field} ${OPERATORS[op] ?? op} ${list(v)}`);
}

/** How the answer's first line says a comparison: `vs same period last month`. */
export function compareWords(compare: Compare): string {
  return compare === 'previous_period' ? 'vs previous period' : `vs ${compare.replaceAll('_', ' ')}`;
}
