/**
 * Sort direction as people say it: "cheapest first", "most expensive first", "highest first",
 * "lowest first", "best first", "worst first". Cheapest and most expensive sort by the query's cost
 * metric (a cost per install, action, click or mille; else spend), which is only known once the
 * query's metrics are (`costKey`).
 */
import { getMetric } from '../reporting/index.js';
import type { OrderAst, Span } from './ast.js';
import type { Cursor } from './Cursor.js';
import { QueryError } from './QueryError.js';

const DIRECTIONS: ReadonlyArray<readonly [readonly string[], Omit<OrderAst, 'key'>]> = [
  [['most', 'expensive'], { cost: true, desc: true }],
  [['priciest'], { cost: true, desc: true }],
  [['cheapest'], { cost: true, desc: false }],
  [['highest'], { desc: true }],
  [['biggest'], { desc: true }],
  [['largest'], { desc: true }],
  [['lowest'], { desc: false }],
  [['smallest'], { desc: false }],
  [['best'], { rank: 'best' }],
  [['worst'], { rank: 'worst' }],
];

function directionAt(c: Cursor): { length: number; order: Omit<OrderAst, 'key'> } | undefined {
  for (const [words, order] of DIRECTIONS)
    if (words.every((w, k) => c.peekWord(k) === w) && c.peekWord(words.length) === 'first')
      return { length: words.length + 1, order };
  return undefined;
}

/** True at "cheapest first", "highest first"… */
export function atSortWords(c: Cursor): boolean {
  return directionAt(c) !== undefined;
}

/** Reads "cheapest first" and the like: a sort on the query's ranking column (or cost metric). */
export function parseSortWords(c: Cursor): OrderAst {
  const found = directionAt(c);
  const start = c.peek().start;
  for (let i = 0; i < (found?.length ?? 0); i++) c.next();
  return { key: { value: '', start, end: c.lastEnd() }, ...found?.order };
}

/**
 * The column "cheapest first" sorts by: the query's one cost-per metric (`installsCpi`,
 * `eventsCpa`, `cpc`, `cpm`…), else its one spend metric. Several or none is refused, naming them.
 */
export function costKey(metrics: ReadonlyArray<{ key: string; name: string }>, at: Span): string {
  const costs = (polarity: string) =>
    metrics.filter((m) => {
      const def = getMetric(m.name);
      return def?.unit === 'currency' && def.polarity === polarity;
    });
  const perUnit = costs('lower_is_better');
  const candidates = perUnit.length > 0 ? perUnit : costs('neutral');
  const [only, ...more] = candidates;
  if (only && more.length === 0) return only.key;
  const names = candidates.map((m) => m.key);
  throw QueryError.rephrase(
    at,
    names.length === 0
      ? 'Cheapest and most expensive sort by a cost metric (cpi, cpa, cpc, cpm or spend), and this query has none: sort by <metric> asc.'
      : `Cheapest and most expensive sort by the query's cost metric, and it has ${names.length}: sort by ${names[0]} asc.`,
    names.map((n) => `sort by ${n} asc`),
  );
}
