/**
 * Edits a canonical query AST (catalog names, from `adhocAstOf`) the way a follow-up asks. The
 * rules, in docs/query-language.md#follow-ups-in-a-thread: metrics and the breakdown are replaced
 * unless the reply adds ("also", "and", "too"); a time bucket replaces the time bucket only; a
 * filter value replaces that field's filter unless added ("also BR"); "without" takes out; ranges,
 * comparisons, top and sort replace. Every problem is a `QueryError` spanning the reply's words.
 */
import { getMetric } from '../reporting/index.js';
import type { AdhocAst, ConditionAst, FieldAst, Located, OrderAst, Scalar } from './ast.js';
import { filterOf } from './compileConditions.js';
import { dimensionSpec, metricSpec } from './compileQuery.js';
import type { GlossaryIndex } from './GlossaryIndex.js';
import { QueryError } from './QueryError.js';
import { conditionsOf, fieldAstOf } from './queryOfDefinition.js';
import type { Edit } from './readEdit.js';
import { costKey } from './sortWords.js';

export interface EditMode {
  /** Metrics and dimensions add up. */
  add: boolean;
  /** Filter values add up. */
  addValues: boolean;
  /** The word that took values out ("drop", "without", "excluding"…), and the values as written. */
  removal?: string;
  reply?: string;
  /** The field this edit replaces in place ("instead of country"). */
  insteadOf?: FieldAst;
}

const NO_SPAN = { start: 0, end: 0 } as const;
/** Words that take a value out of the query's filter: when it was the only value, the filter goes. */
const TAKE_OUT = new Set(['drop', 'remove', 'without', 'get rid of', 'take out', 'leave out', 'minus', 'skip', 'hide']);
/** Of them, the ones that name something the query has: with no filter holding the value, refused. */
const DROP = new Set(['drop', 'remove', 'get rid of', 'take out']);

export const keyOf = (f: FieldAst): string => f.alias?.value ?? f.name.value;
export const isTime = (f: FieldAst): boolean => f.name.value === 'date';

/** Applies an edit read from the reply to `q` (changed in place). */
export function applyEdit(q: AdhocAst, edit: Edit, mode: EditMode, glossary: GlossaryIndex): void {
  const shift = <T extends { start: number; end: number }>(x: T): T => ({
    ...x,
    start: x.start - edit.offset,
    end: x.end - edit.offset,
  });
  const metrics: FieldAst[] = [];
  const dimensions: FieldAst[] = [];
  for (const written of edit.metrics) {
    const field = shift({ ...written, name: shift(written.name) });
    try {
      metrics.push(fieldAstOf(metricSpec(field, glossary)));
    } catch (error) {
      // A dimension where a metric goes: "country?" is "by country".
      if (!(error instanceof QueryError) || !/is not a metric/.test(error.message)) throw error;
      dimensions.push(fieldAstOf(dimensionSpec(field, glossary)));
    }
  }
  for (const written of edit.dimensions)
    dimensions.push(fieldAstOf(dimensionSpec(shift({ ...written, name: shift(written.name) }), glossary)));
  if (metrics.length > 0) {
    if (edit.ranked || mode.add) addFields(q.metrics, metrics);
    else if (!replaceInPlace(q.metrics, metrics, mode.insteadOf)) q.metrics = dedupe(metrics);
  }
  const breakdown = dimensions.filter((d) => !isTime(d));
  const bucket = dimensions.filter(isTime).at(-1);
  if (breakdown.length > 0) {
    const current = q.dimensions.filter((d) => !isTime(d));
    if (mode.add && !edit.ranked) addFields(current, breakdown);
    else if (!replaceInPlace(current, breakdown, mode.insteadOf))
      current.splice(0, current.length, ...dedupe(breakdown));
    q.dimensions = [...current, ...q.dimensions.filter(isTime)];
  }
  if (bucket) q.dimensions = [...q.dimensions.filter((d) => !isTime(d)), bucket];
  for (const cond of edit.ast.where) editFilter(q, canonicalCondition(shift(cond), glossary), mode);
  const a = edit.ast;
  if (a.range) q.range = a.range;
  if (a.compare) q.compare = a.compare;
  if (a.channel) q.channel = a.channel;
  if (a.timezone) q.timezone = a.timezone;
  if (a.mode) q.mode = a.mode;
  for (const h of a.having) q.having = [...q.having.filter((x) => x.metric.value !== h.metric.value), h];
  if (a.top) q.top = a.top;
  if (a.sort) q.sort = resolveSort(q, { ...a.sort, key: shift(a.sort.key) }, glossary);
}

/** `top 3` with "best"/"worst" and no metric: the query's ranking metric, in its direction. */
export function rankBy(q: AdhocAst, rank: 'best' | 'worst', top: number, glossary: GlossaryIndex): void {
  q.top = { value: top, ...NO_SPAN };
  q.sort = resolveSort(q, { key: { value: '', ...NO_SPAN }, rank }, glossary);
}

/**
 * The sort of an edit in the query's columns: a metric it does not have yet is added ("top 5 by
 * installs"); no key is the query's ranking column; "best"/"worst" follow the metric's polarity.
 */
function resolveSort(q: AdhocAst, order: OrderAst, glossary: GlossaryIndex): NonNullable<AdhocAst['sort']> {
  const written = order.key.value;
  let key: string | undefined;
  if (written === '' && order.cost)
    key = costKey(
      q.metrics.map((m) => ({ key: keyOf(m), name: m.name.value })),
      order.key,
    );
  else if (written === '') key = q.sort?.key.value ?? (q.metrics[0] ? keyOf(q.metrics[0]) : undefined);
  const outputs = [...q.metrics, ...q.dimensions];
  key ??= outputs.map(keyOf).find((k) => k.toLowerCase() === written.toLowerCase());
  if (key === undefined) {
    const field: FieldAst = { name: order.key, args: [], start: order.key.start, end: order.key.end };
    try {
      const metric = fieldAstOf(metricSpec(field, glossary));
      addFields(q.metrics, [metric]);
      key = keyOf(metric);
    } catch (error) {
      if (!(error instanceof QueryError) || !/is not a metric/.test(error.message)) throw error;
      const dim = fieldAstOf(dimensionSpec(field, glossary));
      key = outputs.map(keyOf).find((k) => k === keyOf(dim));
      if (key === undefined)
        throw QueryError.at(order.key, `Sort by a column of the query; add it first: also by ${keyOf(dim)}.`);
    }
  }
  let desc = order.desc !== false;
  if (order.rank) {
    const metric = q.metrics.find((m) => keyOf(m) === key);
    const lowIsGood = metric !== undefined && getMetric(metric.name.value)?.polarity === 'lower_is_better';
    desc = (order.rank === 'best') !== lowIsGood;
  }
  return { key: { value: key ?? written, ...NO_SPAN }, desc };
}

/** After metrics or dimensions changed: a sort on a column that left goes to the first metric, or goes. */
export function fixSort(q: AdhocAst): void {
  if (!q.sort) return;
  const outputs = [...q.metrics, ...q.dimensions].map(keyOf);
  if (outputs.includes(q.sort.key.value)) return;
  const first = q.metrics[0];
  if (q.top && first) q.sort = { key: { value: keyOf(first), ...NO_SPAN }, desc: true };
  else delete q.sort;
}

/** A condition of the reply in the catalog's filter names and values ("Brazil" → countryCode = BR). */
function canonicalCondition(cond: ConditionAst, glossary: GlossaryIndex): ConditionAst {
  const one: AdhocAst = { kind: 'adhoc', metrics: [], dimensions: [], where: [cond], having: [], csv: false };
  const [field, value] = Object.entries(filterOf(one, glossary))[0] ?? [];
  const [canonical] = field === undefined ? [] : conditionsOf(field, value);
  return canonical ?? cond;
}

/**
 * A value filter: `=`/`in` replaces the field's filter (adds to it with `addValues`); `!=`/`not in`
 * takes the values out of the field's list, or excludes them.
 */
function editFilter(q: AdhocAst, cond: ConditionAst, mode: EditMode): void {
  const addValues = mode.addValues;
  const field = cond.field.value;
  const values = cond.values.map((v) => v.value);
  const mine = q.where.filter((c) => c.field.value === field);
  const others = q.where.filter((c) => c.field.value !== field);
  let pos = mine.filter((c) => c.op === '=' || c.op === 'in').flatMap((c) => c.values.map((v) => v.value));
  let neg = mine.filter((c) => c.op === '!=' || c.op === 'not in').flatMap((c) => c.values.map((v) => v.value));
  if (cond.op === '=' || cond.op === 'in') {
    pos = addValues ? union(pos, values) : [...values];
    neg = addValues ? neg.filter((v) => !values.includes(v)) : [];
  } else {
    // Out of the list it is in ("US and BR" without BR: US); else excluded. A value outside a
    // list is already out.
    const inList = pos.some((v) => values.includes(v));
    if (inList) pos = pos.filter((v) => !values.includes(v));
    const removal = mode.removal ?? '';
    // "drop US" on "for US": the filter goes (all countries again), never "not US".
    if (pos.length === 0 && !(inList && TAKE_OUT.has(removal))) {
      if (!inList && DROP.has(removal))
        throw new QueryError(
          `This query has no filter on ${values.join(', ')} to ${removal}. To leave ${values.join(', ')} out of it, write: excluding ${mode.reply ?? values.join(', ')}.`,
          0,
          10_000,
          [`excluding ${mode.reply ?? values.join(', ')}`],
          true,
        );
      neg = union(neg, values);
    }
  }
  // The field keeps its place among the filters ("US only" on "US and iOS" changes nothing).
  const at = q.where.findIndex((c) => c.field.value === field);
  const before = at < 0 ? others : q.where.slice(0, at).filter((c) => c.field.value !== field);
  const after = at < 0 ? [] : q.where.slice(at).filter((c) => c.field.value !== field);
  q.where = [...before, ...conditionsOfLists(field, pos, neg), ...after];
}

/** Takes out every filter on these fields ("all countries"). */
export function clearFilters(q: AdhocAst, fields: readonly string[]): void {
  q.where = q.where.filter((c) => !fields.includes(c.field.value));
}

function conditionsOfLists(field: string, pos: readonly Scalar[], neg: readonly Scalar[]): ConditionAst[] {
  const at = <T>(value: T): Located<T> => ({ value, ...NO_SPAN });
  const out: ConditionAst[] = [];
  if (pos.length > 0)
    out.push({ field: at(field), op: pos.length === 1 ? '=' : 'in', values: pos.map(at), ...NO_SPAN });
  if (neg.length > 0)
    out.push({ field: at(field), op: neg.length === 1 ? '!=' : 'not in', values: neg.map(at), ...NO_SPAN });
  return out;
}

function union(a: readonly Scalar[], b: readonly Scalar[]): Scalar[] {
  return [...a, ...b.filter((v) => !a.includes(v))];
}

function addFields(into: FieldAst[], fields: readonly FieldAst[]): void {
  for (const f of fields) if (!into.some((x) => keyOf(x) === keyOf(f))) into.push(f);
}

function dedupe(fields: readonly FieldAst[]): FieldAst[] {
  const out: FieldAst[] = [];
  addFields(out, fields);
  return out;
}

/** "by source instead of country": the first new field takes the old one's place, the others follow. */
function replaceInPlace(into: FieldAst[], fields: readonly FieldAst[], old: FieldAst | undefined): boolean {
  const i = old ? into.findIndex((x) => keyOf(x) === keyOf(old)) : -1;
  const [first, ...more] = fields;
  if (i < 0 || !first) return false;
  if (into.some((x) => keyOf(x) === keyOf(first))) into.splice(i, 1);
  else into.splice(i, 1, first);
  addFields(into, more);
  return true;
}
