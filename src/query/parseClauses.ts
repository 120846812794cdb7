/**
 * The small grammars inside the canonical clauses: a `where` condition, a `having` threshold, a
 * `sort by` column, a field's `(arg=value)` list. Each reads a few tokens with the cursor and
 * returns its AST; `parseQuery` decides which one applies.
 */
import type { ArgAst, ConditionAst, HavingAst, Located, Scalar } from './ast.js';
import type { Cursor } from './Cursor.js';

/** `(attrTouch=CLICK, window=7)`: a field's arguments, from the opening parenthesis. */
export function parseArgs(c: Cursor): ArgAst[] {
  c.next();
  const args: ArgAst[] = [];
  while (c.peek().text !== ')') {
    const name = c.name('an argument name (attrTouch=CLICK)');
    c.expect('=', `Write the argument as ${name.text}=VALUE.`);
    args.push({ name: located(name, name.text), value: value(c) });
    if (c.peek().text === ',') c.next();
    else if (c.peek().text !== ')') throw c.error(c.peek(), 'Expected "," or ")" after an argument.');
  }
  c.next();
  return args;
}

/** `where countryCode in (US,BR)`, `where os = ios`: one condition after `where` (or `and`). */
export function parseCondition(c: Cursor): ConditionAst {
  const field = c.name('a filter field (where countryCode in (US,BR))');
  const t = c.next();
  const word = t.kind === 'word' ? t.text.toLowerCase() : t.text;
  const cond = (op: ConditionAst['op'], values: Array<Located<Scalar>>): ConditionAst => ({
    field: located(field, field.text),
    op,
    values,
    start: field.start,
    end: c.lastEnd(),
  });
  if (word === '=' || word === '!=') return cond(word, [value(c)]);
  if (word === 'in') return cond('in', list(c));
  if (word === 'not') {
    c.expectWord('in');
    return cond('not in', list(c));
  }
  throw c.error(t, `Compare ${field.text} with =, !=, in (…) or not in (…).`);
}

/** `(US, BR)` or `US, BR`: the values of an `in` list, parenthesised or not. */
function list(c: Cursor): Array<Located<Scalar>> {
  const paren = c.peek().text === '(';
  if (paren) c.next();
  const values = [value(c)];
  while (c.peek().text === ',') {
    c.next();
    values.push(value(c));
  }
  if (paren) c.expect(')', 'Close the list with ")".');
  return values;
}

/** `having impressions > 10000`: one metric threshold after `having` (or `and`). */
export function parseHaving(c: Cursor): HavingAst {
  const metric = c.name('a metric (having impressions > 10000)');
  const op = c.next();
  if (op.kind !== 'op' || !['>', '>=', '<', '<='].includes(op.text))
    throw c.error(op, `Compare ${metric.text} with >, >=, < or <=: having ${metric.text} > 1000`);
  const n = c.next();
  if (n.kind !== 'number') throw c.error(n, `Expected a number after ${op.text}.`);
  return {
    metric: located(metric, metric.text),
    op: op.text as HavingAst['op'],
    value: located(n, Number(n.text)),
    start: metric.start,
    end: n.end,
  };
}

/** `spend desc`: the column to sort by and its optional direction. */
export function parseOrder(c: Cursor): { key: Located<string>; desc?: boolean } {
  const key = c.name('a column to sort by');
  const order: { key: Located<string>; desc?: boolean } = { key: located(key, key.text) };
  const dir = c.peekWord();
  if (dir === 'asc' || dir === 'desc') {
    c.next();
    order.desc = dir === 'desc';
  }
  return order;
}

/** One scalar: a number, a word or a quoted string. */
function value(c: Cursor): Located<Scalar> {
  const t = c.next();
  if (t.kind === 'number') return located(t, Number(t.text));
  if (t.kind === 'word' || t.kind === 'string') return located(t, t.text);
  throw c.error(t, `Expected a value${t.kind === 'end' ? ' at the end' : `, not "${t.text}"`}.`);
}

/** A value carrying the span of the token it was read from. */
export function located<T>(t: { start: number; end: number }, value: T): Located<T> {
  return { value, start: t.start, end: t.end };
}
