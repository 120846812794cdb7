import { suggest } from '../core/index.js';
import { DIMENSIONS, findDimension, findMetric, METRICS } from '../reporting/index.js';
import type { AdhocAst, FieldAst, QueryAst } from './ast.js';
import { Cursor } from './Cursor.js';
import { defaultGlossary, type GlossaryIndex } from './GlossaryIndex.js';
import { mergePhrases } from './mergePhrases.js';
import { located, parseArgs, parseCondition, parseHaving, parseOrder } from './parseClauses.js';
import { parsePostbacks, parseRun } from './parseCommands.js';
import { isDimensionWord, isFlagAfterAs, parseLoose, unquoted } from './parseLoose.js';
import {
  atIdFilter,
  FILLERS,
  idArticle,
  idFilterOf,
  isBareValue,
  LEADING_FILLERS,
  PERIOD_OVER_PERIOD,
  PHRASING_WORDS,
  parseCompare,
  parseIdFilter,
  parseValues,
  SAME_WHAT,
} from './parsePhrasings.js';
import { atRange, parseRange } from './parseRange.js';
import { atThreshold } from './parseThreshold.js';
import { withoutFillers } from './politeness.js';
import { QueryError } from './QueryError.js';
import {
  atRankClause,
  checkCostRank,
  parseRankClause,
  rankAt,
  rankError,
  readRank,
  rowCount,
  rowsError,
} from './rankWords.js';
import { atSortWords, parseSortWords } from './sortWords.js';
import { type Token, tokenize } from './tokenize.js';

/** Words that start a clause, so they end a list of metrics or dimensions. */
export const CLAUSE_WORDS = [
  'by',
  'where',
  'having',
  'top',
  'sort',
  'order',
  'tz',
  'timezone',
  'csv',
  'sync',
  'async',
  'channel',
  'compare',
  'vs',
] as const;
const CLAUSES = new Set<string>(CLAUSE_WORDS);
/** "daily spend", "spend hourly": adverbs that add the date dimension at a granularity. */
const BUCKET_WORDS = new Set(['daily', 'hourly', 'weekly', 'monthly', 'quarterly']);

export interface ParseOptions {
  /** Two letters are a country only in upper case (`IT`, not `it`): a thread reply's words. */
  upperCaseCodes?: boolean;
}

/**
 * Parses a query into its AST, keeping the span of every word. Names are not checked here
 * (`compileQuery` does that against the catalog and the glossary); only the shape is. The
 * glossary's phrases ("cost per install", "week over week") are read as one word.
 *
 * @example parseQuery('spend installs by countryCode yesterday')
 */
export function parseQuery(
  text: string,
  glossary: GlossaryIndex = defaultGlossary(),
  options: ParseOptions = {},
): QueryAst {
  const tokens = mergePhrases(withoutFillers(unquoted(tokenize(text), text)), glossary);
  const c = new Cursor(tokens, options.upperCaseCodes ?? false);
  if (c.atEnd()) throw new QueryError('The query is empty. Try: spend installs by countryCode yesterday', 0, 1);
  const head = c.peekWord();
  const ast = head === 'run' ? parseRun(c) : head === 'postbacks' ? parsePostbacks(c) : parseAdhoc(c, glossary);
  if (!c.atEnd()) throw unexpected(c, c.peek());
  return ast;
}

function parseAdhoc(c: Cursor, g: GlossaryIndex): AdhocAst {
  const skipFillers = () => {
    while (LEADING_FILLERS.has(c.peekWord()) && c.peek(1).kind !== 'end') c.next();
  };
  skipFillers();
  const ast: AdhocAst = { kind: 'adhoc', metrics: [], dimensions: [], where: [], having: [], csv: false };
  // "yesterday spend by country", "last week, what were installs by os": the range first.
  if (atRange(c)) {
    ast.range = parseRange(c);
    while (c.peek().text === ',' || FILLERS.has(c.peekWord())) c.next();
    skipFillers();
  }
  /** "daily", "hourly": date dimensions that go after the `by` list. */
  const buckets: FieldAst[] = [];
  const rankWord = c.peekWord();
  if (rankAt(c) && (rankWord !== 'top' || c.peek(1).kind !== 'number' || c.peek(2).kind === 'word'))
    parseRanked(c, g, ast, buckets);
  // "campaigns by spend": the rows of a dimension, ranked by a metric, all of them.
  else if (c.peekWord(1) === 'by' && isDimensionWord(rankWord, g)) parseRanked(c, g, ast, buckets, false);
  else ast.metrics = parseFields(c, 'metric', ast, g, buckets);
  if (ast.metrics.length === 0) {
    throw c.error(c.peek(), 'Start with at least one metric: spend installs installsCpi by countryCode yesterday');
  }
  while (!c.atEnd()) {
    const t = c.peek();
    const word = c.peekWord();
    if (FILLERS.has(word)) {
      c.next();
      continue;
    }
    if (atRange(c)) {
      if (ast.range) throw c.error(t, 'The query already has a range.');
      ast.range = parseRange(c);
      continue;
    }
    if (atSortWords(c)) {
      ast.sort = parseSortWords(c);
      continue;
    }
    if (atRankClause(c)) {
      ({ top: ast.top, sort: ast.sort } = parseRankClause(c, g));
      continue;
    }
    if (parseLoose(c, ast, g)) continue;
    if (atIdFilter(c, g)) {
      ast.where.push(parseIdFilter(c, g));
      continue;
    }
    if (isBareValue(word, t)) {
      parseValues(c, ast, false, g);
      continue;
    }
    if (isBucket(word, g)) {
      c.next();
      buckets.push({ name: located(t, t.text), args: [], start: t.start, end: t.end });
      continue;
    }
    if (word === 'same' && SAME_WHAT.has(c.peekWord(1))) {
      ast.compare = parseCompare(c, t);
      continue;
    }
    const pop = PERIOD_OVER_PERIOD[word];
    if (pop) {
      c.next();
      ast.compare = { value: pop.compare, start: t.start, end: t.end };
      ast.defaultRange = pop.range;
      continue;
    }
    if (!CLAUSES.has(word) && !PHRASING_WORDS.has(word) && word !== 'ctv' && word !== 'mobile') throw unexpected(c, t);
    c.next();
    parseKeywordClause(c, word, t, ast, g, buckets);
  }
  ast.dimensions.push(...buckets);
  return ast;
}

/** The clause a keyword opens (`by`, `where`, `top 10`, `tz`, `csv`, `for` …), its keyword `t` already read. */
function parseKeywordClause(
  c: Cursor,
  word: string,
  t: Token,
  ast: AdhocAst,
  g: GlossaryIndex,
  buckets: FieldAst[],
): void {
  switch (word) {
    case 'by':
    case 'per': {
      const more = parseFields(c, 'dimension', ast, g, buckets);
      if (more.length === 0 && !atIdFilter(c, g))
        throw c.error(c.peek(), `After "${word}", name at least one dimension: by countryCode`);
      ast.dimensions.push(...more);
      ast.bySpan = { start: ast.bySpan?.start ?? t.start, end: c.lastEnd() };
      break;
    }
    case 'with':
      ast.metrics.push(...parseFields(c, 'metric', ast, g, buckets));
      break;
    case 'where':
      do ast.where.push(parseCondition(c));
      while (c.peekWord() === 'and' && c.next());
      break;
    case 'having':
      do ast.having.push(parseHaving(c));
      while (c.peekWord() === 'and' && c.next());
      break;
    case 'top':
    case 'bottom': {
      const n = c.next();
      if (n.kind !== 'number' || !/^\d+$/.test(n.text) || Number(n.text) < 1 || Number(n.text) > 10_000)
        throw c.error(n, `${word} takes a row count between 1 and 10000: ${word} 10 by spend`);
      ast.top = located(n, Number(n.text));
      if (c.peekWord() === 'by') {
        c.next();
        ast.sort = { ...parseOrder(c), ...(word === 'bottom' ? { desc: false } : {}) };
      } else if (word === 'bottom') ast.sort = { key: located(n, ''), desc: false };
      break;
    }
    case 'sort':
    case 'order':
    case 'sorted':
    case 'ordered':
      if (c.peekWord() === 'by') c.next();
      ast.sort = parseOrder(c);
      break;
    case 'tz':
    case 'timezone': {
      const z = c.name('a time zone (America/Sao_Paulo, UTC)');
      ast.timezone = located(z, z.text);
      break;
    }
    case 'csv':
      ast.csv = true;
      break;
    case 'sync':
    case 'async':
      ast.mode = word;
      break;
    case 'ctv':
    case 'mobile':
      ast.channel = located(t, ast.channel && ast.channel.value !== word ? 'all' : word);
      break;
    case 'channel': {
      const ch = c.name('mobile, ctv or all');
      const value = ch.text.toLowerCase();
      if (value !== 'mobile' && value !== 'ctv' && value !== 'all')
        throw c.error(ch, `channel is mobile, ctv or all, not "${ch.text}".`, suggest(value, ['mobile', 'ctv', 'all']));
      ast.channel = located(ch, value);
      break;
    }
    case 'excluding':
    case 'except':
    case 'without':
      parseValues(c, ast, true, g);
      break;
    case 'for':
    case 'in':
    case 'on':
    case 'at':
    case 'over':
    case 'during':
    case 'within':
      parsePreposition(c, ast, g, t);
      break;
    default:
      ast.compare = parseCompare(c, t);
  }
}

/** for / in / on / over …: a range ("for last week"), an id ("for campaign 1001") or values ("in Brazil"). */
function parsePreposition(c: Cursor, ast: AdhocAst, g: GlossaryIndex, t: Token): void {
  while (c.peekWord() === 'the') c.next();
  if (atRange(c)) {
    if (ast.range) throw c.error(c.peek(), 'The query already has a range.');
    ast.range = parseRange(c);
    return;
  }
  const word = t.text.toLowerCase();
  if (word === 'over' || word === 'during' || word === 'within')
    throw c.error(c.peek(), `After "${t.text}", write a range: ${t.text} the last 7 days`);
  const entity = idFilterOf(c.peekWord(), g);
  if (entity && c.peek(1).kind !== 'number')
    throw c.error(c.peek(1), `${c.peek().text} takes ${idArticle(entity)} (a whole number): for ${c.peekWord()} 1001`);
  parseValues(c, ast, false, g);
}

/**
 * `top 5 campaigns by spend [with installs]`, `worst 3 exchanges by roas`: dimensions, metric,
 * order. Without a rank word (`campaigns by spend`), every row, highest first.
 */
function parseRanked(c: Cursor, g: GlossaryIndex, ast: AdhocAst, buckets: FieldAst[], ranked = true): void {
  if (!ranked) {
    ast.dimensions = parseFields(c, 'dimension', ast, g, buckets);
    ast.bySpan = { start: ast.dimensions[0]?.start ?? 0, end: c.lastEnd() };
    c.expectWord('by');
    ast.metrics = parseFields(c, 'metric', ast, g, buckets);
    const first = ast.metrics[0];
    if (!first) throw c.error(c.peek(), 'After "by", name the metric to rank by: campaigns by spend');
    ast.sort = { key: first.alias ?? first.name, desc: true };
    return;
  }
  const at = c.peek();
  const rank = readRank(c);
  const top = c.peek().kind === 'number' ? rowCount(c, rank.words) : { value: 10, start: at.start, end: c.lastEnd() };
  ast.dimensions = parseFields(c, 'dimension', ast, g, buckets);
  // "worst 5 by cpi": which rows is not said (a thread reply ranks its parent's).
  if (ast.dimensions.length === 0) {
    const written = top.start === at.start ? rank.words : `${rank.words} ${top.value}`;
    throw rowsError(c, c.peek(), written, c.peekWord() === 'by' ? c.peek(1).text : undefined);
  }
  ast.bySpan = { start: ast.dimensions[0]?.start ?? at.start, end: c.lastEnd() };
  if (c.peekWord() !== 'by') throw rankError(c, c.peek(), rank.words, top.value);
  c.next();
  const key = c.peek();
  ast.metrics = parseFields(c, 'metric', ast, g, buckets);
  const first = ast.metrics[0];
  if (!first) throw rankError(c, c.peek(), rank.words, top.value);
  checkCostRank(rank, key, g);
  ast.top = top;
  ast.sort = { key: first.alias ?? first.name, ...rank.order };
}

function isBucket(word: string, g: GlossaryIndex): boolean {
  const means = BUCKET_WORDS.has(word) ? g.lookup(word)?.means : undefined;
  return means?.kind === 'dimension' && means.granularity !== undefined;
}

function parseFields(
  c: Cursor,
  what: 'metric' | 'dimension',
  ast: AdhocAst,
  g: GlossaryIndex,
  buckets: FieldAst[],
): FieldAst[] {
  const fields: FieldAst[] = [];
  for (;;) {
    const sep = c.peek().text === ',' || c.peekWord() === 'and' || c.peekWord() === 'the';
    if (sep && (fields.length > 0 || c.peekWord() === 'the')) {
      c.next();
      continue;
    }
    const t = c.peek();
    const word = c.peekWord();
    if (t.kind !== 'word' || CLAUSES.has(word) || PHRASING_WORDS.has(word) || atRange(c)) break;
    if (atSortWords(c) || atThreshold(c) || isFlagAfterAs(c) || atRankClause(c)) break;
    if (word === 'no' && isBareValue(c.peekWord(1), c.peek(1))) break;
    if (what === 'metric' && (word === 'ctv' || word === 'mobile')) break;
    if (PERIOD_OVER_PERIOD[word]) break;
    if (what === 'metric' && isBucket(word, g)) {
      c.next();
      buckets.push({ name: located(t, t.text), args: [], start: t.start, end: t.end });
      continue;
    }
    if (atIdFilter(c, g)) {
      ast.where.push(parseIdFilter(c, g));
      continue;
    }
    if (isBareValue(word, t)) {
      parseValues(c, ast, false, g);
      continue;
    }
    if (looksLikeKeyword(t.text, what, g)) throw unexpected(c, t);
    c.next();
    const field: FieldAst = { name: located(t, t.text), args: [], start: t.start, end: t.end };
    if (c.peek().text === ':') {
      c.next();
      const gr = c.name('a granularity (date:daily)');
      field.granularity = located(gr, gr.text);
    }
    if (c.peek().text === '(') field.args = parseArgs(c);
    if (c.peekWord() === 'as' && !isFlagAfterAs(c)) {
      c.next();
      const alias = c.name(`a name for this ${what}`);
      field.alias = located(alias, alias.text);
    }
    field.end = c.lastEnd();
    fields.push(field);
  }
  return fields;
}

/** An unknown name that is a near miss of a clause word (`wher`) is a misspelled clause, not a field. */
function looksLikeKeyword(word: string, what: 'metric' | 'dimension', g: GlossaryIndex): boolean {
  const known = what === 'metric' ? findMetric(word) : findDimension(word);
  if (known || g.lookup(word)) return false;
  const names = what === 'metric' ? METRICS.map((m) => m.name) : DIMENSIONS.map((d) => d.name);
  return suggest(word, names).length === 0 && suggest(word, CLAUSE_WORDS).length > 0;
}

function unexpected(c: Cursor, t: Token): QueryError {
  const suggestions = t.kind === 'word' ? suggest(t.text, [...CLAUSE_WORDS, 'yesterday', 'today', 'last']) : [];
  const hint = suggestions.length > 0 ? ` Did you mean "${suggestions[0]}"?` : '';
  return c.error(t, `Unexpected "${t.text}" here.${hint}`, suggestions);
}
