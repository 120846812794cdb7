/**
 * What a thread reply that cannot be read is offered instead, each meaning what the person wrote:
 * the reply with a misspelt word respelt (never a correctly spelt word of the language swapped for
 * another: `same period last month` is no misspelt `same spend last month`), and the part of it
 * that reads, its unknown words left out (`by country make it blue` → `by country`). Pure: the
 * caller tries every candidate on the parent before offering it, and runs none.
 */
import { editDistance, suggest } from '../core/index.js';
import { findDimension, findMetric } from '../reporting/index.js';
import { isCountryName } from './countries.js';
import type { GlossaryIndex } from './GlossaryIndex.js';
import { COMPARE_WORDS, FILLERS, LEADING_FILLERS, PHRASING_WORDS } from './parsePhrasings.js';
import { CLAUSE_WORDS } from './parseQuery.js';
import type { QueryError } from './QueryError.js';

/** Words of follow-ups a misspelt word may have meant ("instaed", "chrat", "daly"). */
const KEYWORDS = [
  'instead',
  'daily',
  'hourly',
  'weekly',
  'monthly',
  'chart',
  'csv',
  'why',
  'yesterday',
  'today',
  'top',
  'bottom',
  'best',
  'worst',
  'only',
  'without',
  'also',
  'drop',
  'total',
];

/** Words of the language besides the catalog, the glossary, countries and the clause words. */
const OTHER_WORDS = [
  ...KEYWORDS,
  'last',
  'past',
  'this',
  'since',
  'from',
  'to',
  'day',
  'days',
  'week',
  'weeks',
  'month',
  'months',
  'quarter',
  'year',
  'hour',
  'hours',
  'so',
  'far',
  'mtd',
  'wtd',
  'qtd',
  'ytd',
  'first',
  'cheapest',
  'most',
  'expensive',
  'priciest',
  'highest',
  'lowest',
  'all',
  'every',
  'add',
  'remove',
  'not',
  'no',
  'plus',
  'too',
  'just',
  'ios',
  'android',
  'ctv',
  'mobile',
  'asc',
  'desc',
  // Everyday words that are also country codes: never respelt into a country or a metric ("for us").
  'it',
  'us',
  'my',
  'me',
  'we',
  'is',
  'be',
  'do',
  'or',
  'as',
  'at',
  'to',
  'an',
  'up',
];
const LANGUAGE = new Set<string>([
  ...CLAUSE_WORDS,
  ...PHRASING_WORDS,
  ...LEADING_FILLERS,
  ...FILLERS,
  ...COMPARE_WORDS,
  ...OTHER_WORDS,
]);

/** True when the word is one the query language reads as it is: a respelling would change what it says. */
export function isLanguageWord(word: string, glossary: GlossaryIndex): boolean {
  const lower = word.trim().toLowerCase();
  if (LANGUAGE.has(lower) || isCountryName(lower)) return true;
  return findMetric(lower) !== undefined || findDimension(lower) !== undefined || glossary.lookup(lower) !== undefined;
}

/** The most letters a respelling may change: a slip of a letter or two ("ltv" is no misspelt "csv"). */
const slip = (word: string): number => Math.max(1, Math.floor(word.length / 4));

/**
 * What the error's word may have been, nearest spelling first: the error's suggestions, and words of
 * the language a letter or two away ("perod" → "period"). None for a word of the language unless
 * the error says what it can mean instead (`error.rephrased`: `ltv` → `eventValue`).
 */
function respellings(word: string, error: QueryError, glossary: GlossaryIndex): Array<{ s: string; d: number }> {
  if (!error.rephrased && isLanguageWord(word, glossary)) return [];
  const lower = word.toLowerCase();
  const given = error.suggestions.map((s) => ({ s, d: editDistance(lower, s.toLowerCase()) }));
  const best = Math.min(...given.map((g) => g.d), Number.POSITIVE_INFINITY);
  const words = word.length >= 4 ? [...KEYWORDS, ...LANGUAGE] : KEYWORDS;
  const near = [...new Set(suggest(word, words))]
    .map((s) => ({ s, d: editDistance(lower, s) }))
    .filter((k) => !error.suggestions.includes(k.s) && k.d <= slip(word))
    .sort((a, b) => a.d - b.d);
  return [...near.filter((k) => k.d < best), ...given, ...near.filter((k) => k.d >= best)];
}

/** The reply with the error's word replaced by each of its respellings, nearest first. */
export function fixesOf(reply: string, error: QueryError, glossary: GlossaryIndex): string[] {
  const start = error.position;
  const end = Math.min(reply.length, error.position + error.length);
  const word = reply.slice(start, end);
  if (start < 0 || start >= reply.length || word.trim() === '') return [];
  return respellings(word, error, glossary).map(({ s }) =>
    `${reply.slice(0, start)}${display(s)}${reply.slice(end)}`.replace(/[\s.!?…]+$/u, ''),
  );
}

/** A country name as people write it ("brazil" → "Brazil"). */
function display(suggestion: string): string {
  return isCountryName(suggestion) ? suggestion.replace(/\b[a-z]/g, (c) => c.toUpperCase()) : suggestion;
}

/** Words that turn what a reply says around: a reply is never offered without them. */
const TURNING = new Set([
  'not',
  'no',
  'never',
  'none',
  'nor',
  'without',
  'except',
  'excluding',
  'exclude',
  'minus',
  'dont',
  "don't",
  'don’t',
  'but',
  'instead',
  'only',
  'just',
]);
/** The most words left out of (or respelt in) a reply to find the part that reads. */
const MOST_CHANGED = 6;

/** How a reply reads on the parent: what it runs (any key that tells two answers apart), or why not. */
export type Reading = { runs: string } | QueryError | undefined;

/**
 * The part of a reply that reads, as it would run: the word each failure points at is respelt when
 * a slip of a letter or two ("yesterdy"), else left out ("make", "it", "blue"), until the rest
 * reads; words left dangling at its end that change nothing go too ("last 7 days and"). Undefined
 * when the whole reply reads or nothing of it does, or when a word to leave out could turn its
 * meaning around ("never", "not").
 */
export function readablePart(
  reply: string,
  read: (candidate: string) => Reading,
  glossary: GlossaryIndex,
): string | undefined {
  let text = reply.replace(/[\s.!?…]+$/u, '').trim();
  for (let changed = 0; changed <= MOST_CHANGED && text !== ''; changed++) {
    const result = read(text);
    if (result !== undefined && 'runs' in result) return changed > 0 ? trimmed(text, result.runs, read) : undefined;
    if (result === undefined || result.length > 60) return undefined;
    const words = [...text.matchAll(/\S+/g)].map((m) => ({ word: m[0], start: m.index, end: m.index + m[0].length }));
    const at =
      words.find((w) => result.position < w.end) ?? (result.position >= text.length ? words.at(-1) : undefined);
    if (!at) return undefined;
    const respelt = respellings(at.word, result, glossary).find((r) => r.d <= slip(at.word));
    if (!respelt && TURNING.has(at.word.toLowerCase())) return undefined;
    const instead = respelt ? display(respelt.s) : '';
    text = `${text.slice(0, at.start)} ${instead} ${text.slice(at.end)}`.replace(/\s+/g, ' ').trim();
  }
  return undefined;
}

/** The text without words at its end that change nothing of what it runs (`runs`). */
function trimmed(text: string, runs: string, read: (candidate: string) => Reading): string {
  let words = text.split(' ');
  const same = (candidate: string[]) => {
    const r = candidate.length > 0 ? read(candidate.join(' ')) : undefined;
    return r !== undefined && 'runs' in r && r.runs === runs;
  };
  for (let cut = true; cut && words.length > 1; ) {
    cut = false;
    for (const shorter of [words.slice(0, -1), words.slice(0, -2)])
      if (shorter.length > 0 && same(shorter)) {
        words = shorter;
        cut = true;
        break;
      }
  }
  return words.join(' ');
}
