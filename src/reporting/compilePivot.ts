import { invariant } from '../core/index.js';
import { getDimension, getInputType, getMetric, getMetricArgument, OPERATIONS } from './catalog/index.js';
import type { CleanupThresholds, InputValue, PivotColumn, PivotRequest, PostbackShareRequest } from './request.js';

/** A GraphQL document ready to send: every user value travels in `variables`, never in the text. */
export interface CompiledOperation {
  document: string;
  variables: Record<string, unknown>;
}

export interface CompiledPivot extends CompiledOperation {
  columns: PivotColumn[];
}

/** The fields of AsyncPivot the client reads. */
export const ASYNC_PIVOT_FIELDS =
  'id userId status created lastUpdated outputType url pivotParams { from to options dimensions metrics cleanup granularity filter cohortType cohortWindow context }';

/**
 * Compiles a (validated) `PivotRequest` into one `pivot` query with `results` and `totals`.
 *
 * @example compilePivot({ from: '2026-11-01', to: '2026-11-08', dimensions: [{ name: 'countryCode' }], metrics: [{ name: 'spend' }] })
 */
export function compilePivot(request: PivotRequest): CompiledPivot {
  const declarations: string[] = [];
  const variables: Record<string, unknown> = {};
  const declare = (name: string, type: string, value: unknown) => {
    declarations.push(`$${name}: ${type}`);
    variables[name] = value;
    return `$${name}`;
  };

  const pivotArgs = pivotArguments(request, declare);
  const columns: PivotColumn[] = [];
  const resultFields: string[] = [];
  const totalFields: string[] = [];

  request.dimensions.forEach((dimension, i) => {
    const def = getDimension(dimension.name);
    invariant(def, `compilePivot: unknown dimension ${dimension.name} (validate first)`);
    const args = fieldArguments(dimension.args, (arg) => def.args.find((a) => a.name === arg)?.type, `d${i}`, declare);
    const key = dimension.alias ?? dimension.name;
    resultFields.push(fieldText(key, dimension.name, args));
    columns.push({ key, kind: 'dimension', name: dimension.name, args: dimension.args ?? {} });
  });
  request.metrics.forEach((metric, i) => {
    invariant(getMetric(metric.name), `compilePivot: unknown metric ${metric.name} (validate first)`);
    const args = fieldArguments(metric.args, (arg) => getMetricArgument(arg)?.type, `m${i}`, declare);
    const key = metric.alias ?? metric.name;
    const text = fieldText(key, metric.name, args);
    resultFields.push(text);
    totalFields.push(text);
    columns.push({ key, kind: 'metric', name: metric.name, args: metric.args ?? {} });
  });

  const wantTotals = request.totals !== false && totalFields.length > 0;
  const selection = `results { ${resultFields.join(' ')} }${wantTotals ? ` totals { ${totalFields.join(' ')} }` : ''}`;
  const header = declarations.length > 0 ? `(${declarations.join(', ')})` : '';
  const document = `query pivot${header} { pivot(${pivotArgs.join(', ')}) { ${selection} } }`;
  return { document, variables, columns };
}

/** Compiles a `createAsyncPivot` mutation; async input takes plain dimension and metric names. */
export function compileCreateAsyncPivot(request: PivotRequest): CompiledOperation {
  const input: Record<string, unknown> = {
    from: request.from,
    to: request.to,
    dimensions: request.dimensions.map((d) => d.name),
    metrics: request.metrics.map((m) => m.name),
  };
  if (request.options) input.options = request.options;
  if (request.filter) input.filter = request.filter;
  if (request.cleanup) input.cleanup = cleanupValue(request.cleanup);
  if (request.cohortType) input.cohortType = request.cohortType;
  if (request.cohortWindow) input.cohortWindow = request.cohortWindow;
  if (request.context) input.context = request.context;
  if (request.qualityType) input.quality_type = request.qualityType;
  return {
    document: `mutation createAsyncPivot($input: CreateAsyncPivotInput!) { createAsyncPivot(Input: $input) { asyncPivot { ${ASYNC_PIVOT_FIELDS} } } }`,
    variables: { input },
  };
}

/** Compiles an `asyncPivot` query for one job. */
export function compileAsyncPivot(pivotId: string): CompiledOperation {
  return {
    document: `query asyncPivot($pivotId: String!) { asyncPivot(pivotId: $pivotId) { ${ASYNC_PIVOT_FIELDS} } }`,
    variables: { pivotId },
  };
}

/** Compiles an `asyncPivots` query: the given jobs in one request, or all of the caller's. */
export function compileAsyncPivots(pivotIds?: readonly string[]): CompiledOperation {
  return {
    document: `query asyncPivots($pivotIds: [String!]) { asyncPivots(pivotIds: $pivotIds) { ${ASYNC_PIVOT_FIELDS} } }`,
    variables: pivotIds === undefined ? {} : { pivotIds },
  };
}

/** Compiles a `postbackShare` query; `filter.appId.equals` is always set, as the service requires. */
export function compilePostbackShare(request: PostbackShareRequest): CompiledOperation {
  const variables: Record<string, unknown> = {
    from: request.from,
    to: request.to,
    track: request.track,
    postbackKeys: request.postbackKeys,
    filter: { ...(request.filter ?? {}), appId: { equals: request.appId } },
  };
  const declarations = [
    '$from: DateTime!',
    '$to: DateTime!',
    '$track: PostbackTrack!',
    '$postbackKeys: [String!]!',
    '$filter: Filter',
  ];
  const args = ['from: $from', 'to: $to', 'track: $track', 'postbackKeys: $postbackKeys', 'filter: $filter'];
  const optional: Array<[keyof PostbackShareRequest, string]> = [
    ['includeRevenue', 'Boolean!'],
    ['revenueKey', 'String!'],
    ['organic', 'Boolean!'],
  ];
  for (const [name, type] of optional) {
    if (request[name] === undefined) continue;
    declarations.push(`$${name}: ${type}`);
    args.push(`${name}: $${name}`);
    variables[name] = request[name];
  }
  const selection = 'results { postbackKey totalCount totalRevenue results { value count percentage revenue } }';
  return {
    document: `query postbackShare(${declarations.join(', ')}) { postbackShare(${args.join(', ')}) { ${selection} } }`,
    variables,
  };
}

type Declare = (name: string, type: string, value: unknown) => string;

function pivotArguments(request: PivotRequest, declare: Declare): string[] {
  const op = OPERATIONS.find((o) => o.name === 'pivot');
  invariant(op, 'catalog has no pivot operation');
  const typeOf = (name: string): string => {
    const arg = op.args.find((a) => a.name === name);
    invariant(arg, `catalog pivot has no argument ${name}`);
    return arg.type;
  };
  const values: Array<[string, unknown]> = [
    ['from', request.from],
    ['to', request.to],
    ['filter', request.filter],
    ['cleanup', request.cleanup === undefined ? undefined : cleanupValue(request.cleanup)],
    ['cohortType', request.cohortType],
    ['cohortWindow', request.cohortWindow],
    ['context', request.context],
    ['quality_type', request.qualityType],
    ['options', request.options],
    ['appendCtvData', request.appendCtvData],
    ['campaignChannel', request.campaignChannel],
  ];
  return values
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `${name}: ${declare(name, typeOf(name), value)}`);
}

function fieldArguments(
  args: Readonly<Record<string, InputValue>> | undefined,
  typeOf: (arg: string) => string | undefined,
  prefix: string,
  declare: Declare,
): string[] {
  if (!args) return [];
  return Object.entries(args).map(([name, value]) => {
    const type = typeOf(name);
    invariant(type, `compilePivot: unknown argument ${name} (validate first)`);
    return `${name}: ${declare(`${prefix}_${name}`, type, value)}`;
  });
}

function fieldText(key: string, name: string, args: readonly string[]): string {
  const call = args.length > 0 ? `${name}(${args.join(', ')})` : name;
  return key === name ? call : `${key}: ${call}`;
}

/** Long thresholds travel as strings (exact at any size); Float thresholds as numbers. */
function cleanupValue(cleanup: Readonly<Record<string, CleanupThresholds>>): Record<string, Record<string, unknown>> {
  const cleanupType = getInputType('Cleanup');
  const out: Record<string, Record<string, unknown>> = {};
  for (const [field, thresholds] of Object.entries(cleanup)) {
    const isLong = cleanupType?.fields.find((f) => f.name === field)?.type.startsWith('Long') ?? false;
    const converted: Record<string, unknown> = {};
    for (const [op, value] of Object.entries(thresholds)) {
      if (value === undefined) continue;
      converted[op] = isLong ? String(value) : Number(value);
    }
    out[field] = converted;
  }
  return out;
}
