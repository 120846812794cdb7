/**
 * Rank phrases: "top 5", "bottom 5", "best 3", "worst 5", "cheapest 5", "most expensive 3",
 * "priciest 3", leading a query ("worst 5 campaigns by cpi") or after its metrics ("cpi by campaign
 * worst 5 by cpi"). Best and worst follow the metric's polarity (the best CPI is the lowest);
 * cheapest and most expensive rank a cost metric, lowest or highest first.
 */
import { findMetric, getMetric } from '../reporting/index.js';
import type { Located, OrderAst, Span } from './ast.js';
import type { Cursor } from './Cursor.js';
import type { GlossaryIndex } from './GlossaryIndex.js';
import { QueryError } from './QueryError.js';
import type { Token } from './tokenize.js';

type RankOrder = Omit<OrderAst, 'key'>;
const RANKS: ReadonlyArray<readonly [readonly string[], RankOrder]> = [
  [['top'], { desc: true }],
  [['bottom'], { desc: false }],
  [['best'], { rank: 'best' }],
  [['worst'], { rank: 'worst' }],
  [['cheapest'], { cost: true, desc: false }],
  [['most', 'expensive'], { cost: true, desc: true }],
  [['priciest'], { cost: true, desc: true }],
];

export interface RankPhrase {
  /** As written, lower case: "most expensive". */
  words: string;
  length: number;
  order: RankOrder;
  /** Where the phrase stands, once read. */
  span?: Span;
}

/** The rank phrase the words start with ("most expensive 3 …"), or undefined. */
export function rankOfWords(words: readonly string[]): RankPhrase | undefined {
  for (const [phrase, order] of RANKS)
    if (phrase.every((w, k) => words[k]?.toLowerCase() === w))
      return { words: phrase.join(' '), length: phrase.length, order };
  return undefined;
}

/** The rank phrase at the cursor, or undefined. */
export function rankAt(c: Cursor): RankPhrase | undefined {
  return rankOfWords([c.peekWord(), c.peekWord(1)]);
}

/** Reads the rank phrase at the cursor (there must be one), with its span. */
export function readRank(c: Cursor): RankPhrase {
  const rank = rankAt(c) as RankPhrase;
  const start = c.peek().start;
  for (let i = 0; i < rank.length; i++) c.next();
  return { ...rank, span: { start, end: c.lastEnd() } };
}

/** True at a rank phrase and its row count after a query's metrics: "worst 5", "cheapest 3 by cpi". */
export function atRankClause(c: Cursor): boolean {
  const rank = rankAt(c);
  return rank !== undefined && rank.words !== 'top' && c.peek(rank.length).kind === 'number';
}

/** Reads "worst 5", "worst 5 by cpi", "cheapest 3 by cpa" after the metrics: the row count and the order. */
export function parseRankClause(c: Cursor, g: GlossaryIndex): { top: Located<number>; sort: OrderAst } {
  const rank = readRank(c);
  const top = rowCount(c, rank.words);
  if (c.peekWord() !== 'by')
    return { top, sort: { key: { value: '', start: rank.span?.start ?? 0, end: c.lastEnd() }, ...rank.order } };
  c.next();
  const key = c.name('a metric to rank by');
  checkCostRank(rank, key, g);
  return { top, sort: { key: { value: key.text, start: key.start, end: key.end }, ...rank.order } };
}

/** "5" after a rank phrase: a row count between 1 and 10000. */
export function rowCount(c: Cursor, rankWords: string): Located<number> {
  const n = c.next();
  if (n.kind !== 'number' || !/^\d+$/.test(n.text) || Number(n.text) < 1 || Number(n.text) > 10_000)
    throw c.error(n, `${rankWords} takes a row count between 1 and 10000: ${rankWords} 5 campaigns by spend`);
  return { value: Number(n.text), start: n.start, end: n.end };
}

/**
 * Cheapest and most expensive rank a cost metric (a cost per install, action, click or mille, or
 * spend): "cheapest 5 campaigns by installs" is refused, offering top and bottom. A word that is
 * no metric is left to the compiler, which says so.
 */
export function checkCostRank(rank: RankPhrase, key: Token, g: GlossaryIndex): void {
  if (!rank.order.cost) return;
  const means = g.lookup(key.text)?.means;
  const name = findMetric(key.text)?.name ?? (means?.kind === 'metric' ? means.metric : undefined);
  const metric = name === undefined ? undefined : getMetric(name);
  if (!metric || (metric.unit === 'currency' && metric.polarity !== 'higher_is_better')) return;
  throw QueryError.rephrase(
    rank.span ?? key,
    `"${rank.words}" ranks by a cost (cpi, cpa, cpc, cpm or spend), and ${metric.name} is none: rank it with top (highest first) or bottom (lowest first).`,
    ['top', 'bottom'],
  );
}

/** The error for a rank phrase that names no metric ("top 5 campaigns"). */
export function rankError(c: Cursor, t: Token, rank: string, top: number): QueryError {
  return c.error(
    t,
    `After "${rank} ${top} campaigns", say by which metric: ${rank} ${top} campaigns by spend yesterday.`,
  );
}

/**
 * The error for a rank phrase that names no rows: "worst 5 by cpi" in /pivot has no rows to rank
 * (a thread reply ranks its parent's). `written`: the phrase and count as typed ("worst 5").
 */
export function rowsError(c: Cursor, t: Token, written: string, metric: string | undefined): QueryError {
  const tries = ['campaigns', 'sources'].map((rows) => `${written} ${rows} by ${metric ?? 'spend'}`);
  const said = metric === undefined ? written : `${written} by ${metric}`;
  return c.error(t, `"${said}" ranks rows; say what to rank: ${tries[0]} or ${tries[1]}.`, tries);
}

/**
 * A thread reply that ranks ("worst 5 by cpi") a query with no breakdown: one row has no worst 5.
 * Refused, offering the reply with rows named ("worst 5 campaigns by cpi").
 */
export function rowsUnsaid(reply: string): QueryError {
  const rank = /\b(top|bottom|best|worst|cheapest|most expensive|priciest)(\s+\d+)?/i;
  const tries = ['campaigns', 'sources'].map((rows) => reply.replace(rank, `$& ${rows}`));
  return new QueryError(
    `"${reply}" ranks rows, and this query has no breakdown: say which rows, e.g. ${tries[0]}.`,
    0,
    10_000,
    tries,
    true,
  );
}
