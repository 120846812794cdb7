import { didYouMean, PivotbotError, suggest } from '../core/index.js';
import {
  collectPivotProblems,
  DIMENSIONS,
  findDimension,
  findMetric,
  findMetricArgument,
  METRICS,
} from '../reporting/index.js';
import {
  type CompiledReport,
  canonicalTimeZone,
  compileReport,
  type RangeSpec,
  type ReportDefinition,
  resolveRange,
  segments,
} from '../reports/index.js';
import type { AdhocAst, FieldAst, Located, PostbacksAst, QueryAst, Span } from './ast.js';
import { checkEnum, cleanupOf, filterOf } from './compileConditions.js';
import { CLAUSE_WORDS, parseQuery } from './parseQuery.js';
import { QueryError } from './QueryError.js';

export interface QueryOptions {
  now: Date;
  /** Zone of the range when the query names none (PIVOTBOT_TIMEZONE); default UTC. */
  defaultTimeZone?: string;
}

/** An ad-hoc or postbacks query, compiled: a definition `runReport` can run, and its requests. */
export interface CompiledQuery {
  kind: 'adhoc' | 'postbacks';
  definition: ReportDefinition;
  compiled: CompiledReport;
  /** `csv` was asked for. */
  csv: boolean;
}

/** `run <report> [range]`: the caller looks the report up and runs it. */
export interface RunCommand {
  kind: 'run';
  report: Located<string>;
  range?: RangeSpec;
}

const RANGE_WORDS = ['yesterday', 'today', 'last', 'this', 'from', 'on'];

/**
 * Parses and compiles a query against the catalog: names in any case become canonical, unknown
 * ones fail with "Did you mean …?" pointing at the word, and the compiled request passes the same
 * validation the client applies before sending. Every failure is a `QueryError`.
 *
 * @example compileQuery('spend installs by countryCode yesterday', { now: new Date() }).compiled.request
 */
export function compileQuery(text: string, options: QueryOptions): CompiledQuery | RunCommand {
  const ast = parseQuery(text);
  try {
    return compileAst(ast, text, options);
  } catch (error) {
    if (error instanceof QueryError || !(error instanceof PivotbotError)) throw error;
    throw QueryError.at(whole(text), error.message);
  }
}

function compileAst(ast: QueryAst, text: string, options: QueryOptions): CompiledQuery | RunCommand {
  if (ast.kind === 'run') {
    const run: RunCommand = { kind: 'run', report: ast.report };
    if (ast.range) {
      checkRange(ast.range, options.defaultTimeZone ?? 'UTC', options.now);
      run.range = ast.range.value;
    }
    return run;
  }
  const definition = ast.kind === 'postbacks' ? postbacksDefinition(ast, text) : adhocDefinition(ast, text);
  if (ast.range) checkRange(ast.range, definition.query.timezone ?? options.defaultTimeZone ?? 'UTC', options.now);
  let compiled: CompiledReport;
  try {
    compiled = compileReport(definition, options);
  } catch (error) {
    if (error instanceof PivotbotError) throw QueryError.at(ast.range ?? whole(text), error.message);
    throw error;
  }
  if (compiled.request && ast.kind === 'adhoc') {
    const [problem] = collectPivotProblems(compiled.request, { now: options.now }).problems;
    if (problem)
      throw QueryError.at(spanOf(problem.path, problem.message, ast, text), problem.message, problem.suggestions);
  }
  return { kind: ast.kind, definition, compiled, csv: ast.kind === 'adhoc' && ast.csv };
}

function adhocDefinition(ast: AdhocAst, text: string): ReportDefinition {
  const metrics = ast.metrics.map((m) => metricSpec(m));
  const dimensions = ast.dimensions.map((d) => dimensionSpec(d));
  const keys = new Map<string, Span>();
  for (const [field, spec] of [
    ...ast.dimensions.map((f, i) => [f, dimensions[i]] as const),
    ...ast.metrics.map((f, i) => [f, metrics[i]] as const),
  ]) {
    if (!spec) continue;
    const key = (spec.as ?? spec.name).toLowerCase();
    if (keys.has(key))
      throw QueryError.at(
        field,
        `"${spec.as ?? spec.name}" appears twice; name one of them with "as", e.g. ${spec.name}(…) as other${spec.name.charAt(0).toUpperCase()}${spec.name.slice(1)}.`,
      );
    keys.set(key, field);
  }
  const query: ReportDefinition['query'] = { dimensions, metrics, range: ast.range?.value ?? 'yesterday' };
  if (ast.timezone) query.timezone = zone(ast.timezone);
  if (ast.where.length > 0) query.filter = filterOf(ast) as NonNullable<ReportDefinition['query']['filter']>;
  if (ast.having.length > 0) query.cleanup = cleanupOf(ast);
  if (ast.channel) query.channel = ast.channel.value;
  const outputs = [...metrics, ...dimensions].map((s) => s.as ?? s.name);
  const present: ReportDefinition['present'] = { compare: ast.compare?.value ?? 'none' };
  if (ast.top) present.top = ast.top.value;
  if (ast.sort) {
    const key = outputs.find((k) => k.toLowerCase() === ast.sort?.key.value.toLowerCase());
    if (!key) {
      const suggestions = suggest(ast.sort.key.value, outputs);
      throw QueryError.at(
        ast.sort.key,
        `Sort by a column of the query (${outputs.join(', ')}), not "${ast.sort.key.value}".${didYouMean(suggestions)}`,
        suggestions,
      );
    }
    present.sort = { by: key, order: ast.sort.desc === false ? 'asc' : 'desc' };
  }
  return { title: titleOf(text), query, present, mode: ast.mode ?? 'auto', alerts: [] };
}

function postbacksDefinition(ast: PostbacksAst, text: string): ReportDefinition {
  const track = (ast.track?.value ?? 'events').toLowerCase();
  if (track !== 'events' && track !== 'installs') {
    throw QueryError.at(
      ast.track ?? whole(text),
      `track is events or installs, not "${ast.track?.value}".`,
      suggest(track, ['events', 'installs']),
    );
  }
  const query: ReportDefinition['query'] = {
    dimensions: [],
    metrics: [],
    range: ast.range?.value ?? 'last_7_days',
    postbacks: {
      appId: ast.appId.value,
      keys: ast.keys.map((k) => k.value),
      track: track as 'events' | 'installs',
      ...(ast.revenue ? { includeRevenue: true } : {}),
      ...(ast.organic ? { organic: true } : {}),
    },
  };
  if (ast.appId.value > 2_147_483_647) throw QueryError.at(ast.appId, 'That app id is too large.');
  if (ast.timezone) query.timezone = zone(ast.timezone);
  return { title: titleOf(text), query, present: { compare: 'none' }, mode: 'sync', alerts: [] };
}

function metricSpec(field: FieldAst): { name: string; args?: Record<string, string | number | boolean>; as?: string } {
  const def = findMetric(field.name.value);
  if (!def)
    throw unknownName(
      field.name,
      'metric',
      METRICS.map((m) => m.name),
    );
  if (field.granularity)
    throw QueryError.at(field.granularity, `Only the date dimension takes a granularity; "${def.name}" is a metric.`);
  const spec: { name: string; args?: Record<string, string | number | boolean>; as?: string } = { name: def.name };
  if (field.args.length > 0) {
    const args: Record<string, string | number | boolean> = {};
    for (const arg of field.args) {
      const argDef = findMetricArgument(arg.name.value);
      if (!argDef || !def.args.includes(argDef.name)) {
        const suggestions = suggest(arg.name.value, def.args);
        const accepts = def.args.length > 0 ? `it accepts ${def.args.join(', ')}` : 'it takes no arguments';
        throw QueryError.at(
          arg.name,
          `${def.name} does not take "${arg.name.value}"; ${accepts}.${didYouMean(suggestions)}`,
          suggestions,
        );
      }
      args[argDef.name] = checkEnum(argDef.type, arg.value);
    }
    spec.args = args;
  }
  if (field.alias) spec.as = alias(field.alias);
  return spec;
}

function dimensionSpec(field: FieldAst): {
  name: string;
  args?: Record<string, string | number | boolean>;
  as?: string;
} {
  const def = findDimension(field.name.value);
  if (!def)
    throw unknownName(
      field.name,
      'dimension',
      DIMENSIONS.map((d) => d.name),
    );
  const spec: { name: string; args?: Record<string, string | number | boolean>; as?: string } = { name: def.name };
  const args: Record<string, string | number | boolean> = {};
  if (field.granularity) {
    if (def.name !== 'date')
      throw QueryError.at(field.granularity, `Only date takes a granularity (date:daily), not ${def.name}.`);
    args.granularity = checkEnum('Granularity', field.granularity);
  }
  for (const arg of field.args) {
    const argDef = def.args.find((a) => a.name.toLowerCase() === arg.name.value.toLowerCase());
    if (!argDef) {
      const names = def.args.map((a) => a.name);
      throw QueryError.at(
        arg.name,
        `${def.name} takes ${names.length > 0 ? names.join(', ') : 'no arguments'}, not "${arg.name.value}".${didYouMean(suggest(arg.name.value, names))}`,
      );
    }
    args[argDef.name] = checkEnum(argDef.type, arg.value);
  }
  if (Object.keys(args).length > 0) spec.args = args;
  if (field.alias) spec.as = alias(field.alias);
  return spec;
}

function zone(token: Located<string>): string {
  const canonical = canonicalTimeZone(token.value);
  if (canonical) return canonical;
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  const suggestions = suggest(token.value, zones);
  throw QueryError.at(
    token,
    `"${token.value}" is not a time zone (like America/Sao_Paulo or UTC).${didYouMean(suggestions)}`,
    suggestions,
  );
}

function alias(token: Located<string>): string {
  if (!/^[_A-Za-z][_0-9A-Za-z]*$/.test(token.value))
    throw QueryError.at(token, `"${token.value}" cannot be a column name; use letters, digits and _.`);
  return token.value;
}

function checkRange(range: Located<RangeSpec>, timeZone: string, now: Date): void {
  try {
    resolveRange(range.value, timeZone, now);
  } catch (error) {
    if (error instanceof PivotbotError) throw QueryError.at(range, error.message);
    throw error;
  }
}

function unknownName(token: Located<string>, what: string, names: readonly string[]): QueryError {
  const suggestions = suggest(token.value, names);
  const keyword = suggestions.length === 0 ? suggest(token.value, [...CLAUSE_WORDS, ...RANGE_WORDS]) : [];
  const all = [...suggestions, ...keyword];
  return QueryError.at(token, `Unknown ${what} "${token.value}".${didYouMean(all)}`, all);
}

/** Where a problem of `collectPivotProblems` sits in the query text. */
function spanOf(path: string, message: string, ast: AdhocAst, text: string): Span {
  const [head, index] = segments(path);
  if (head === 'metrics' && typeof index === 'number') return ast.metrics[index] ?? whole(text);
  if (head === 'dimensions' && typeof index === 'number') return ast.dimensions[index] ?? ast.bySpan ?? whole(text);
  if (head === 'dimensions') {
    // A forbidden combination: point at the later of the dimensions the message names.
    const named = message.split(':')[0]?.toLowerCase() ?? '';
    const culprit = [...ast.dimensions]
      .reverse()
      .find((d) => new RegExp(`\\b${d.name.value.toLowerCase()}\\b`).test(named));
    return culprit ?? ast.bySpan ?? whole(text);
  }
  if (head === 'filter')
    return ast.where.find((w) => w.field.value.toLowerCase() === String(index).toLowerCase()) ?? whole(text);
  if (head === 'cleanup') return ast.having[0] ?? whole(text);
  if (head === 'from' || head === 'to') return ast.range ?? whole(text);
  return whole(text);
}

function whole(text: string): Span {
  return { start: 0, end: Math.max(1, text.length) };
}

function titleOf(text: string): string {
  const trimmed = text.trim().replace(/\s+/g, ' ');
  return trimmed.length > 150 ? `${trimmed.slice(0, 147)}…` : trimmed || 'Ad-hoc query';
}
