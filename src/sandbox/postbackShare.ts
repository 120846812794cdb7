/**
 * `postbackShare`: the distribution of postback values (count, percentage, optional revenue) for
 * chosen keys, which are direct columns of the postbacks table or keys of its `params` map.
 */
import { GraphQLError } from 'graphql';
import { POSTBACK_COLUMNS } from './data/postbacksSql.js';
import type { SandboxDb } from './db.js';
import { filterConditions } from './sql/compileSql.js';
import { dateTimeSql, parseDateTimeInput } from './sql/dateTime.js';
import { SqlParams } from './sql/SqlParams.js';

export interface PostbackShareArgs {
  from: string;
  to: string;
  track: 'EVENTS' | 'INSTALLS';
  postbackKeys: readonly string[];
  filter?: Record<string, unknown> | null;
  includeRevenue: boolean;
  revenueKey: string;
  organic: boolean;
}

/** Filter fields postbackShare understands (a postback knows its app, campaign and country only). */
const FILTER_FIELDS: Readonly<Record<string, string>> = {
  appId: 'app_id',
  campaignId: 'campaign_id',
  countryCode: 'country',
};

/** A key: a column of ours by name, or a `params` map key bound as a value. */
function keyExpr(key: string, params: SqlParams): string {
  return (POSTBACK_COLUMNS as readonly string[]).includes(key)
    ? `CAST(${key} AS VARCHAR)`
    : `map_extract_value(params, ${params.ref(key)})`;
}

function revenueExpr(key: string, params: SqlParams): string {
  return (POSTBACK_COLUMNS as readonly string[]).includes(key)
    ? `TRY_CAST(${key} AS DOUBLE)`
    : `TRY_CAST(map_extract_value(params, ${params.ref(key)}) AS DOUBLE)`;
}

function where(args: PostbackShareArgs, params: SqlParams): string[] {
  const appId = (args.filter?.appId as { equals?: unknown } | null | undefined)?.equals;
  if (typeof appId !== 'number') {
    throw new GraphQLError(
      'postbackShare: filter must include appId with equals, e.g. filter: { appId: { equals: 101 } }',
    );
  }
  const from = parseDateTimeInput(args.from);
  const to = parseDateTimeInput(args.to);
  if (from === null || to === null) throw new GraphQLError('postbackShare: from and to must be DateTimes');
  const conds = [
    `ts >= ${dateTimeSql(from, 'UTC', params)}`,
    `ts < ${dateTimeSql(to, 'UTC', params)}`,
    `track = ${params.ref(args.track)}`,
    `organic = ${params.ref(args.organic)}`,
  ];
  for (const [field, spec] of Object.entries(args.filter ?? {})) {
    if (spec === null || spec === undefined) continue;
    const column = FILTER_FIELDS[field];
    if (column === undefined) {
      throw new GraphQLError(
        `postbackShare: filter field ${field} is not supported; use ${Object.keys(FILTER_FIELDS).join(', ')}`,
      );
    }
    conds.push(...filterConditions(column, spec as Record<string, unknown>, params));
  }
  return conds;
}

export interface PostbackShareView {
  results: {
    postbackKey: string;
    results: { value: string | null; count: string; percentage: number; revenue: number | null }[];
    totalCount: string;
    totalRevenue: number | null;
  }[];
}

/** Runs one query per key. @example await postbackShare(db, { ...args, postbackKeys: ['event_name'] }) */
export async function postbackShare(db: SandboxDb, args: PostbackShareArgs): Promise<PostbackShareView> {
  const results: PostbackShareView['results'] = [];
  for (const key of args.postbackKeys) {
    const params = new SqlParams();
    const conds = where(args, params).join(' AND ');
    const revenue = args.includeRevenue ? `SUM(${revenueExpr(args.revenueKey, params)})` : 'NULL::DOUBLE';
    const statement = params.finish(
      `SELECT ${keyExpr(key, params)} AS value, count(*)::BIGINT AS n, ${revenue} AS revenue
       FROM postbacks WHERE ${conds} GROUP BY ALL ORDER BY n DESC, value NULLS LAST`,
    );
    const rows = await db.query(statement.sql, statement.values);
    const total = rows.reduce((sum, r) => sum + Number(r.n), 0);
    const totalRevenue = args.includeRevenue ? rows.reduce((sum, r) => sum + Number(r.revenue ?? 0), 0) : null;
    results.push({
      postbackKey: key,
      results: rows.map((r) => ({
        value: r.value === null || r.value === undefined ? null : String(r.value),
        count: String(r.n),
        percentage: total === 0 ? 0 : (Number(r.n) / total) * 100,
        revenue: args.includeRevenue ? Number(r.revenue ?? 0) : null,
      })),
      totalCount: String(total),
      totalRevenue,
    });
  }
  return { results };
}
