/**
 * The edit a follow-up asks, read with the query language itself: "by source last 30 days",
 * "only iOS", "top 5 campaigns", "spend and installs". A reply that starts with metrics is read as
 * a query; anything else as the clauses after a placeholder metric, so every phrasing `/pivot`
 * knows (countries, ids, ranges, comparisons, buckets) works in a reply too.
 */
import { findMetric } from '../reporting/index.js';
import type { AdhocAst, FieldAst } from './ast.js';
import { metricSpec } from './compileQuery.js';
import type { GlossaryIndex } from './GlossaryIndex.js';
import { parseQuery } from './parseQuery.js';
import { QueryError } from './QueryError.js';
import { rankOfWords } from './rankWords.js';

/** A reply's words: "on it", "for us" are no countries there (`IT`, `US` are). */
const REPLY = { upperCaseCodes: true } as const;
/** A placeholder metric: the edit's clauses are read as if they followed it. */
const PLACEHOLDER = 'spend ';

export interface Edit {
  /** The clauses read: where, range, compare, top, sort, having, tz, channel, mode, csv. */
  ast: AdhocAst;
  /** Metrics the reply names (its first words), as written. */
  metrics: FieldAst[];
  /** Dimensions it names: after "by"/"per", buckets ("daily"), and bare words ("country?"). */
  dimensions: FieldAst[];
  /** "top 5 campaigns by installs": the metric ranks, it is added, never replaces. */
  ranked: boolean;
  /** Subtract from the AST's spans to get offsets in the reply. */
  offset: number;
}

/**
 * Reads the rest of a reply (the words around the edit blanked, offsets kept). `sortWord` is the
 * parent's ranking metric, which "top 5 campaigns" ranks by. Throws a `QueryError` whose span is
 * in the reply.
 *
 * @example readEdit('by source last 30 days', glossary, 'spend', false).dimensions[0].name.value // 'source'
 */
export function readEdit(rest: string, glossary: GlossaryIndex, sortWord: string, only: boolean): Edit {
  const words = rest.trim().split(/\s+/);
  const first = (words[0] ?? '').toLowerCase();
  // "top 5 campaigns", "most expensive 3 sources by cpi": the rows it names are ranked.
  const rank = rankOfWords(words);
  const rows = rank ? rank.length + (/^\d+$/.test(words[rank.length] ?? '') ? 1 : 0) : 0;
  const ranked = rank !== undefined && words.length > rows && words[rows]?.toLowerCase() !== 'by';
  const rankedByName = !rank && words[1]?.toLowerCase() === 'by' && !isMetricWord(first, glossary);
  let failure: QueryError | undefined;
  if (ranked || rankedByName) {
    const read = tryParse(rest, glossary) ?? (ranked ? tryParse(`${rest} by ${sortWord}`, glossary) : undefined);
    if (read && read.dimensions.length > 0)
      return { ast: read, metrics: read.metrics, dimensions: read.dimensions, ranked: true, offset: 0 };
    // What is wrong with the ranking ("cheapest 5 campaigns by installs") is what to say.
    if (ranked && !read) failure = parseError(rest, glossary);
  }
  const whole = isMetricWord(first, glossary) ? tryParse(rest, glossary) : undefined;
  if (whole) return { ast: whole, metrics: whole.metrics, dimensions: whole.dimensions, ranked: false, offset: 0 };
  // "only US": the values filter as after "for"; "only last week" reads without it.
  const prefixes = only && !rank ? [`${PLACEHOLDER}for `, PLACEHOLDER] : [PLACEHOLDER];
  for (const prefix of prefixes) {
    try {
      const ast = parseQuery(prefix + rest, glossary, REPLY);
      if (ast.kind !== 'adhoc') continue;
      return { ast, metrics: ast.metrics.slice(1), dimensions: ast.dimensions, ranked: false, offset: prefix.length };
    } catch (error) {
      if (!(error instanceof QueryError)) throw error;
      failure ??= error.shifted(-prefix.length);
    }
  }
  throw failure ?? new QueryError('There is nothing to read here.', 0, Math.max(1, rest.length));
}

function parseError(text: string, glossary: GlossaryIndex): QueryError | undefined {
  try {
    parseQuery(text, glossary, REPLY);
    return undefined;
  } catch (error) {
    if (error instanceof QueryError) return error;
    throw error;
  }
}

function tryParse(text: string, glossary: GlossaryIndex): AdhocAst | undefined {
  try {
    const ast = parseQuery(text, glossary, REPLY);
    return ast.kind === 'adhoc' ? ast : undefined;
  } catch (error) {
    if (error instanceof QueryError) return undefined;
    throw error;
  }
}

/**
 * True when the word is a metric, or a word the glossary reads as one or as a choice of metrics
 * ("conversions"), or one the service has no metric for ("ltv"): the reply names metrics, and its
 * problems are said as such.
 */
function isMetricWord(word: string, glossary: GlossaryIndex): boolean {
  if (word === '' || findMetric(word)) return word !== '';
  const means = glossary.lookup(word)?.means;
  if (means?.kind === 'metric') return true;
  if (means?.kind === 'missing') return means.what === 'metric';
  if (means?.kind === 'ambiguous') {
    try {
      metricSpec(
        { name: { value: means.choices[0]?.name ?? '', start: 0, end: 0 }, args: [], start: 0, end: 0 },
        glossary,
      );
      return true;
    } catch {
      return false;
    }
  }
  return false;
}
