/**
 * "drop spend", "without BR", "no comparison", "remove the country breakdown", "no filters": what a
 * reply takes out of the query. Values (countries, platforms, ids) are excluded; metrics,
 * dimensions and clauses go.
 */
import type { AdhocAst, FieldAst } from './ast.js';
import { dimensionSpec, metricSpec } from './compileQuery.js';
import { applyEdit, clearFilters, isTime, keyOf } from './editQuery.js';
import type { GlossaryIndex } from './GlossaryIndex.js';
import { ID_FILTERS } from './glossary.js';
import { parseQuery } from './parseQuery.js';
import { QueryError } from './QueryError.js';
import { fieldAstOf } from './queryOfDefinition.js';
import type { FollowUpWords } from './readFollowUp.js';
import type { Token } from './tokenize.js';

const EXCLUDE = 'spend without ';
const NOISE = new Set(['the', 'a', 'an', 'by', 'per', 'column', 'columns', 'metric', 'metrics', 'dimension', 'of']);
const CLAUSES: ReadonlyArray<readonly [ReadonlySet<string>, (q: AdhocAst) => void]> = [
  [
    new Set(['comparison', 'comparisons', 'compare', 'vs', 'delta', 'deltas', 'wow', 'dod', 'mom']),
    (q) => delete q.compare,
  ],
  [new Set(['top', 'limit', 'cap']), (q) => delete q.top],
  [new Set(['sort', 'sorting', 'order', 'ordering']), (q) => delete q.sort],
  [new Set(['having', 'threshold', 'thresholds']), (q) => (q.having = [])],
  [new Set(['date', 'dates', 'time', 'bucket']), (q) => (q.dimensions = q.dimensions.filter((d) => !isTime(d)))],
  [new Set(['breakdown', 'breakdowns', 'grouping', 'dimensions', 'groups', 'split']), (q) => (q.dimensions = [])],
  [new Set(['filter', 'filters', 'where']), (q) => (q.where = [])],
  [new Set(['channel']), (q) => delete q.channel],
  [new Set(['tz', 'timezone']), (q) => delete q.timezone],
];

/** Takes out of `q` (in place) what the reply after "drop" / "without" / "no" names. */
export function removeFromQuery(q: AdhocAst, words: FollowUpWords, glossary: GlossaryIndex): void {
  let exclusion: QueryError | undefined;
  let values: AdhocAst | undefined;
  try {
    const ast = parseQuery(EXCLUDE + words.rest, glossary, { upperCaseCodes: true });
    if (ast.kind === 'adhoc' && ast.metrics.length === 1 && ast.dimensions.length === 0 && ast.where.length > 0)
      values = ast;
  } catch (error) {
    if (!(error instanceof QueryError)) throw error;
    exclusion = error.shifted(-EXCLUDE.length);
  }
  if (values) {
    const edit = { ast: values, metrics: [], dimensions: [], ranked: false, offset: EXCLUDE.length };
    const removal = words.removeWord ?? 'without';
    applyEdit(q, edit, { add: false, addValues: false, removal, reply: words.rest.trim() }, glossary);
    return;
  }
  for (const group of groups(words.words)) {
    try {
      dropGroup(q, group, words.rest, glossary);
    } catch (error) {
      if (!(error instanceof QueryError)) throw error;
      throw nearer(error, exclusion);
    }
  }
}

/** Of two readings that failed on the same word, the one with the nearer suggestion. */
function nearer(a: QueryError, b: QueryError | undefined): QueryError {
  if (!b || b.position !== a.position || b.suggestions.length === 0) return a;
  if (a.suggestions.length === 0) return b;
  return new QueryError(a.message, a.position, a.length, [...a.suggestions, ...b.suggestions], a.rephrased);
}

type Word = { word: string; token: Token };

/** "spend and installs", "country, os": one target each. */
function groups(words: readonly Word[]): Word[][] {
  const out: Word[][] = [[]];
  for (const w of words) {
    if (w.word === 'and' || w.word === ',' || w.word === 'or') out.push([]);
    else out[out.length - 1]?.push(w);
  }
  return out.filter((g) => g.length > 0);
}

function dropGroup(q: AdhocAst, group: readonly Word[], rest: string, glossary: GlossaryIndex): void {
  const meaningful = group.filter((w) => !NOISE.has(w.word));
  const names = meaningful.filter((w) => !CLAUSES.some(([set]) => set.has(w.word)));
  const clause = meaningful.find((w) => CLAUSES.some(([set]) => set.has(w.word)));
  if (names.length === 0) {
    const found = CLAUSES.find(([set]) => set.has(clause?.word ?? ''));
    if (found) {
      found[1](q);
      return;
    }
  }
  const first = names[0]?.token;
  const last = names[names.length - 1]?.token;
  if (!first || !last) throw new QueryError('Say what to drop: drop spend, drop country, no comparison.', 0, 1);
  const text = rest.slice(first.start, last.end);
  const field: FieldAst = {
    name: { value: text, start: first.start, end: last.end },
    args: [],
    ...first,
    end: last.end,
  };
  // "drop the country filter": the filters on that dimension.
  if (clause && (clause.word === 'filter' || clause.word === 'filters')) {
    const dim = fieldAstOf(dimensionSpec(field, glossary)).name.value;
    const means = glossary.lookup(text)?.means;
    const id = ID_FILTERS[dim.toLowerCase()] ?? (means?.kind === 'dimension' ? means.idFilter : undefined);
    clearFilters(q, id ? [dim, id] : [dim]);
    return;
  }
  try {
    const key = keyOf(fieldAstOf(metricSpec(field, glossary)));
    q.metrics = q.metrics.filter((m) => keyOf(m) !== key);
  } catch (error) {
    if (!(error instanceof QueryError) || !/is not a metric/.test(error.message)) throw error;
    const dim = fieldAstOf(dimensionSpec(field, glossary));
    q.dimensions = q.dimensions.filter((d) => (isTime(dim) ? !isTime(d) : keyOf(d) !== keyOf(dim)));
  }
}
