/**
 * How each requested dimension is grouped in the pivot query's `base` and formatted in its result
 * rows: time buckets in the request's zone (DST-safe), formatted dates, and the columns that need a
 * join or a bound value; every other dimension is a column of `dimensionSql.ts`.
 */
import { jodaToStrftime } from './dateTime.js';
import { DIMENSION_COLUMNS } from './dimensionSql.js';
import type { JoinName } from './joins.js';
import type { Args, QualityType } from './metricSql.js';
import type { SqlParams } from './SqlParams.js';

const TRUNC_UNIT: Readonly<Record<string, string>> = {
  DAILY: 'day',
  WEEKLY: 'week',
  MONTHLY: 'month',
  QUARTERLY: 'quarter',
  YEARLY: 'year',
  MILLENNIUM: 'millennium',
};

/** What a dimension's SQL depends on besides its own arguments. */
export interface DimensionScope {
  params: SqlParams;
  joins: Set<JoinName>;
  /** The request's zone as a placeholder; null for UTC (the session zone), where no conversion is needed. */
  z: string | null;
  /** The instant a fact row is bucketed by (`cohortTime`). */
  t: string;
  fromSql: string;
  /** The granularity of `date` fields that give none, and the one of the request's `date` dimension. */
  defaultGranularity: string;
  granularity: string;
  /** The request has a `date` dimension. */
  hasDate: boolean;
  qualityType: QualityType;
  /** siteBundle is NULL on rows older than this instant (ISO). */
  siteBundleSince: string;
}

/** One dimension's grouping expression in `base` (named `alias`) and how its result column is formatted. */
export function dimensionExpr(
  d: { name: string; args: Args },
  alias: string,
  s: DimensionScope,
): { expr: string; formatted: string } {
  const { z, t, params } = s;
  const local = (instant: string): string => (z === null ? instant : `timezone(${z}, ${instant})`);
  switch (d.name) {
    case 'date': {
      const g = String(d.args.granularity ?? s.defaultGranularity);
      if (z !== null && TRUNC_UNIT[g] !== undefined) {
        // Day and longer buckets group on the local wall-clock start (one zone conversion per
        // fact row) and turn back into an instant only for the result rows.
        return {
          expr: `date_trunc('${TRUNC_UNIT[g]}', timezone(${z}, ${t}))`,
          formatted: `iso_tz(timezone(${z}, ${alias}), ${z})`,
        };
      }
      return {
        expr: bucketSql(g, t, z, s.fromSql),
        formatted: z === null ? `strftime(${alias}, '%Y-%m-%dT%H:%M:%S+00:00')` : `iso_tz(${alias}, ${z})`,
      };
    }
    case 'dateToStr': {
      const format = params.ref(jodaToStrftime(String(d.args.formatString ?? 'yyyy-MM-dd')));
      const unit = TRUNC_UNIT[s.granularity];
      const expr =
        z !== null && unit !== undefined
          ? `strftime(date_trunc('${unit}', timezone(${z}, ${t})), ${format})`
          : `strftime(${local(bucketSql(s.granularity, t, z, s.fromSql))}, ${format})`;
      return { expr, formatted: alias };
    }
    case 'dayOfWeek':
      return { expr: `dayname(${local(t)})`, formatted: alias };
    case 'timeOfDay':
      return { expr: s.granularity === 'HOURLY' && s.hasDate ? `hour(${local(t)})::INTEGER` : '0', formatted: alias };
    case 'siteBundle': {
      s.joins.add('s');
      const since = params.ref(s.siteBundleSince.replace('T', ' ').replace('Z', '+00'));
      return { expr: `CASE WHEN f.ts >= ${since}::TIMESTAMPTZ THEN s.bundle END`, formatted: alias };
    }
    case 'goalType':
      s.joins.add('c');
      return { expr: s.qualityType === 'op' ? 'c.goal_type' : 'c.contr_goal_type', formatted: alias };
    case 'adUrl': {
      const format = String(d.args.adPreviewFormat ?? 'JPEG').toLowerCase();
      const expr = `'https://cdn.sandbox.pivotbot.dev/ads/' || f.ad_id || '.' || ${params.ref(format.replace(/[^a-z]/g, ''))}`;
      return { expr, formatted: alias };
    }
    default: {
      const column = DIMENSION_COLUMNS[d.name];
      if (column === undefined) throw new Error(`unknown dimension ${d.name}`);
      for (const j of column.joins) s.joins.add(j);
      return { expr: column.sql, formatted: alias };
    }
  }
}

/** Start instant of the bucket holding `t` at a granularity, in zone `z` (DST-safe: hours are cut in local time). */
function bucketSql(granularity: string, t: string, z: string | null, fromSql: string): string {
  if (granularity === 'NONE') return fromSql;
  if (z === null) {
    // UTC, the session zone: TIMESTAMPTZ truncation needs no conversion (the common, fast path).
    const unit = granularity === 'HOURLY' ? 'hour' : TRUNC_UNIT[granularity];
    if (unit === undefined) throw new Error(`unknown granularity ${granularity}`);
    return `date_trunc('${unit}', ${t})`;
  }
  if (granularity === 'HOURLY') return `(${t} - (timezone(${z}, ${t}) - date_trunc('hour', timezone(${z}, ${t}))))`;
  const unit = TRUNC_UNIT[granularity];
  if (unit === undefined) throw new Error(`unknown granularity ${granularity}`);
  return `timezone(${z}, date_trunc('${unit}', timezone(${z}, ${t})))`;
}
