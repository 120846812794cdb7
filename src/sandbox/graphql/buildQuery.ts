/**
 * Turns the arguments of `pivot` (or a createAsyncPivot input) plus the requested fields into a
 * PivotQuery, enforcing what the schema cannot: known time zone, dimension rules, CTV field rules.
 */
import { GraphQLError } from 'graphql';
import { DIMENSION_RULES, getDimension } from '../../reporting/index.js';
import type { Channel, CohortType, FieldRequest, PivotQuery } from '../sql/compileSql.js';
import { isValidTimeZone, parseDateTimeInput } from '../sql/dateTime.js';
import type { QualityType } from '../sql/metricSql.js';

/** The arguments `pivot` and CreateAsyncPivotInput have in common, as graphql-js coerced them. */
export interface PivotArgs {
  from: string;
  to: string;
  filter?: Record<string, unknown> | null;
  cleanup?: Record<string, Record<string, unknown> | null> | null;
  cohortType?: CohortType | null;
  cohortWindow?: { amount: number; period: string } | null;
  context?: { priority?: number | null; sqlTimeZone?: string | null } | null;
  quality_type?: QualityType | null;
  options?: { removeZeroRows?: boolean } | null;
  appendCtvData?: boolean;
  campaignChannel?: Channel | null;
  /** Deprecated (see legacyArguments.ts): the granularity of `date` fields that give none. */
  granularity?: string | null;
}

export interface QueryEnv {
  /** siteBundle is NULL before this instant (3 months before today). */
  siteBundleSince: string;
}

function dateInput(value: string, argument: string) {
  const parsed = parseDateTimeInput(value);
  if (parsed === null) throw new GraphQLError(`${argument}: ${JSON.stringify(value)} is not a DateTime`);
  return parsed;
}

/** The data channel a request reads: campaignChannel wins over appendCtvData. */
export function channelOf(args: Pick<PivotArgs, 'appendCtvData' | 'campaignChannel'>): Channel {
  if (args.campaignChannel !== undefined && args.campaignChannel !== null) return args.campaignChannel;
  return args.appendCtvData === true ? 'ALL' : 'MOBILE';
}

/** Throws a GraphQL error when the dimensions break a rule of the spec or a CTV field restriction. */
export function checkDimensionRules(names: readonly string[], channel: Channel): void {
  const set = new Set(names);
  for (const rule of DIMENSION_RULES) {
    const left = rule.left.filter((n) => set.has(n));
    const right = rule.right.filter((n) => set.has(n));
    if (left.length > 0 && right.length > 0) {
      throw new GraphQLError(`Unsupported dimension combination (${[...left, ...right].join(', ')}): ${rule.message}.`);
    }
  }
  for (const name of set) {
    const def = getDimension(name);
    if (def === undefined) continue;
    if (channel !== 'MOBILE' && def.ctvReplacement !== undefined) {
      throw new GraphQLError(
        `Dimension ${name} is not available when connected-TV data is appended (appendCtvData: true or campaignChannel: ${channel}); use ${def.ctvReplacement} instead.`,
      );
    }
    if (channel === 'MOBILE' && def.ctvOnly) {
      throw new GraphQLError(
        `Dimension ${name} applies only when connected-TV data is appended: set appendCtvData: true or campaignChannel: CTV or ALL.`,
      );
    }
  }
}

/** Builds the query; throws GraphQL errors users can act on. */
export function buildPivotQuery(
  args: PivotArgs,
  fields: { dimensions: readonly FieldRequest[]; metrics: readonly FieldRequest[] },
  env: QueryEnv,
  includeTotals: boolean,
): PivotQuery {
  const zone = args.context?.sqlTimeZone ?? 'UTC';
  if (!isValidTimeZone(zone)) {
    throw new GraphQLError(
      `context.sqlTimeZone: ${JSON.stringify(zone)} is not a known time zone; use a Joda-Time/IANA id such as "America/New_York" or "UTC".`,
    );
  }
  const channel = channelOf(args);
  checkDimensionRules(
    fields.dimensions.map((d) => d.name),
    channel,
  );
  for (const [field, thresholds] of Object.entries(args.cleanup ?? {})) {
    for (const [op, value] of Object.entries(thresholds ?? {})) {
      if (value !== null && value !== undefined && !Number.isFinite(Number(value))) {
        throw new GraphQLError(`cleanup.${field}.${op}: ${JSON.stringify(value)} is not a number`);
      }
    }
  }
  return {
    from: dateInput(args.from, 'from'),
    to: dateInput(args.to, 'to'),
    timeZone: zone,
    dimensions: fields.dimensions,
    metrics: fields.metrics,
    filter: args.filter ?? null,
    cleanup: args.cleanup ?? null,
    cohortType: args.cohortType ?? null,
    cohortWindow: args.cohortWindow ?? null,
    qualityType: args.quality_type ?? 'op',
    removeZeroRows: args.options?.removeZeroRows === true,
    channel,
    defaultGranularity: args.granularity ?? 'DAILY',
    includeTotals,
    siteBundleSince: env.siteBundleSince,
  };
}
