import { findMetric, getMetric } from '../reporting/index.js';
import type {
  AdhocAst,
  Compare,
  ConditionAst,
  FieldAst,
  HavingAst,
  PostbacksAst,
  QueryAst,
  RunAst,
  Scalar,
} from './ast.js';
import { defaultGlossary, type GlossaryIndex } from './GlossaryIndex.js';
import { dayWords } from './parseDay.js';
import { costKey } from './sortWords.js';

/** A comparison in the words the parser reads back. */
const COMPARE_TEXT: Readonly<Record<Compare, string>> = {
  previous_period: 'vs previous period',
  same_period_last_week: 'vs last week',
  same_period_last_month: 'vs last month',
};
/** A word the tokenizer reads back as one word token of the same text (not a number). */
const PLAIN_WORD = /^[A-Za-z_][A-Za-z0-9_@#/+.-]*$/;
const NUMBER = /^-?\d+(\.\d+)?$/;

/**
 * Writes a parsed query back as text in the language's canonical clauses (no phrasings), so that
 * `parseQuery(formatQuery(ast))` gives the same AST, spans aside. What only phrasings can say is
 * written out: "WoW" with no range as `last_7_days … vs last week`, "best 3 … by cpi" as
 * `top 3 by cpi asc` (the metric's direction), "bottom 5" as `top 5 by <first metric> asc`.
 *
 * @example formatQuery(parseQuery('top 5 campaigns by spend')) // 'spend by campaigns top 5 by spend desc'
 */
export function formatQuery(ast: QueryAst, glossary: GlossaryIndex = defaultGlossary()): string {
  if (ast.kind === 'run') return formatRun(ast);
  if (ast.kind === 'postbacks') return formatPostbacks(ast);
  return formatAdhoc(ast, glossary);
}

function formatAdhoc(ast: AdhocAst, glossary: GlossaryIndex): string {
  const parts = [ast.metrics.map(fieldText).join(', ')];
  if (ast.dimensions.length > 0) parts.push(`by ${ast.dimensions.map(fieldText).join(', ')}`);
  const range = ast.range?.value ?? ast.defaultRange;
  if (range !== undefined) parts.push(rangeWords(range));
  if (ast.where.length > 0) parts.push(`where ${ast.where.map(conditionText).join(' and ')}`);
  if (ast.having.length > 0) parts.push(`having ${ast.having.map(havingText).join(' and ')}`);
  const sort = ast.sort ? sortText(ast, glossary) : undefined;
  if (ast.top) parts.push(`top ${ast.top.value}${sort ? ` by ${sort}` : ''}`);
  else if (sort) parts.push(`sort by ${sort}`);
  else if (ast.sort?.cost) parts.push(ast.sort.desc ? 'most expensive first' : 'cheapest first');
  if (ast.timezone) parts.push(`tz ${quoted(ast.timezone.value)}`);
  if (ast.compare) parts.push(COMPARE_TEXT[ast.compare.value]);
  if (ast.channel) parts.push(`channel ${ast.channel.value}`);
  if (ast.mode) parts.push(ast.mode);
  if (ast.csv) parts.push('csv');
  return parts.join(' ');
}

function formatRun(ast: RunAst): string {
  return `run ${quoted(ast.report.value)}${ast.range ? ` ${rangeWords(ast.range.value)}` : ''}`;
}

function formatPostbacks(ast: PostbacksAst): string {
  const parts = [`postbacks app:${ast.appId.value}`, `keys:${ast.keys.map((k) => quoted(k.value)).join(',')}`];
  if (ast.track) parts.push(`track:${quoted(ast.track.value)}`);
  if (ast.revenue) parts.push('revenue');
  if (ast.organic) parts.push('organic');
  if (ast.range) parts.push(rangeWords(ast.range.value));
  if (ast.timezone) parts.push(`tz ${quoted(ast.timezone.value)}`);
  return parts.join(' ');
}

/** `installs(attrTouch=CLICK) as clickInstalls`, `date:daily`, `countryCode`. */
function fieldText(field: FieldAst): string {
  const granularity = field.granularity ? `:${quoted(field.granularity.value)}` : '';
  const args = field.args.map((a) => `${quoted(a.name.value)}=${scalarText(a.value.value)}`);
  const alias = field.alias ? ` as ${quoted(field.alias.value)}` : '';
  return `${nameText(field.name.value)}${granularity}${args.length > 0 ? `(${args.join(', ')})` : ''}${alias}`;
}

/**
 * A range as the parser reads it back: the report definitions' names (`last_7_days`), dates, and
 * `since <date>`.
 */
export function rangeWords(range: string | { from: string; to: string }): string {
  if (typeof range !== 'string') return `${range.from}..${range.to}`;
  if (range.startsWith('since:')) return `since ${dayWords(range.slice('since:'.length))}`;
  if (range.startsWith('days:')) {
    const [first = '', last = ''] = range.slice('days:'.length).split('..');
    return `from ${dayWords(first)} to ${dayWords(last)}`;
  }
  if (range.startsWith('~')) return `on ${dayWords(range)}`;
  return range;
}

/** `countryCode in (US, BR)` */
export function conditionText(cond: ConditionAst): string {
  const values = cond.values.map((v) => scalarText(v.value));
  const list = cond.op === 'in' || cond.op === 'not in' ? `(${values.join(', ')})` : (values[0] ?? '');
  return `${nameText(cond.field.value)} ${cond.op} ${list}`;
}

/** `impressions > 1000` */
export function havingText(h: HavingAst): string {
  return `${nameText(h.metric.value)} ${h.op} ${h.value.value}`;
}

/** `spend desc`; a rank ("best") as the direction the metric's polarity gives; no key: the first metric. */
function sortText(ast: AdhocAst, glossary: GlossaryIndex): string {
  const sort = ast.sort;
  if (!sort) return '';
  const first = ast.metrics[0];
  let key = sort.key.value === '' ? (first?.alias?.value ?? first?.name.value ?? '') : sort.key.value;
  if (sort.key.value === '' && sort.cost) {
    const named = ast.metrics.map((m) => ({
      key: m.alias?.value ?? m.name.value,
      name: metricName(m.name.value, glossary),
    }));
    try {
      key = costKey(named, sort.key);
    } catch {
      // No one cost metric: the words read back the same, and the compiler says why they cannot run.
      return '';
    }
  }
  let desc = sort.desc !== false;
  if (sort.rank) {
    const lowIsGood = polarityOf(key, ast, glossary) === 'lower_is_better';
    desc = (sort.rank === 'best') !== lowIsGood;
  }
  return `${nameText(key)} ${desc ? 'desc' : 'asc'}`;
}

/** The catalog metric a metric word names (`cpi` → installsCpi), or the word. */
function metricName(word: string, glossary: GlossaryIndex): string {
  const means = glossary.lookup(word)?.means;
  return findMetric(word)?.name ?? (means?.kind === 'metric' ? means.metric : word);
}

/** The polarity of the metric a sort key names: a column's alias, a catalog name or a glossary word. */
function polarityOf(key: string, ast: AdhocAst, glossary: GlossaryIndex): string | undefined {
  const field = ast.metrics.find((m) => (m.alias?.value ?? m.name.value).toLowerCase() === key.toLowerCase());
  const word = field?.name.value ?? key;
  const direct = findMetric(word);
  if (direct) return direct.polarity;
  const means = glossary.lookup(word)?.means;
  return means?.kind === 'metric' ? getMetric(means.metric)?.polarity : undefined;
}

/** A name: as it is when it reads back as one word (a glossary phrase is merged again), else quoted. */
function nameText(name: string): string {
  return PLAIN_WORD.test(name) || /^[A-Za-z][\w'’/-]*( [\w'’/-]+)+$/.test(name) ? name : quoted(name);
}

function quoted(text: string): string {
  if (PLAIN_WORD.test(text) && !text.includes('..')) return text;
  return text.includes('"') ? `'${text}'` : `"${text}"`;
}

function scalarText(value: Scalar): string {
  if (typeof value === 'number') return String(value);
  if (typeof value === 'boolean') return String(value);
  return NUMBER.test(value) ? `"${value}"` : quoted(value);
}
