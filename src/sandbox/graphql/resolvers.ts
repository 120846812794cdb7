/**
 * Resolvers of the five operations. `pivot` reads its own selection set, compiles one SQL query
 * and returns rows keyed by field + arguments; `pivotField` answers each aliased field from them.
 */
import { GraphQLError, type GraphQLResolveInfo } from 'graphql';
import { didYouMean, suggest } from '../../core/index.js';
import { DIMENSIONS, getDimension, getMetric, METRICS } from '../../reporting/index.js';
import type { AsyncJob, AsyncJobRunner, PivotParamsView } from '../asyncJobs.js';
import type { SandboxDb } from '../db.js';
import { type PostbackShareArgs, postbackShare } from '../postbackShare.js';
import { compilePivot, type FieldRequest } from '../sql/compileSql.js';
import { isoWithOffset } from '../sql/dateTime.js';
import type { Caller } from '../tokenService.js';
import { buildPivotQuery, type PivotArgs, type QueryEnv } from './buildQuery.js';
import type { SchemaResolvers } from './schema.js';
import { collectPivotSelection, fieldKey } from './selection.js';

export interface RequestContext {
  caller: Caller;
}

export interface ResolverDeps {
  db: SandboxDb;
  jobs: AsyncJobRunner;
  env: QueryEnv;
  /** Signed query string for a file path (`expires=…&signature=…`) and the base URL. */
  signedUrl(path: string): string;
}

const DIMENSION_NAMES: ReadonlySet<string> = new Set(DIMENSIONS.map((d) => d.name));
type Row = ReadonlyMap<string, unknown>;

const isoUtc = (d: Date): string => d.toISOString().replace('Z', '+00:00');

function unknownName(kind: string, name: string, candidates: readonly string[]): GraphQLError {
  return new GraphQLError(`Unknown ${kind} "${name}".${didYouMean(suggest(name, candidates))}`);
}

/** Default arguments of a field as graphql-js would coerce them for a bare `name` selection. */
function defaultArgs(args: readonly { name: string; type: string; default?: unknown }[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const a of args) if (a.default !== undefined) out[a.name] = a.default;
  return out;
}

/** Fields of an async pivot, by name, with default arguments (date at `granularity`, adUrl a JPEG). */
function asyncFields(dimensions: readonly string[], metrics: readonly string[], granularity: string) {
  const dims: FieldRequest[] = [];
  const seen = new Set<string>();
  for (const name of dimensions) {
    const def = getDimension(name);
    if (def === undefined)
      throw unknownName(
        'dimension',
        name,
        DIMENSIONS.map((d) => d.name),
      );
    if (seen.has(name)) continue;
    seen.add(name);
    const args: Record<string, unknown> = defaultArgs(def.args);
    if (name === 'date') args.granularity ??= granularity;
    if (name === 'adUrl') args.adPreviewFormat ??= 'JPEG';
    dims.push({ name, args, key: fieldKey(name, args) });
  }
  const mets: FieldRequest[] = [];
  for (const name of metrics) {
    const def = getMetric(name);
    if (def === undefined)
      throw unknownName(
        'metric',
        name,
        METRICS.map((m) => m.name),
      );
    if (seen.has(name)) continue;
    seen.add(name);
    mets.push({ name, args: {}, key: name });
  }
  return { dimensions: dims, metrics: mets };
}

/** JSON text of an input as the caller gave it: defaults left null by GraphQL are dropped. */
const json = (value: unknown): string | null =>
  value === null || value === undefined
    ? null
    : JSON.stringify(value, (_k, v: unknown) => (v === null ? undefined : v));

export function createResolvers(deps: ResolverDeps): SchemaResolvers {
  const view = (job: AsyncJob) => ({
    id: job.id,
    userId: job.userId,
    pivotParams: job.pivotParams,
    status: job.status,
    created: isoUtc(job.created),
    lastUpdated: isoUtc(job.lastUpdated),
    outputType: 'S3',
    url: job.status === 'READY' ? deps.signedUrl(`/v1/files/${job.id}.csv`) : null,
  });
  const findJob = (id: string, ctx: RequestContext): AsyncJob => {
    const job = deps.jobs.get(id, ctx.caller.userId);
    if (job === undefined) throw new GraphQLError(`Async pivot "${id}" not found.`);
    return job;
  };

  return {
    operations: {
      async pivot(_source: unknown, args: PivotArgs, _ctx: RequestContext, info: GraphQLResolveInfo) {
        const selection = collectPivotSelection(info, DIMENSION_NAMES);
        const query = buildPivotQuery(args, selection, deps.env, true);
        const compiled = compilePivot(query);
        let rows: Record<string, unknown>[];
        try {
          rows = await deps.db.query(compiled.sql, compiled.params);
        } catch (error) {
          throw new GraphQLError(`pivot failed: ${error instanceof Error ? error.message : String(error)}`);
        }
        const toRow = (r: Record<string, unknown>): Row =>
          new Map(compiled.columns.map((c) => [c.key, r[c.column] ?? null]));
        const results = rows.filter((r) => r.__t === 0).map(toRow);
        const totalsRow = rows.find((r) => r.__t === 1);
        return { results, totals: totalsRow === undefined ? new Map() : toRow(totalsRow) };
      },
      asyncPivot: (_source: unknown, args: { pivotId: string }, ctx: RequestContext) =>
        view(findJob(args.pivotId, ctx)),
      asyncPivots: (_source: unknown, args: { pivotIds?: readonly string[] | null }, ctx: RequestContext) =>
        args.pivotIds === null || args.pivotIds === undefined
          ? deps.jobs.list(ctx.caller.userId).map(view)
          : args.pivotIds.map((id) => view(findJob(id, ctx))),
      postbackShare: (_source: unknown, args: PostbackShareArgs) => postbackShare(deps.db, args),
      createAsyncPivot(
        _source: unknown,
        args: { Input: PivotArgs & { dimensions?: string[] | null; metrics?: string[] | null } },
        ctx: RequestContext,
      ) {
        const input = args.Input;
        const fields = asyncFields(input.dimensions ?? [], input.metrics ?? [], input.granularity ?? 'DAILY');
        if (fields.dimensions.length + fields.metrics.length === 0) {
          throw new GraphQLError('createAsyncPivot: give at least one dimension or metric.');
        }
        const query = buildPivotQuery(input, fields, deps.env, false);
        const params: PivotParamsView = {
          // Result dates carry their offset (the spec's DateTime); so do the bounds echoed here.
          from: isoWithOffset(query.from, query.timeZone),
          to: isoWithOffset(query.to, query.timeZone),
          options: json(input.options),
          dimensions: input.dimensions ?? null,
          metrics: input.metrics ?? null,
          cleanup: json(input.cleanup),
          granularity: input.granularity ?? (fields.dimensions.some((d) => d.name === 'date') ? 'DAILY' : null),
          filter: json(input.filter),
          cohortType: input.cohortType ?? null,
          cohortWindow: json(input.cohortWindow),
          context: json(input.context),
        };
        return { asyncPivot: view(deps.jobs.create(ctx.caller.userId, query, params)) };
      },
    },
    pivotField: (row: Row, args: Record<string, unknown>, _ctx: unknown, info: GraphQLResolveInfo) =>
      row.get(fieldKey(info.fieldName, args)) ?? null,
  };
}
