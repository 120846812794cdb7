import { didYouMean, editDistance, PivotbotError, suggest } from '../core/index.js';
import { collectPivotProblems, findDimension, findMetric, findMetricArgument, getMetric } from '../reporting/index.js';
import {
  type CompiledReport,
  compileReport,
  type RangeSpec,
  type ReportDefinition,
  resolveRange,
  segments,
} from '../reports/index.js';
import { canonicalTimeZone } from '../time/index.js';
import type { AdhocAst, FieldAst, Located, OrderAst, PostbacksAst, QueryAst, Span } from './ast.js';
import { checkEnum, cleanupOf, filterOf } from './compileConditions.js';
import { concrete } from './concreteRange.js';
import { describeUnderstood } from './describeUnderstood.js';
import { defaultGlossary, type GlossaryIndex } from './GlossaryIndex.js';
import { meaningOf } from './meaningOf.js';
import { CLAUSE_WORDS, parseQuery } from './parseQuery.js';
import { QueryError } from './QueryError.js';
import { costKey } from './sortWords.js';

export interface QueryOptions {
  now: Date;
  /** Zone of the range when the query names none (PIVOTBOT_TIMEZONE); default UTC. */
  defaultTimeZone?: string;
  /** The glossary with the workspace's words (`reports/glossary.yaml`); default the built-in one. */
  glossary?: GlossaryIndex;
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
  const ast = parseQuery(text, options.glossary ?? defaultGlossary());
  try {
    return compileAst(ast, text, options);
  } catch (error) {
    if (error instanceof QueryError || !(error instanceof PivotbotError)) throw error;
    throw QueryError.at(whole(text), error.message);
  }
}

function compileAst(ast: QueryAst, text: string, options: QueryOptions): CompiledQuery | RunCommand {
  const glossary = options.glossary ?? defaultGlossary();
  if (ast.kind === 'run') {
    const run: RunCommand = { kind: 'run', report: ast.report };
    if (ast.range) {
      const zone = options.defaultTimeZone ?? 'UTC';
      run.range = concrete(ast.range, zone, options.now);
      checkRange({ ...ast.range, value: run.range }, zone, options.now);
    }
    return run;
  }
  const definition = ast.kind === 'postbacks' ? postbacksDefinition(ast, text) : adhocDefinition(ast, text, glossary);
  const range = ast.range;
  if (range) {
    const zone = definition.query.timezone ?? options.defaultTimeZone ?? 'UTC';
    definition.query.range = concrete(range, zone, options.now);
    checkRange({ ...range, value: definition.query.range }, zone, options.now);
  }
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
  // The description of an ad-hoc definition is what was understood: the answer's first line.
  definition.description = describeUnderstood(definition, options.defaultTimeZone ?? 'UTC');
  return { kind: ast.kind, definition, compiled, csv: ast.kind === 'adhoc' && ast.csv };
}

/**
 * "vs last month" is the same days one month earlier; on the range `last_month` that is the month
 * before, its previous period, which it is written as.
 */
function compareOf(ast: AdhocAst): ReportDefinition['present']['compare'] {
  const compare = ast.compare?.value ?? 'none';
  const range = ast.range?.value ?? ast.defaultRange;
  return compare === 'same_period_last_month' && range === 'last_month' ? 'previous_period' : compare;
}

function adhocDefinition(ast: AdhocAst, text: string, glossary: GlossaryIndex): ReportDefinition {
  const metrics = ast.metrics.map((m) => metricSpec(m, glossary));
  const dimensions = ast.dimensions.map((d) => dimensionSpec(d, glossary));
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
  const query: ReportDefinition['query'] = {
    dimensions,
    metrics,
    range: ast.range?.value ?? ast.defaultRange ?? 'yesterday',
  };
  if (ast.timezone) query.timezone = zone(ast.timezone);
  if (ast.where.length > 0) query.filter = filterOf(ast, glossary) as NonNullable<ReportDefinition['query']['filter']>;
  if (ast.having.length > 0) query.cleanup = cleanupOf(ast);
  if (ast.channel) query.channel = ast.channel.value;
  const outputs = [...metrics, ...dimensions].map((s) => s.as ?? s.name);
  const present: ReportDefinition['present'] = { compare: compareOf(ast) };
  if (ast.top) present.top = ast.top.value;
  if (ast.sort) present.sort = sortOf(ast.sort, outputs, metrics, glossary);
  else if (ast.top && metrics[0]) present.sort = { by: metrics[0].as ?? metrics[0].name, order: 'desc' };
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

export type Spec = { name: string; args?: Record<string, string | number | boolean>; as?: string };

/** The sort of the query: a column it outputs, by its name or a glossary word ("cpi"). */
function sortOf(
  order: OrderAst,
  outputs: readonly string[],
  metrics: readonly Spec[],
  glossary: GlossaryIndex,
): NonNullable<ReportDefinition['present']['sort']> {
  const written = order.key.value;
  let key = outputs.find((k) => k.toLowerCase() === written.toLowerCase());
  if (!key && written === '' && order.cost)
    key = costKey(
      metrics.map((m) => ({ key: m.as ?? m.name, name: m.name })),
      order.key,
    );
  if (!key && written === '') key = metrics[0]?.as ?? metrics[0]?.name;
  const term = key ? undefined : glossary.lookup(written)?.means;
  if (!key && term?.kind === 'metric') key = term.as ?? outputs.find((k) => k === term.metric);
  if (!key && term?.kind === 'dimension') key = outputs.find((k) => k === term.dimension);
  if (!key) {
    const suggestions = suggest(written, outputs);
    throw QueryError.at(
      order.key,
      `Sort by a column of the query (${outputs.join(', ')}), not "${written}".${didYouMean(suggestions)}`,
      suggestions,
    );
  }
  if (order.rank) {
    // "best" follows the metric: the lowest CPI is the best, the highest ROAS is.
    const spec = metrics.find((m) => (m.as ?? m.name) === key);
    const lowIsGood = spec !== undefined && getMetric(spec.name)?.polarity === 'lower_is_better';
    return { by: key, order: (order.rank === 'best') === lowIsGood ? 'asc' : 'desc' };
  }
  return { by: key, order: order.desc === false ? 'asc' : 'desc' };
}

export function metricSpec(field: FieldAst, glossary: GlossaryIndex): Spec {
  const term = findMetric(field.name.value) ? undefined : meaningOf(field.name, 'metric', glossary);
  const def = findMetric(term?.name ?? field.name.value);
  if (!def) throw unknownName(field.name, 'metric', glossary);
  if (field.granularity)
    throw QueryError.at(field.granularity, `Only the date dimension takes a granularity; "${def.name}" is a metric.`);
  const spec: Spec = { name: def.name };
  if (term?.args) spec.args = { ...term.args };
  if (term?.as && !field.alias) spec.as = term.as;
  if (field.args.length > 0) {
    const args: Record<string, string | number | boolean> = { ...spec.args };
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

export function dimensionSpec(field: FieldAst, glossary: GlossaryIndex): Spec {
  const term = findDimension(field.name.value) ? undefined : meaningOf(field.name, 'dimension', glossary);
  const def = findDimension(term?.name ?? field.name.value);
  if (!def) throw unknownName(field.name, 'dimension', glossary);
  const spec: Spec = { name: def.name };
  const args: Record<string, string | number | boolean> = {};
  if (term?.granularity && !field.granularity) args.granularity = term.granularity;
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

function unknownName(token: Located<string>, what: 'metric' | 'dimension', glossary: GlossaryIndex): QueryError {
  const { names: suggestions, distance } = glossary.suggestScored(token.value, what);
  const keywords = suggest(token.value, [...CLAUSE_WORDS, ...RANGE_WORDS]);
  const closerKeyword = keywords[0] !== undefined && editDistance(token.value.toLowerCase(), keywords[0]) < distance;
  const keyword = suggestions.length === 0 || closerKeyword ? keywords : [];
  // A misspelt clause or range word ("yesterdy") is no unknown field: say it is out of place.
  if (keyword.length > 0)
    return QueryError.at(token, `Unexpected "${token.value}" here.${didYouMean(keyword)}`, keyword);
  return QueryError.at(token, `Unknown ${what} "${token.value}".${didYouMean(suggestions)}`, suggestions);
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
