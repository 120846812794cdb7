import { suggest } from '../core/index.js';
import { DIMENSIONS, findDimension, findMetric, METRICS } from '../reporting/index.js';
import type {
  AdhocAst,
  ArgAst,
  ConditionAst,
  FieldAst,
  HavingAst,
  Located,
  PostbacksAst,
  QueryAst,
  RunAst,
  Scalar,
} from './ast.js';
import { Cursor } from './Cursor.js';
import { atRange, parseRange } from './parseRange.js';
import { QueryError } from './QueryError.js';
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

/**
 * Parses a query into its AST, keeping the span of every word. Names are not checked here
 * (`compileQuery` does that against the catalog); only the shape is.
 *
 * @example parseQuery('spend installs by countryCode yesterday')
 */
export function parseQuery(text: string): QueryAst {
  const c = new Cursor(tokenize(text));
  if (c.atEnd()) throw new QueryError('The query is empty. Try: spend installs by countryCode yesterday', 0, 1);
  const head = c.peekWord();
  const ast = head === 'run' ? parseRun(c) : head === 'postbacks' ? parsePostbacks(c) : parseAdhoc(c);
  if (!c.atEnd()) throw unexpected(c, c.peek());
  return ast;
}

function parseRun(c: Cursor): RunAst {
  c.next();
  const name = c.name('a report name (run daily-kpi)');
  const ast: RunAst = { kind: 'run', report: located(name, name.text) };
  if (atRange(c)) ast.range = parseRange(c);
  return ast;
}

function parsePostbacks(c: Cursor): PostbacksAst {
  const head = c.next();
  let appId: Located<number> | undefined;
  const keys: Array<Located<string>> = [];
  const ast: Omit<PostbacksAst, 'appId'> = { kind: 'postbacks', keys, revenue: false, organic: false };
  const out = ast as PostbacksAst;
  while (!c.atEnd()) {
    if (atRange(c)) {
      if (out.range) throw c.error(c.peek(), 'The query already has a range.');
      out.range = parseRange(c);
      continue;
    }
    const t = c.next();
    const word = t.text.toLowerCase();
    if (c.peek().text === ':') c.next();
    if (word === 'app') {
      const id = c.next();
      if (id.kind !== 'number' || !/^\d+$/.test(id.text))
        throw c.error(id, 'app takes an app id (a whole number): app:101');
      appId = located(id, Number(id.text));
    } else if (word === 'keys' || word === 'key') {
      do {
        const k = c.name('a postback key');
        keys.push(located(k, k.text));
      } while (c.peek().text === ',' && c.next());
    } else if (word === 'track') {
      const tr = c.name('events or installs');
      out.track = located(tr, tr.text);
    } else if (word === 'revenue') out.revenue = true;
    else if (word === 'organic') out.organic = true;
    else if (word === 'tz' || word === 'timezone') {
      const z = c.name('a time zone (America/Sao_Paulo)');
      out.timezone = located(z, z.text);
    } else {
      throw c.error(
        t,
        `"${t.text}" is not part of a postbacks query (app:<id> keys:<k1,k2> [track:installs] [revenue] [range]).`,
        suggest(word, ['app', 'keys', 'track', 'revenue', 'organic', 'tz']),
      );
    }
  }
  if (!appId) throw QueryError.at(head, 'postbacks needs an app: postbacks app:101 keys:conversion_value');
  if (keys.length === 0)
    throw QueryError.at(head, 'postbacks needs keys: postbacks app:101 keys:conversion_value,country');
  return { ...out, appId };
}

function parseAdhoc(c: Cursor): AdhocAst {
  const ast: AdhocAst = {
    kind: 'adhoc',
    metrics: parseFields(c, 'metric'),
    dimensions: [],
    where: [],
    having: [],
    csv: false,
  };
  if (ast.metrics.length === 0) {
    throw c.error(c.peek(), 'Start with at least one metric: spend installs installsCpi by countryCode yesterday');
  }
  while (!c.atEnd()) {
    const t = c.peek();
    const word = c.peekWord();
    if (atRange(c)) {
      if (ast.range) throw c.error(t, 'The query already has a range.');
      ast.range = parseRange(c);
      continue;
    }
    if (!CLAUSES.has(word) && word !== 'ctv' && word !== 'mobile') throw unexpected(c, t);
    c.next();
    switch (word) {
      case 'by': {
        if (ast.dimensions.length > 0)
          throw c.error(t, 'The query already has a "by" list; put every dimension in one.');
        ast.dimensions = parseFields(c, 'dimension');
        if (ast.dimensions.length === 0)
          throw c.error(c.peek(), 'After "by", name at least one dimension: by countryCode');
        ast.bySpan = { start: t.start, end: c.lastEnd() };
        break;
      }
      case 'where':
        do ast.where.push(parseCondition(c));
        while (c.peekWord() === 'and' && c.next());
        break;
      case 'having':
        do ast.having.push(parseHaving(c));
        while (c.peekWord() === 'and' && c.next());
        break;
      case 'top': {
        const n = c.next();
        if (n.kind !== 'number' || !/^\d+$/.test(n.text) || Number(n.text) < 1 || Number(n.text) > 10_000)
          throw c.error(n, 'top takes a row count between 1 and 10000: top 10 by spend');
        ast.top = located(n, Number(n.text));
        if (c.peekWord() === 'by') {
          c.next();
          ast.sort = parseOrder(c);
        }
        break;
      }
      case 'sort':
      case 'order':
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
        ast.channel = located(t, word);
        break;
      case 'channel': {
        const ch = c.name('mobile, ctv or all');
        const value = ch.text.toLowerCase();
        if (value !== 'mobile' && value !== 'ctv' && value !== 'all')
          throw c.error(
            ch,
            `channel is mobile, ctv or all, not "${ch.text}".`,
            suggest(value, ['mobile', 'ctv', 'all']),
          );
        ast.channel = located(ch, value);
        break;
      }
      default:
        ast.compare = parseCompare(c, t);
    }
  }
  return ast;
}

function parseCompare(c: Cursor, start: Token): Located<'previous_period' | 'same_period_last_week'> {
  const words: string[] = [];
  while (
    ['previous', 'period', 'previous_period', 'last', 'week', 'last_week', 'same_period_last_week'].includes(
      c.peekWord(),
    )
  )
    words.push(c.next().text.toLowerCase());
  const text = words.join(' ');
  const span = { start: start.start, end: c.lastEnd() };
  if (/^(previous( period)?|previous_period)$/.test(text)) return { ...span, value: 'previous_period' };
  if (/^(last week|last_week|week|same_period_last_week)$/.test(text))
    return { ...span, value: 'same_period_last_week' };
  throw c.error(c.peek(), 'Compare with "previous period" or "last week": vs previous period', [
    'previous period',
    'last week',
  ]);
}

function parseFields(c: Cursor, what: 'metric' | 'dimension'): FieldAst[] {
  const fields: FieldAst[] = [];
  for (;;) {
    if (c.peek().text === ',' && fields.length > 0) c.next();
    const t = c.peek();
    if (t.kind !== 'word' || CLAUSES.has(c.peekWord()) || atRange(c)) break;
    if (what === 'metric' && (c.peekWord() === 'ctv' || c.peekWord() === 'mobile')) break;
    if (looksLikeKeyword(t.text, what)) throw unexpected(c, t);
    c.next();
    const field: FieldAst = { name: located(t, t.text), args: [], start: t.start, end: t.end };
    if (c.peek().text === ':') {
      c.next();
      const g = c.name('a granularity (date:daily)');
      field.granularity = located(g, g.text);
    }
    if (c.peek().text === '(') field.args = parseArgs(c);
    if (c.peekWord() === 'as') {
      c.next();
      const alias = c.name(`a name for this ${what}`);
      field.alias = located(alias, alias.text);
    }
    field.end = c.lastEnd();
    fields.push(field);
  }
  return fields;
}

function parseArgs(c: Cursor): ArgAst[] {
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

function parseCondition(c: Cursor): ConditionAst {
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

function parseHaving(c: Cursor): HavingAst {
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

function parseOrder(c: Cursor): { key: Located<string>; desc?: boolean } {
  const key = c.name('a column to sort by');
  const order: { key: Located<string>; desc?: boolean } = { key: located(key, key.text) };
  const dir = c.peekWord();
  if (dir === 'asc' || dir === 'desc') {
    c.next();
    order.desc = dir === 'desc';
  }
  return order;
}

function value(c: Cursor): Located<Scalar> {
  const t = c.next();
  if (t.kind === 'number') return located(t, Number(t.text));
  if (t.kind === 'word' || t.kind === 'string') return located(t, t.text);
  throw c.error(t, `Expected a value${t.kind === 'end' ? ' at the end' : `, not "${t.text}"`}.`);
}

/** An unknown name that is a near miss of a clause word (`wher`) is a misspelled clause, not a field. */
function looksLikeKeyword(word: string, what: 'metric' | 'dimension'): boolean {
  const known = what === 'metric' ? findMetric(word) : findDimension(word);
  if (known) return false;
  const names = what === 'metric' ? METRICS.map((m) => m.name) : DIMENSIONS.map((d) => d.name);
  return suggest(word, names).length === 0 && suggest(word, CLAUSE_WORDS).length > 0;
}

function unexpected(c: Cursor, t: Token): QueryError {
  const suggestions = t.kind === 'word' ? suggest(t.text, [...CLAUSE_WORDS, 'yesterday', 'today', 'last']) : [];
  const hint = suggestions.length > 0 ? ` Did you mean "${suggestions[0]}"?` : '';
  return c.error(t, `Unexpected "${t.text}" here.${hint}`, suggestions);
}

function located<T>(t: { start: number; end: number }, value: T): Located<T> {
  return { value, start: t.start, end: t.end };
}
