import type { FieldSpec, RangeSpec, ReportDefinition } from '../reports/index.js';
import type { AdhocAst, ConditionAst, FieldAst, HavingAst, Located, Scalar } from './ast.js';
import { formatQuery } from './formatQuery.js';

const NO_SPAN = { start: 0, end: 0 } as const;
const OPERATORS: Readonly<Record<string, ConditionAst['op']>> = {
  equals: '=',
  notEquals: '!=',
  isIn: 'in',
  isNotIn: 'not in',
};
const THRESHOLDS: Readonly<Record<string, HavingAst['op']>> = {
  greaterThan: '>',
  greaterOrEqualThan: '>=',
  lowerThan: '<',
  lowerOrEqualThan: '<=',
};

/**
 * The ad-hoc query a report definition asks, as an AST in the catalog's own names: what a
 * follow-up edits, and what `formatQuery` writes as the canonical text. Undefined when the
 * definition says something the query language cannot (postbacks, cohorts, quality, a top-level
 * granularity, options).
 *
 * @example formatQuery(adhocAstOf(compiled.definition)!) // 'installsCpi by countryCode yesterday'
 */
export function adhocAstOf(definition: ReportDefinition, range?: RangeSpec): AdhocAst | undefined {
  const q = definition.query;
  if (q.postbacks || q.cohort || q.quality || q.granularity || q.options || q.metrics.length === 0) return undefined;
  const ast: AdhocAst = {
    kind: 'adhoc',
    metrics: q.metrics.map(fieldAstOf),
    dimensions: q.dimensions.map(fieldAstOf),
    range: at(range ?? q.range),
    where: Object.entries(q.filter ?? {}).flatMap(([field, value]) => conditionsOf(field, value)),
    having: Object.entries(q.cleanup ?? {}).flatMap(([metric, ops]) =>
      Object.entries(ops ?? {}).flatMap(([op, v]) => {
        const o = THRESHOLDS[op];
        return o && v !== undefined ? [{ metric: at(metric), op: o, value: at(Number(v)), ...NO_SPAN }] : [];
      }),
    ),
    csv: false,
  };
  const p = definition.present;
  if (p.top !== undefined) ast.top = at(p.top);
  const sort = sortOf(p.sort, ast.metrics);
  if (sort) ast.sort = { key: at(sort.by), desc: sort.desc };
  if (p.compare && p.compare !== 'none') ast.compare = at(p.compare);
  if (q.timezone) ast.timezone = at(q.timezone);
  if (q.channel) ast.channel = at(q.channel);
  if (definition.mode !== 'auto') ast.mode = definition.mode;
  return ast;
}

/**
 * A report definition as one line of the query language, or undefined when the language cannot
 * say it: how a digest's or an alert's query becomes the parent a follow-up refines.
 *
 * @example queryTextOf(loaded.definition) // 'spend, installs by countryCode yesterday vs previous period'
 */
export function queryTextOf(definition: ReportDefinition): string | undefined {
  const ast = adhocAstOf(definition);
  return ast ? formatQuery(ast) : undefined;
}

/**
 * The query of an alert's entity: the report's query narrowed by the filter that narrows the report
 * to the entity (`entityFilter` of insights: text and enum dimensions by value, names such as
 * `campaign` by their id field, as the Reporting Service filters), each field's own conditions
 * replaced. An empty filter (the total) is the whole query. Undefined as `queryTextOf`.
 *
 * @example entityQueryOf(definition, { campaignId: 1001, countryCode: 'BR' }) // 'installs by campaign, countryCode yesterday where campaignId = 1001 and countryCode = BR'
 */
export function entityQueryOf(
  definition: ReportDefinition,
  filter: Readonly<Record<string, unknown>>,
): string | undefined {
  const ast = adhocAstOf(definition);
  if (!ast) return undefined;
  for (const [field, value] of Object.entries(filter)) {
    ast.where = [...ast.where.filter((c) => c.field.value !== field), ...conditionsOf(field, value)];
  }
  return formatQuery(ast);
}

function at<T>(value: T): Located<T> {
  return { value, ...NO_SPAN };
}

export function fieldAstOf(spec: FieldSpec): FieldAst {
  if (typeof spec === 'string') return { name: at(spec), args: [], ...NO_SPAN };
  const field: FieldAst = { name: at(spec.name), args: [], ...NO_SPAN };
  for (const [name, value] of Object.entries(spec.args ?? {})) {
    if (name === 'granularity' && spec.name === 'date' && typeof value === 'string')
      field.granularity = at(value.toLowerCase());
    else if (value !== null && !Array.isArray(value)) field.args.push({ name: at(name), value: at(value) });
  }
  if (spec.as) field.alias = at(spec.as);
  return field;
}

export function conditionsOf(field: string, value: unknown): ConditionAst[] {
  const cond = (op: ConditionAst['op'], values: readonly unknown[]): ConditionAst => ({
    field: at(field),
    op,
    values: values.map((v) => at(v as Scalar)),
    ...NO_SPAN,
  });
  if (Array.isArray(value)) return [cond('in', value)];
  if (value === null || typeof value !== 'object') return [cond('=', [value])];
  return Object.entries(value).flatMap(([op, v]) => {
    const o = OPERATORS[op];
    if (!o || v === undefined) return [];
    return [cond(o, Array.isArray(v) ? v : [v])];
  });
}

/** `{ by, order }` or the YAML shorthand (`-spend` descending, `+spend` ascending, a metric descending). */
function sortOf(
  sort: ReportDefinition['present']['sort'],
  metrics: readonly FieldAst[],
): { by: string; desc: boolean } | undefined {
  if (sort === undefined) return undefined;
  if (typeof sort !== 'string') return { by: sort.by, desc: sort.order === 'desc' };
  const by = sort.replace(/^[-+]/, '');
  if (sort.startsWith('-') || sort.startsWith('+')) return { by, desc: sort.startsWith('-') };
  return { by, desc: metrics.some((m) => (m.alias?.value ?? m.name.value) === by) };
}
