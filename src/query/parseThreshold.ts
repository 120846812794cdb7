/**
 * Thresholds as people say them, read as `having`: "with more than 100 installs", "min 50
 * installs", "at least 1000 impressions", "only campaigns with over 100 installs", "under 20
 * clicks". The compiler checks the metric is one `having` takes, as for the clause itself.
 */
import type { HavingAst } from './ast.js';
import type { Cursor } from './Cursor.js';

const COMPARATORS: ReadonlyArray<readonly [readonly string[], HavingAst['op']]> = [
  [['more', 'than'], '>'],
  [['greater', 'than'], '>'],
  [['over'], '>'],
  [['above'], '>'],
  [['at', 'least'], '>='],
  [['min'], '>='],
  [['minimum'], '>='],
  [['fewer', 'than'], '<'],
  [['less', 'than'], '<'],
  [['under'], '<'],
  [['below'], '<'],
  [['at', 'most'], '<='],
  [['max'], '<='],
  [['maximum'], '<='],
];
/** Words that may open a threshold: "with more than 100 installs", "that have at least 50 installs". */
const OPENERS: ReadonlyArray<readonly string[]> = [['with'], ['having'], ['that', 'have'], ['which', 'have']];

function comparatorAt(c: Cursor, ahead: number): { length: number; op: HavingAst['op'] } | undefined {
  for (const [words, op] of COMPARATORS) {
    if (!words.every((w, k) => c.peekWord(ahead + k) === w)) continue;
    const n = c.peek(ahead + words.length);
    if (n.kind === 'number' && c.peek(ahead + words.length + 1).kind === 'word') return { length: words.length, op };
  }
  return undefined;
}

function openerAt(c: Cursor): number {
  for (const words of OPENERS) if (words.every((w, k) => c.peekWord(k) === w)) return words.length;
  return 0;
}

/** True at a threshold: an optional opener, a comparator, a number and a metric. */
export function atThreshold(c: Cursor): boolean {
  return comparatorAt(c, openerAt(c)) !== undefined;
}

/** True at "campaigns with more than 100 installs": the rows a threshold keeps, named before it. */
export function atRowsWithThreshold(c: Cursor): boolean {
  const open = ['with', 'having', 'that', 'which'].includes(c.peekWord(1));
  if (!open) return false;
  const shifted = c.peekWord(2) === 'have' ? 3 : 2;
  return comparatorAt(c, shifted) !== undefined;
}

/** Reads a threshold at `atThreshold` as the `having` it means. */
export function parseThreshold(c: Cursor): HavingAst {
  const opener = openerAt(c);
  const start = c.peek().start;
  const found = comparatorAt(c, opener);
  for (let i = 0; i < opener + (found?.length ?? 0); i++) c.next();
  const n = c.next();
  const metric = c.next();
  return {
    metric: { value: metric.text, start: metric.start, end: metric.end },
    op: found?.op ?? '>',
    value: { value: Number(n.text), start: n.start, end: n.end },
    start,
    end: metric.end,
  };
}
