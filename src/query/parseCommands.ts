/** The two commands of the query language that are not ad-hoc queries: `run <report>` and `postbacks …`. */
import { suggest } from '../core/index.js';
import type { Located, PostbacksAst, RunAst } from './ast.js';
import type { Cursor } from './Cursor.js';
import { atRange, parseRange } from './parseRange.js';
import { QueryError } from './QueryError.js';

export function parseRun(c: Cursor): RunAst {
  c.next();
  const name = c.name('a report name (run daily-kpi)');
  const ast: RunAst = { kind: 'run', report: located(name, name.text) };
  if (atRange(c)) ast.range = parseRange(c);
  return ast;
}

export function parsePostbacks(c: Cursor): PostbacksAst {
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

function located<T>(t: { start: number; end: number }, value: T): Located<T> {
  return { value, start: t.start, end: t.end };
}
