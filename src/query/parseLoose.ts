/**
 * The loose words of a line, around its clauses: a whole line in quotes, commas between clauses,
 * thresholds said in words, "no US", "as csv". `parseQuery` asks here before it calls a word
 * unexpected.
 */
import { findDimension, findMetric } from '../reporting/index.js';
import type { AdhocAst } from './ast.js';
import type { Cursor } from './Cursor.js';
import type { GlossaryIndex } from './GlossaryIndex.js';
import { isBareValue, parseValues } from './parsePhrasings.js';
import { atRowsWithThreshold, atThreshold, parseThreshold } from './parseThreshold.js';
import { type Token, tokenize } from './tokenize.js';

/** A whole line in quotes (“cpi by country yesterday”, pasted as it is written in the docs) is read without them. */
export function unquoted(tokens: Token[], text: string): Token[] {
  const [only, end] = tokens;
  if (tokens.length !== 2 || only?.kind !== 'string' || !/\s/.test(only.text) || !end) return tokens;
  return tokenize(text.slice(only.start + 1, only.end - 1)).map((t) => ({
    ...t,
    start: t.start + only.start + 1,
    end: t.end + only.start + 1,
  }));
}

/**
 * The loose words between clauses: a comma, a threshold ("min 50 installs", "campaigns with more
 * than 100 installs", the rows named being the query's), "no US" (excluding), "as csv", "as a
 * chart" (the answer's usual message, with its chart). True when one was read.
 */
export function parseLoose(c: Cursor, ast: AdhocAst, g: GlossaryIndex): boolean {
  const word = c.peekWord();
  if (c.peek().text === ',') return Boolean(c.next());
  if (atThreshold(c)) return Boolean(ast.having.push(parseThreshold(c)));
  if (atRowsWithThreshold(c) && isDimensionWord(word, g)) {
    const rows = dimensionOf(word, g);
    if (!ast.dimensions.some((d) => dimensionOf(d.name.value.toLowerCase(), g) === rows))
      throw c.error(c.peek(), `The query is not by ${rows}; add it first: by ${c.peek().text}.`);
    return Boolean(c.next());
  }
  if (word === 'no' && isBareValue(c.peekWord(1), c.peek(1))) {
    c.next();
    parseValues(c, ast, true, g);
    return true;
  }
  const article = c.peekWord(1) === 'a' || c.peekWord(1) === 'an' ? 1 : 0;
  const flag = c.peekWord(1 + article);
  if (word === 'as' && isFlagAfterAs(c)) {
    for (let i = 0; i < 2 + article; i++) c.next();
    if (flag === 'csv') ast.csv = true;
    return true;
  }
  return false;
}

/** True at "as csv", "as a chart": the answer's form, not a column's name. */
export function isFlagAfterAs(c: Cursor): boolean {
  const flag = c.peekWord(c.peekWord(1) === 'a' || c.peekWord(1) === 'an' ? 2 : 1);
  return c.peekWord() === 'as' && (flag === 'csv' || flag === 'chart' || flag === 'graph');
}

function dimensionOf(word: string, g: GlossaryIndex): string | undefined {
  const means = g.lookup(word)?.means;
  return means?.kind === 'dimension' ? means.dimension : findDimension(word)?.name;
}

/** A word that names a dimension and no metric (`campaigns`, `country`), not a time bucket. */
export function isDimensionWord(word: string, g: GlossaryIndex): boolean {
  const means = g.lookup(word)?.means;
  if (means) return means.kind === 'dimension' && means.granularity === undefined;
  return findDimension(word) !== undefined && findMetric(word) === undefined && word !== 'date';
}
