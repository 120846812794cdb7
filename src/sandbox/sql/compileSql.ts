/**
 * Compiles a pivot request (dimensions, metrics with arguments, filter, cleanup, cohorts, time
 * zone…) into one DuckDB query. Pure: no I/O, unit-tested on its SQL and run by the resolvers.
 *
 * Shape: `base` groups the fact table by the dimensions and computes every metric component;
 * `kept` applies cleanup (HAVING-like, after aggregation) and removeZeroRows; the result rows
 * (`__t = 0`) and one totals row (`__t = 1`, components summed over the kept rows) come out together.
 */
import { type DateTimeInput, dateTimeSql } from './dateTime.js';
import { type DimensionScope, dimensionExpr } from './dimensionExpr.js';
import { FILTER_COLUMNS } from './dimensionSql.js';
import { type JoinName, joinClauses } from './joins.js';
import { type Args, LONG_METRICS, type MetricContext, metricSql, type QualityType } from './metricSql.js';
import { SqlParams, type SqlValue } from './SqlParams.js';

export interface FieldRequest {
  name: string;
  /** Arguments with GraphQL defaults applied. */
  args: Args;
  /** Unique key of this field + arguments; results are returned under it. */
  key: string;
}

export type Channel = 'MOBILE' | 'CTV' | 'ALL';
export type CohortType = 'INSTALL' | 'TOUCH' | 'ATTRIBUTION';

export interface PivotQuery {
  from: DateTimeInput;
  to: DateTimeInput;
  /** Validated IANA zone (context.sqlTimeZone, default UTC). */
  timeZone: string;
  dimensions: readonly FieldRequest[];
  metrics: readonly FieldRequest[];
  filter: Readonly<Record<string, unknown>> | null;
  cleanup: Readonly<Record<string, Readonly<Record<string, unknown>> | null>> | null;
  cohortType: CohortType | null;
  cohortWindow: { amount: number; period: string } | null;
  qualityType: QualityType;
  removeZeroRows: boolean;
  channel: Channel;
  /** Granularity of `date` fields that give none (the deprecated `pivot(granularity:)`); DAILY when absent. */
  defaultGranularity?: string;
  includeTotals: boolean;
  /** siteBundle is NULL on rows older than this instant (ISO). */
  siteBundleSince: string;
}

export interface CompiledPivot {
  /** The query; every request value in it is a `$n` placeholder. */
  sql: string;
  /** The values of the placeholders, `$1` first. */
  params: readonly SqlValue[];
  /** Output column of each dimension and metric key, in request order. */
  columns: readonly { key: string; column: string; kind: 'dimension' | 'metric'; name: string }[];
}

const UTC_ZONES: ReadonlySet<string> = new Set([
  'UTC',
  'Etc/UTC',
  'GMT',
  'Etc/GMT',
  'Etc/UCT',
  'UCT',
  'Zulu',
  'Etc/Zulu',
]);
const PERIOD_HOURS: Readonly<Record<string, number>> = { HOURS: 1, DAYS: 24, WEEKS: 168 };

/** Cleanup fields and the metric they threshold (processedInstalls: attributed installs). */
const CLEANUP_METRIC: Readonly<Record<string, string>> = {
  clicks: 'clicks',
  events: 'events',
  impressions: 'impressions',
  installs: 'installs',
  sourceViewa: 'sourceViewa',
  processedInstalls: 'installs',
  spend: 'spend',
};
const CLEANUP_OPS: Readonly<Record<string, string>> = {
  greaterThan: '>',
  greaterOrEqualThan: '>=',
  lowerThan: '<',
  lowerOrEqualThan: '<=',
};

/** A GraphQL input value (Int, String, enum, Boolean) as a bound parameter. */
function bound(value: unknown, params: SqlParams): string {
  if (
    (typeof value === 'number' && Number.isFinite(value)) ||
    typeof value === 'boolean' ||
    typeof value === 'string'
  ) {
    return params.ref(value);
  }
  throw new Error(`unsupported filter value ${JSON.stringify(value)}`);
}

/** equals / notEquals / isIn / isNotIn on one column; NULL-safe for the negative forms; values bound in `params`. */
export function filterConditions(expr: string, spec: Readonly<Record<string, unknown>>, params: SqlParams): string[] {
  const literal = (value: unknown) => bound(value, params);
  const conds: string[] = [];
  for (const [op, value] of Object.entries(spec)) {
    if (value === null || value === undefined) continue;
    if (op === 'equals') conds.push(`${expr} = ${literal(value)}`);
    else if (op === 'notEquals') conds.push(`${expr} IS DISTINCT FROM ${literal(value)}`);
    else if (op === 'isIn' || op === 'isNotIn') {
      const list = (value as readonly unknown[]).map(literal);
      if (op === 'isIn') conds.push(list.length === 0 ? 'false' : `${expr} IN (${list.join(', ')})`);
      else conds.push(list.length === 0 ? 'true' : `(${expr} IS NULL OR ${expr} NOT IN (${list.join(', ')}))`);
    } else throw new Error(`unknown filter operator ${op}`);
  }
  return conds;
}

/** WHERE conditions of a Filter input (values bound in `params`), collecting the joins they need. */
export function compileFilter(
  filter: Readonly<Record<string, unknown>> | null,
  joins: Set<JoinName>,
  params: SqlParams,
): string[] {
  const conds: string[] = [];
  for (const [field, spec] of Object.entries(filter ?? {})) {
    if (spec === null || spec === undefined) continue;
    const column = FILTER_COLUMNS[field];
    if (column === undefined) throw new Error(`unknown filter field ${field}`);
    for (const j of column.joins) joins.add(j);
    const own =
      typeof spec === 'boolean'
        ? [`${column.sql} = ${bound(spec, params)}`]
        : filterConditions(column.sql, spec as Readonly<Record<string, unknown>>, params);
    if (own.length === 0) continue;
    const cond = own.map((c) => `(${c})`).join(' AND ');
    if (column.scope === 'events') conds.push(`(f.kind <> 2 OR ${cond})`);
    else if (column.scope === 'conversions') conds.push(`(f.kind = 0 OR ${cond})`);
    else conds.push(cond);
  }
  return conds;
}

/** The instant a fact row is bucketed by: its own time, or its install / touch time for cohorts. */
function cohortTime(cohortType: CohortType | null): string {
  if (cohortType === 'INSTALL') return '(f.ts - to_hours(COALESCE(f.h_install, 0)::BIGINT))';
  if (cohortType === 'TOUCH') return '(f.ts - to_hours(COALESCE(f.h_touch, 0)::BIGINT))';
  return 'f.ts';
}

/** Compiles the query. @example compilePivot({ ...query, dimensions: [{ name: 'countryCode', args: {}, key: 'countryCode' }] }) */
export function compilePivot(q: PivotQuery): CompiledPivot {
  const params = new SqlParams();
  const joins = new Set<JoinName>();
  const components = new Map<string, { alias: string; type: string }>();
  const ctx = metricContext(q, params, joins, components);

  // null stands for UTC (the session zone), where no conversion is needed.
  const z = UTC_ZONES.has(q.timeZone) ? null : params.ref(q.timeZone);
  const t = cohortTime(q.cohortType);
  const fromSql = dateTimeSql(q.from, q.timeZone, params);
  const toSql = dateTimeSql(q.to, q.timeZone, params);
  const dateDim = q.dimensions.find((d) => d.name === 'date');
  const defaultGranularity = q.defaultGranularity ?? 'DAILY';
  const granularity = String(dateDim?.args.granularity ?? defaultGranularity);
  const scope: DimensionScope = {
    params,
    joins,
    z,
    t,
    fromSql,
    defaultGranularity,
    granularity,
    hasDate: dateDim !== undefined,
    qualityType: q.qualityType,
    siteBundleSince: q.siteBundleSince,
  };

  const inner: string[] = [];
  const outer: string[] = [];
  const columns: { key: string; column: string; kind: 'dimension' | 'metric'; name: string }[] = [];
  q.dimensions.forEach((d, i) => {
    const alias = `d${i}`;
    const { expr, formatted } = dimensionExpr(d, alias, scope);
    inner.push(`${expr} AS ${alias}`);
    outer.push(`${formatted} AS k${i}`);
    columns.push({ key: d.key, column: `k${i}`, kind: 'dimension', name: d.name });
  });

  const finals = q.metrics.map((m, j) => {
    const expr = metricSql(m.name, m.args, ctx);
    columns.push({ key: m.key, column: `m${j}`, kind: 'metric', name: m.name });
    return LONG_METRICS.has(m.name) ? `(${expr})::BIGINT` : `(${expr})::DOUBLE`;
  });

  const keptConds = cleanupConditions(q.cleanup, ctx);
  if (q.removeZeroRows && finals.length > 0) {
    keptConds.push(`NOT (${finals.map((f) => `COALESCE(${f}, 0) = 0`).join(' AND ')})`);
  }

  const where = [`${t} >= ${fromSql}`, `${t} < ${toSql}`];
  if (q.cohortType !== null && q.cohortType !== 'ATTRIBUTION') where.push(`f.ts >= ${fromSql}`);
  if (q.channel !== 'ALL') where.push(`f.channel = ${q.channel === 'CTV' ? 1 : 0}`);
  where.push(...compileFilter(q.filter, joins, params));

  const componentList = [...components.entries()];
  const baseSelect = [...inner, ...componentList.map(([agg, c]) => `${agg} AS ${c.alias}`)];
  if (baseSelect.length === 0) baseSelect.push('count(*) AS c_rows');
  const groupBy = inner.length === 0 ? '' : `\nGROUP BY ${inner.map((_, i) => `d${i}`).join(', ')}`;
  const metricOut = finals.map((f, j) => `${f} AS m${j}`);
  const rowSelect = ['0 AS __t', ...outer, ...metricOut].join(', ');
  let sql = `WITH base AS (
SELECT ${baseSelect.join(',\n  ')}
FROM facts f
${joinClauses(joins).join('\n')}
WHERE ${where.join('\n  AND ')}${groupBy}
), kept AS (
SELECT * FROM base${keptConds.length === 0 ? '' : ` WHERE ${keptConds.join(' AND ')}`}
)
SELECT ${rowSelect} FROM kept`;
  if (q.includeTotals) {
    // Sums over no kept rows stay 0, except for components that are NULL by design (assisted keyMetric).
    const sums = componentList.map(([agg, c]) =>
      agg.startsWith('COALESCE(')
        ? `COALESCE(SUM(${c.alias}), 0)::${c.type} AS ${c.alias}`
        : `SUM(${c.alias})::${c.type} AS ${c.alias}`,
    );
    if (sums.length === 0) sums.push('count(*) AS c_rows');
    const totalsSelect = ['1 AS __t', ...outer.map((_, i) => `NULL AS k${i}`), ...metricOut].join(', ');
    sql += `\nUNION ALL\nSELECT ${totalsSelect} FROM (SELECT ${sums.join(', ')} FROM kept)`;
  }
  sql += `\nORDER BY __t${outer.map((_, i) => `, k${i}`).join('')}`;
  const bound = params.finish(sql);
  return { sql: bound.sql, params: bound.values, columns };
}

/** What metrics compile against: shared components (computed once in `base`), joins, quality, cohort window. */
function metricContext(
  q: PivotQuery,
  params: SqlParams,
  joins: Set<JoinName>,
  components: Map<string, { alias: string; type: string }>,
): MetricContext {
  const hours = q.cohortWindow === null ? null : q.cohortWindow.amount * (PERIOD_HOURS[q.cohortWindow.period] ?? 1);
  const cohortWindow =
    q.cohortType === null || hours === null
      ? null
      : q.cohortType === 'INSTALL'
        ? `f.h_install <= ${params.ref(hours)}`
        : `f.h_touch <= ${params.ref(hours)}`;
  return {
    component(aggregate, type) {
      const found = components.get(aggregate);
      if (found !== undefined) return found.alias;
      const alias = `c${components.size}`;
      components.set(aggregate, { alias, type });
      return alias;
    },
    needJoin: (j) => joins.add(j),
    qualityType: q.qualityType,
    cohortWindow,
    params,
  };
}

/** The `kept` conditions of a Cleanup input: each threshold on its metric, the value bound. */
function cleanupConditions(cleanup: PivotQuery['cleanup'], ctx: MetricContext): string[] {
  const conds: string[] = [];
  for (const [field, thresholds] of Object.entries(cleanup ?? {})) {
    if (thresholds === null || thresholds === undefined) continue;
    const metric = CLEANUP_METRIC[field];
    if (metric === undefined) throw new Error(`unknown cleanup field ${field}`);
    const expr = metricSql(metric, {}, ctx);
    for (const [op, value] of Object.entries(thresholds)) {
      if (value === null || value === undefined) continue;
      const sqlOp = CLEANUP_OPS[op];
      if (sqlOp === undefined) throw new Error(`unknown cleanup operator ${op}`);
      const n = Number(value);
      if (!Number.isFinite(n)) throw new Error(`cleanup ${field}.${op}: ${JSON.stringify(value)} is not a number`);
      conds.push(`COALESCE(${expr}, 0) ${sqlOp} ${ctx.params.ref(n)}`);
    }
  }
  return conds;
}

/** Macros the compiled SQL uses; created once per database. */
export const SQL_MACROS = `
CREATE OR REPLACE MACRO tz_off(k, z) AS ((epoch(timezone(z, k)) - epoch(k)) / 60)::INTEGER;
CREATE OR REPLACE MACRO iso_tz(k, z) AS strftime(timezone(z, k), '%Y-%m-%dT%H:%M:%S')
  || CASE WHEN tz_off(k, z) < 0 THEN '-' ELSE '+' END
  || lpad((abs(tz_off(k, z)) // 60)::VARCHAR, 2, '0') || ':' || lpad((abs(tz_off(k, z)) % 60)::VARCHAR, 2, '0');
`;
