import { PivotbotError } from '../core/index.js';
import type { AdhocAst, FieldAst, QueryAst } from './ast.js';
import { type CompiledQuery, compileQuery, dimensionSpec, metricSpec, type QueryOptions } from './compileQuery.js';
import { describeChange } from './describeChange.js';
import { describeUnderstood, rangeText } from './describeUnderstood.js';
import { removeFromQuery } from './dropFromQuery.js';
import { applyEdit, clearFilters, fixSort, rankBy } from './editQuery.js';
import { fixesOf, readablePart } from './followUpSuggestions.js';
import { formatQuery } from './formatQuery.js';
import { defaultGlossary, type GlossaryIndex } from './GlossaryIndex.js';
import { ID_FILTERS } from './glossary.js';
import { parseQuery } from './parseQuery.js';
import { QueryError } from './QueryError.js';
import { adhocAstOf, fieldAstOf } from './queryOfDefinition.js';
import { rowsUnsaid } from './rankWords.js';
import { readEdit } from './readEdit.js';
import { type FollowUpWords, readFollowUp } from './readFollowUp.js';

/** What a reply in the thread of an answer asks. */
export type FollowUpAnswer =
  /** Run `text` (the whole refined query, canonical) and answer with `understood` first. */
  | { kind: 'query'; text: string; understood: string; changed: string; csv?: boolean; chart?: boolean }
  /** Explain why the metric of `text` moved (`why?`). */
  | { kind: 'why'; text: string }
  /** Not read: say `message`, and offer `suggestions` (replies that work on this parent). */
  | { kind: 'unknown'; message: string; suggestions: string[] };

/** Replies offered when nothing nearer fits; each is kept only when it works on the parent. */
export const FOLLOW_UP_EXAMPLES = [
  'by country',
  'by source',
  'only iOS',
  'last 7 days',
  'vs last week',
  'top 5',
  'why?',
] as const;
const TOTAL = new Set(['total', 'totals', 'overall', 'in total', 'grand total', 'totals only']);
const ALL_ROWS = new Set(['rows', 'results', 'lines', 'them', 'of them', 'data', 'everything']);

/** The parent as the follow-up edits it. */
type Parent = { kind: 'adhoc'; text: string; ast: AdhocAst } | { kind: 'command'; text: string; ast: QueryAst };
type QueryAnswer = Extract<FollowUpAnswer, { kind: 'query' }>;

/**
 * Reads a reply in the thread of an answer as an edit of the query that answer ran (`parent`, a
 * `/pivot` query) and returns the whole refined query in canonical text, so the next reply can
 * refine it again. Deterministic: the query language reads the reply, never a guess; what it cannot
 * read comes back as `unknown` with replies it can read. Never throws on any text.
 *
 * @example applyFollowUp('cpi by country yesterday', 'by source instead', { now })
 * // { kind: 'query', text: 'installsCpi by source yesterday', understood: 'installsCpi by source, yesterday (UTC)', changed: 'by source (was countryCode)' }
 */
export function applyFollowUp(parent: string, reply: string, options: QueryOptions): FollowUpAnswer {
  const glossary = options.glossary ?? defaultGlossary();
  let base: Parent;
  try {
    base = readParent(parent, options, glossary);
  } catch (error) {
    if (!(error instanceof PivotbotError)) throw error;
    const reason = error instanceof QueryError ? ` (${error.message})` : '';
    return {
      kind: 'unknown',
      message: `The query this thread answered cannot be read again${reason}. Ask again with /pivot.`,
      suggestions: [],
    };
  }
  return answer(base, reply, options, glossary, true);
}

function readParent(text: string, options: QueryOptions, glossary: GlossaryIndex): Parent {
  const ast = parseQuery(text, glossary);
  if (ast.kind !== 'adhoc') return { kind: 'command', text: formatQuery(ast, glossary), ast };
  const compiled = compileQuery(text, options) as CompiledQuery;
  const canonical = adhocAstOf(compiled.definition, sinceOf(ast));
  if (!canonical) throw new QueryError('It says what a query line cannot.', 0, 1);
  return { kind: 'adhoc', text: formatQuery(canonical, glossary), ast: canonical };
}

/** A `since` range stays relative down the thread (the definition holds its dates). */
function sinceOf(ast: AdhocAst): string | undefined {
  const r = ast.range?.value;
  return typeof r === 'string' && r.startsWith('since:') ? r : undefined;
}

function answer(
  base: Parent,
  reply: string,
  options: QueryOptions,
  glossary: GlossaryIndex,
  withSuggestions: boolean,
  failed?: (error: QueryError) => void,
): FollowUpAnswer {
  const said = reply.trim();
  if (said.replace(/[\s.!?…]/gu, '') === '')
    return notRead(base, said, 'The reply is empty.', [], options, glossary, withSuggestions);
  let words: FollowUpWords;
  try {
    words = readFollowUp(reply, glossary);
  } catch (error) {
    if (!(error instanceof QueryError)) throw error;
    const reason = /Unexpected character/.test(error.message)
      ? 'it holds characters the query language does not use.'
      : error.message;
    return notRead(
      base,
      said,
      `I can't read "${said}" as a follow-up: ${reason}`,
      [],
      options,
      glossary,
      withSuggestions,
    );
  }
  const flags = { ...(words.csv ? { csv: true } : {}), ...(words.chart ? { chart: true } : {}) };
  if (words.words.length === 0) {
    if (words.why) return { kind: 'why', text: base.text };
    if (words.csv || words.chart) return same(base, options, flags);
    return notRead(base, said, `I can't read "${said}" as a follow-up.`, [], options, glossary, withSuggestions);
  }
  try {
    if (base.kind !== 'adhoc') return editCommand(base, words, options, glossary, flags);
    const q = structuredClone(base.ast);
    const top = q.top;
    if (words.remove) removeFromQuery(q, words, glossary);
    else if (!special(q, words, glossary)) {
      const edit = readEdit(words.rest, glossary, sortWordOf(q), words.only);
      if (edit.ast.csv) flags.csv = true;
      const insteadOf = words.insteadOf ? fieldOf(words.insteadOf, glossary) : undefined;
      applyEdit(
        q,
        edit,
        { add: words.add || words.and, addValues: words.add, ...(insteadOf ? { insteadOf } : {}) },
        glossary,
      );
    }
    fixSort(q);
    if (q.top && q.top !== top && q.dimensions.length === 0) throw rowsUnsaid(said.replace(/[\s.!?…]+$/u, ''));
    if (q.metrics.length === 0)
      return notRead(
        base,
        said,
        `"${said}" would leave no metric; a query needs at least one metric.`,
        [],
        options,
        glossary,
        withSuggestions,
      );
    return refined(base, q, said, words.why, options, glossary, flags, withSuggestions);
  } catch (error) {
    if (!(error instanceof QueryError)) throw error;
    failed?.(error);
    const fixes = fixesOf(reply, error, glossary);
    const message = `I can't read "${said}" as a follow-up: ${error.message}`;
    return notRead(base, said, message, fixes, options, glossary, withSuggestions);
  }
}

/** The refined query, compiled to prove it runs, and written back canonical. */
function refined(
  base: Parent & { kind: 'adhoc' },
  q: AdhocAst,
  said: string,
  why: boolean,
  options: QueryOptions,
  glossary: GlossaryIndex,
  flags: { csv?: boolean; chart?: boolean },
  withSuggestions: boolean,
): FollowUpAnswer {
  const draft = formatQuery(q, glossary);
  let compiled: CompiledQuery;
  try {
    compiled = compileQuery(draft, options) as CompiledQuery;
  } catch (error) {
    if (!(error instanceof QueryError)) throw error;
    const message = `"${said}" would ask ${draft}, which cannot run: ${error.message}`;
    return notRead(base, said, message, [], options, glossary, withSuggestions);
  }
  const canonical = adhocAstOf(compiled.definition, sinceOf(q)) ?? q;
  const text = formatQuery(canonical, glossary);
  if (why) return { kind: 'why', text };
  const understood = describeUnderstood(compiled.definition, options.defaultTimeZone ?? 'UTC');
  const changes = [describeChange(base.ast, canonical), flags.csv ? 'as CSV' : '', flags.chart ? 'with a chart' : ''];
  const changed = changes.filter((c) => c !== '').join('; ') || 'nothing: the same query';
  return { kind: 'query', text, understood, changed, ...flags };
}

function same(base: Parent, options: QueryOptions, flags: { csv?: boolean; chart?: boolean }): QueryAnswer {
  const changed = [flags.csv ? 'as CSV' : '', flags.chart ? 'with a chart' : ''].filter((c) => c !== '').join('; ');
  return { kind: 'query', text: base.text, understood: understoodOf(base, options), changed, ...flags };
}

function understoodOf(base: Parent, options: QueryOptions): string {
  if (base.ast.kind === 'run') {
    const r = base.ast.range?.value;
    return `run ${base.ast.report.value}${r === undefined ? '' : `, ${rangeText(r)}`}`;
  }
  const compiled = compileQuery(base.text, options) as CompiledQuery;
  return describeUnderstood(compiled.definition, options.defaultTimeZone ?? 'UTC');
}

/** `run <report>` and `postbacks …`: a reply may change the range, nothing else. */
function editCommand(
  base: Parent & { kind: 'command' },
  words: FollowUpWords,
  options: QueryOptions,
  glossary: GlossaryIndex,
  flags: { csv?: boolean; chart?: boolean },
): FollowUpAnswer {
  const edit = words.remove ? undefined : readEdit(words.rest, glossary, 'spend', false);
  const a = edit?.ast;
  const onlyRange =
    edit && a?.range && edit.metrics.length === 0 && edit.dimensions.length === 0 && a.where.length === 0;
  const what = base.ast.kind === 'run' ? `a named report (${base.ast.report.value})` : 'a postbacks query';
  if (!onlyRange || !a?.range || base.ast.kind === 'adhoc')
    throw new QueryError(`This answer is ${what}: a follow-up can change its range only (last 30 days).`, 0, 1);
  const ast = { ...base.ast, range: a.range };
  const text = formatQuery(ast, glossary);
  if (words.why) return { kind: 'why', text };
  const before = base.ast.range ? rangeText(base.ast.range.value) : 'its own';
  const next: Parent = { kind: 'command', text, ast };
  return { ...same(next, options, flags), changed: `range ${rangeText(a.range.value)} (was ${before})` };
}

/** Replies that are no clause: "all countries", "all rows", "total", "best 3". True when one was. */
function special(q: AdhocAst, words: FollowUpWords, glossary: GlossaryIndex): boolean {
  const list = words.words.map((w) => w.word);
  const text = list.join(' ');
  if (TOTAL.has(text)) {
    q.dimensions = [];
    return true;
  }
  if (
    text === 'all' ||
    text === 'everything' ||
    ((list[0] === 'all' || list[0] === 'every') && ALL_ROWS.has(list.slice(1).join(' ')))
  ) {
    delete q.top;
    return true;
  }
  const rank = list[0];
  if ((rank === 'best' || rank === 'worst') && list.length === 2 && /^\d+$/.test(list[1] ?? '')) {
    rankBy(q, rank, Number(list[1]), glossary);
    return true;
  }
  if ((list[0] === 'all' || list[0] === 'any' || list[0] === 'every') && list.length >= 2) {
    if (text.endsWith('channels')) {
      q.channel = { value: 'all', start: 0, end: 0 };
      return true;
    }
    const first = words.words[1]?.token;
    const last = words.words.at(-1)?.token;
    if (!first || !last) return false;
    const span = { start: first.start, end: last.end, text: words.rest.slice(first.start, last.end) };
    const name = fieldAstOf(dimensionSpec(fieldFrom(span), glossary)).name.value;
    const means = glossary.lookup(span.text)?.means;
    const idField = ID_FILTERS[name.toLowerCase()] ?? (means?.kind === 'dimension' ? means.idFilter : undefined);
    clearFilters(q, idField ? [name, idField] : [name]);
    return true;
  }
  return false;
}

/** The word the parent ranks by: "top 5 campaigns" ranks by it. */
function sortWordOf(q: AdhocAst): string {
  return q.sort?.key.value ?? q.metrics[0]?.alias?.value ?? q.metrics[0]?.name.value ?? 'spend';
}

function fieldFrom(span: { start: number; end: number; text: string }): FieldAst {
  return { name: { value: span.text, start: span.start, end: span.end }, args: [], start: span.start, end: span.end };
}

/** "instead of country": the field named, as a metric or a dimension of the catalog. */
function fieldOf(span: { start: number; end: number; text: string }, glossary: GlossaryIndex): FieldAst {
  const field = fieldFrom(span);
  try {
    return fieldAstOf(metricSpec(field, glossary));
  } catch (error) {
    if (!(error instanceof QueryError) || !/is not a metric/.test(error.message)) throw error;
    return fieldAstOf(dimensionSpec(field, glossary));
  }
}

/** `unknown`, with the fixes and examples that work on this parent (each tried, none guessed). */
function notRead(
  base: Parent,
  said: string,
  message: string,
  fixes: readonly string[],
  options: QueryOptions,
  glossary: GlossaryIndex,
  withSuggestions: boolean,
): FollowUpAnswer {
  if (!withSuggestions) return { kind: 'unknown', message, suggestions: [] };
  const tried = (candidate: string) => answer(base, candidate, options, glossary, false);
  const works = (candidate: string) => {
    if (candidate === said) return false;
    const a = tried(candidate);
    return a.kind === 'why' || (a.kind === 'query' && (a.text !== base.text || a.csv === true || a.chart === true));
  };
  // The part that reads, as it would run; a fix must keep what it says.
  const part = readablePart(
    said,
    (candidate) => {
      let failure: QueryError | undefined;
      const a = answer(base, candidate, options, glossary, false, (e) => {
        failure = e;
      });
      return a.kind === 'unknown' ? failure : { runs: JSON.stringify({ ...a, changed: '' }) };
    },
    glossary,
  );
  const readable = part !== undefined && works(part) ? part : undefined;
  const fixed = [...new Set(fixes)]
    .filter((f) => works(f) && keepsMeaning(tried(f), readable === undefined ? undefined : tried(readable)))
    .slice(0, 3);
  if (fixed.length > 0) return { kind: 'unknown', message, suggestions: fixed };
  // No nearer word works here: no "Did you mean" of one that does not, but what does: the part
  // of the reply that reads, else replies that work on this parent.
  const plain = message
    .replace(/\s*Did you mean [^?]*\?$/, '')
    .replace(
      /(Unexpected|Unknown metric|Unknown dimension) "([^"]+)"( here)?\.$/,
      '"$2" is no metric, dimension, filter or range I know.',
    );
  if (readable) return { kind: 'unknown', message: plain, suggestions: [readable] };
  return { kind: 'unknown', message: plain, suggestions: FOLLOW_UP_EXAMPLES.filter(works) };
}

/** True when a fix changes everything the readable part of the reply changes (it means what was written). */
function keepsMeaning(fix: FollowUpAnswer, readable: FollowUpAnswer | undefined): boolean {
  if (readable?.kind !== 'query') return true;
  if (fix.kind !== 'query') return false;
  const changes = new Set(fix.changed.split('; '));
  return readable.changed.split('; ').every((c) => changes.has(c));
}
