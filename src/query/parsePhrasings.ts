/**
 * The phrasings people use around the canonical clauses: "for US and BR", "in Brazil", "on iOS",
 * "campaign 1001", "excluding US", "WoW", "vs the day before", "top 5 campaigns by spend". Each
 * reads tokens with the cursor and writes the same AST the canonical clauses write, so the
 * compiler and its checks are the same for both.
 */
import { suggest } from '../core/index.js';
import { findDimension } from '../reporting/index.js';
import type { AdhocAst, Compare, ConditionAst, Located, Scalar } from './ast.js';
import type { Cursor } from './Cursor.js';
import { COUNTRY_NAMES, countryCodeOf, isBareCountryCode, isCountryName } from './countries.js';
import type { GlossaryIndex } from './GlossaryIndex.js';
import { ID_FILTERS } from './glossary.js';
import type { Token } from './tokenize.js';

/** Words that open a question and mean nothing to the query: "show me", "what was", "how many". */
export const LEADING_FILLERS = new Set([
  'show',
  'list',
  'me',
  'what',
  'whats',
  "what's",
  'what’s',
  'was',
  'is',
  'are',
  'were',
  'how',
  'many',
  'much',
  'did',
  'do',
  'we',
  'give',
  'get',
  'tell',
  'the',
  'our',
  'my',
  'total',
  'please',
  'i',
  'want',
  'need',
  'see',
  'pull',
]);

/** Words skipped between clauses: "installs by country, please", "ios only". */
export const FILLERS = new Set(['the', 'please', 'only', 'and']);

/** Words that open a phrasing clause, so they end a list of metrics or dimensions. */
export const PHRASING_WORDS = new Set([
  'per',
  'for',
  'in',
  'on',
  'at',
  'over',
  'during',
  'within',
  'excluding',
  'except',
  'without',
  'with',
  'versus',
  'sorted',
  'ordered',
  'bottom',
  'please',
  'only',
  'wow',
  'w/w',
  'dod',
  'd/d',
  'mom',
  'm/m',
  'same',
]);

/** "WoW", "DoD", "MoM": the comparison, and the range they imply when none is written. */
export const PERIOD_OVER_PERIOD: Readonly<Record<string, { compare: Compare; range: string }>> = {
  wow: { compare: 'same_period_last_week', range: 'last_7_days' },
  'w/w': { compare: 'same_period_last_week', range: 'last_7_days' },
  dod: { compare: 'previous_period', range: 'yesterday' },
  'd/d': { compare: 'previous_period', range: 'yesterday' },
  mom: { compare: 'same_period_last_month', range: 'last_month' },
  'm/m': { compare: 'same_period_last_month', range: 'last_month' },
};

const SAME = 'same_period_last_week';
const PREV = 'previous_period';
/** The same days one month earlier (on `last_month`, the month before: its previous period). */
const MONTH = 'same_period_last_month';
/** What may follow "vs": `#` is a number. Longest match wins. */
const COMPARE_PHRASES: ReadonlyArray<readonly [string, Compare]> = [
  ['previous period', PREV],
  ['prior period', PREV],
  ['previous_period', PREV],
  ['previous', PREV],
  ['prior', PREV],
  ['period before', PREV],
  ['last week', SAME],
  ['last_week', SAME],
  ['week', SAME],
  ['same_period_last_week', SAME],
  ['same period last week', SAME],
  ['same day last week', SAME],
  ['same days last week', SAME],
  ['same time last week', SAME],
  ['day before', PREV],
  ['previous day', PREV],
  ['yesterday', PREV],
  ['week before', PREV],
  ['previous week', PREV],
  ['prior week', PREV],
  ['month before', MONTH],
  ['previous month', MONTH],
  ['prior month', MONTH],
  ['last month', MONTH],
  ['same period last month', MONTH],
  ['same day last month', MONTH],
  ['same days last month', MONTH],
  ['same time last month', MONTH],
  ['previous # days', PREV],
  ['prior # days', PREV],
  ['last # days', PREV],
];

const COMPARE_PATTERNS = COMPARE_PHRASES.map(([phrase, value]) => [phrase.split(' '), value] as const);
/** Every word of a comparison ("same", "period", "prior"…). */
export const COMPARE_WORDS: ReadonlySet<string> = new Set(COMPARE_PATTERNS.flatMap(([words]) => words));
/** "same period last month" opens a comparison without "vs". */
export const SAME_WHAT = new Set(['period', 'time', 'day', 'days']);

/** After `vs` / `versus` / `compare` / `compared to` (or at "same period"): which comparison. */
export function parseCompare(c: Cursor, start: Token): Located<Compare> {
  while (c.peekWord() === 'the') c.next();
  let best: { length: number; value: Compare } | undefined;
  for (const [words, value] of COMPARE_PATTERNS) {
    const matches = words.every((w, i) =>
      w === '#' ? c.peek(i).kind === 'number' : c.peekWord(i) === w || (w === 'days' && c.peekWord(i) === 'day'),
    );
    if (matches && (!best || words.length > best.length)) best = { length: words.length, value };
  }
  if (!best)
    throw c.error(c.peek(), 'Compare with "previous period" or "last week": vs previous period', [
      'previous period',
      'last week',
    ]);
  for (let i = 0; i < best.length; i++) c.next();
  return { value: best.value, start: start.start, end: c.lastEnd() };
}

/** The Filter field a word filters on when a number follows it: campaign → campaignId. */
export function idFilterOf(word: string, glossary: GlossaryIndex): string | undefined {
  const direct = ID_FILTERS[word.replace(/\s+/g, '')];
  if (direct) return direct;
  const means = glossary.lookup(word)?.means;
  return means?.kind === 'dimension' ? means.idFilter : undefined;
}

/** A bundle id as people paste it: dotted names (`com.pub0.app`, `com.supercell.clashofclans`). */
const BUNDLE = /^[A-Za-z][\w-]*(\.[A-Za-z0-9_-]+)+$/;
/** The dimensions whose word a bundle id may follow: a publisher's bundle filters on `siteBundle`. */
const BUNDLE_FILTERS: Readonly<Record<string, string>> = { siteName: 'siteBundle', siteBundle: 'siteBundle' };

function isBundle(t: Token): boolean {
  return t.kind === 'word' && BUNDLE.test(t.text) && /[A-Za-z]/.test(t.text.slice(t.text.indexOf('.')));
}

/** The Filter field a bundle id after the word filters on: publisher com.pub0.app → siteBundle. */
function bundleFilterOf(word: string, glossary: GlossaryIndex): string | undefined {
  const means = glossary.lookup(word)?.means;
  const dimension = means?.kind === 'dimension' ? means.dimension : findDimension(word)?.name;
  return dimension === undefined ? undefined : BUNDLE_FILTERS[dimension];
}

/**
 * True when the cursor stands at "campaign 1001", "app 101", "campaigns 1001 and 1002", or a
 * publisher's bundle id ("publisher com.pub0.app").
 */
export function atIdFilter(c: Cursor, glossary: GlossaryIndex): boolean {
  if (c.peek(1).kind === 'number') return idFilterOf(c.peekWord(), glossary) !== undefined;
  return isBundle(c.peek(1)) && bundleFilterOf(c.peekWord(), glossary) !== undefined;
}

/**
 * "campaign 1001", "campaigns 1001, 1002 and 1003": a where condition on the id; "publisher
 * com.pub0.app", "publishers com.a.app and com.b.app": on the publisher's bundle id.
 */
export function parseIdFilter(c: Cursor, glossary: GlossaryIndex): ConditionAst {
  const entity = c.next();
  const bundleField = isBundle(c.peek()) ? bundleFilterOf(entity.text.toLowerCase(), glossary) : undefined;
  const field = bundleField ?? (idFilterOf(entity.text.toLowerCase(), glossary) as string);
  const values: Array<Located<Scalar>> = [];
  for (;;) {
    const n = c.next();
    if (!bundleField && (n.kind !== 'number' || !/^\d+$/.test(n.text)))
      throw c.error(n, `${entity.text} takes ${idArticle(field)} (a whole number): ${entity.text} 1001`);
    values.push({ value: bundleField ? n.text : Number(n.text), start: n.start, end: n.end });
    if (!isSeparator(c) || !(bundleField ? isBundle(c.peek(1)) : c.peek(1).kind === 'number')) break;
    c.next();
  }
  return condition(field, values, false, entity);
}

const PLATFORMS: Readonly<Record<string, string>> = {
  ios: 'IOS',
  iphone: 'IOS',
  ipad: 'IOS',
  apple: 'IOS',
  android: 'ANDROID',
  google: 'ANDROID',
};

/**
 * True when the (lower-case) word is a platform or a country name, or its token an upper-case country
 * code (`US`, not `us` or `IN`): a filter in any place.
 */
export function isBareValue(word: string, token?: Token): boolean {
  return PLATFORMS[word] !== undefined || isCountryName(word) || (token !== undefined && isBareCountryCode(token.text));
}

/**
 * "US and BR", "Brazil, Mexico", "iOS", "ctv": values after for / in / on / excluding, as where
 * conditions (countries on countryCode, platforms on appPlatform) and the channel.
 */
export function parseValues(c: Cursor, ast: AdhocAst, negate: boolean, glossary: GlossaryIndex): void {
  if (atIdFilter(c, glossary)) {
    const cond = parseIdFilter(c, glossary);
    ast.where.push(negate ? { ...cond, op: cond.op === '=' ? '!=' : 'not in' } : cond);
    return;
  }
  const countries: Array<Located<Scalar>> = [];
  const platforms: Array<Located<Scalar>> = [];
  let first: Token | undefined;
  for (;;) {
    const t = c.peek();
    const word = c.peekWord();
    const platform = PLATFORMS[word];
    const country = t.kind === 'word' && !platform ? countryOf(t.text, c) : undefined;
    if (!negate && (word === 'ctv' || word === 'mobile')) {
      c.next();
      ast.channel = { value: ast.channel && ast.channel.value !== word ? 'all' : word, start: t.start, end: t.end };
    } else if (platform) platforms.push({ value: platform, start: c.next().start, end: t.end });
    else if (country) countries.push({ value: country, start: c.next().start, end: t.end });
    else if (first === undefined) {
      const wanted = t.kind === 'word' ? `"${t.text}" is not a country` : 'Expected a country';
      const suggestions = t.kind === 'word' ? suggest(t.text, COUNTRY_NAMES) : [];
      throw c.error(
        t,
        `${wanted} (US, Brazil) or a platform (iOS, Android)${suggestions.length > 0 ? `. Did you mean "${suggestions[0]}"?` : '.'}`,
        suggestions,
      );
    } else break;
    first ??= t;
    if (!isSeparator(c) || !isValueWord(c.peek(1), c)) break;
    c.next();
  }
  if (countries.length > 0) ast.where.push(condition('countryCode', countries, negate, first as Token));
  if (platforms.length > 0) ast.where.push(condition('appPlatform', platforms, negate, first as Token));
}

function isValueWord(t: Token, c: Cursor): boolean {
  if (t.kind !== 'word') return false;
  const w = t.text.toLowerCase();
  return PLATFORMS[w] !== undefined || countryOf(t.text, c) !== undefined || w === 'ctv' || w === 'mobile';
}

/**
 * The country a word names: a country name, or two letters as a code; in a thread reply
 * (`upperCaseCodes`) only in upper case, so that "on it" and "for us" stay words.
 */
function countryOf(text: string, c: Cursor): string | undefined {
  if (c.upperCaseCodes && /^[a-z]{2}$/i.test(text) && !/^[A-Z]{2}$/.test(text) && !isCountryName(text.toLowerCase()))
    return undefined;
  return countryCodeOf(text);
}

function isSeparator(c: Cursor): boolean {
  const t = c.peek();
  return t.text === ',' || c.peekWord() === 'and' || c.peekWord() === 'or';
}

function condition(field: string, values: Array<Located<Scalar>>, negate: boolean, at: Token): ConditionAst {
  const one = values.length === 1;
  const op: ConditionAst['op'] = negate ? (one ? '!=' : 'not in') : one ? '=' : 'in';
  const end = values[values.length - 1]?.end ?? at.end;
  return { field: { value: field, start: at.start, end }, op, values, start: at.start, end };
}

/** `a campaign id`, `an app id`. */
export function idArticle(field: string): string {
  const words = field
    .replace(/Id$/, '')
    .replace(/([A-Z])/g, ' $1')
    .toLowerCase();
  return `${/^[aeiou]/.test(words) ? 'an' : 'a'} ${words} id`;
}
