import { RANGE_NAMES } from '../reports/index.js';
import type { Located } from './ast.js';
import type { Cursor } from './Cursor.js';
import { atMonthDay, dayLength, monthOf, readDay, readMonthDays } from './parseDay.js';

const DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2})?)?$/;
const NAMED = /^(today|yesterday|this_week|last_week|month_to_date|last_month|last_\d+_(days?|hours?))$/i;
/** The trade's short forms: WTD, MTD, QTD, YTD, L7D, L30D. */
const SHORT: Readonly<Record<string, string>> = {
  wtd: 'this_week',
  mtd: 'month_to_date',
  qtd: 'quarter_to_date',
  ytd: 'year_to_date',
  quarter_to_date: 'quarter_to_date',
  year_to_date: 'year_to_date',
  last_quarter: 'last_quarter',
};
const LNDAYS = /^l(\d{1,4})d$/i;
/** `30d`, `24h`, `2w`: a count glued to its unit. */
const GLUED = /^(\d{1,4})(d|h|w)$/i;
const UNITS: Record<string, 'days' | 'hours' | 'weeks'> = {
  day: 'days',
  days: 'days',
  d: 'days',
  hour: 'hours',
  hours: 'hours',
  h: 'hours',
  week: 'weeks',
  weeks: 'weeks',
  w: 'weeks',
};
const NUMBER_WORDS: Readonly<Record<string, number>> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  fourteen: 14,
  twenty: 20,
  thirty: 30,
  sixty: 60,
  ninety: 90,
};
/** Every word a range can start with, besides `last_…`, `L7D` and dates. */
const STARTS = new Set([
  ...RANGE_NAMES,
  ...Object.keys(SHORT),
  'last',
  'past',
  'previous',
  'prior',
  'this',
  'from',
  'on',
  'since',
  'month',
  'week',
  'quarter',
  'year',
]);
/** Words that say "the last …": `past 7 days`, `previous week`. */
const LAST = new Set(['last', 'past', 'previous', 'prior']);
const PERIODS = new Set(['week', 'month', 'quarter']);

/** True when the cursor stands at the start of a range (`yesterday`, `last 7 days`, `MTD`, `2026-11-01`…). */
export function atRange(c: Cursor): boolean {
  const w = c.peekWord();
  if (w === '') return false;
  // Most words start no range: a cheap first test keeps the parser fast (it asks at every word).
  const first = w.charCodeAt(0);
  const digit = first >= 48 && first <= 57;
  if (!digit && !STARTS.has(w) && !w.startsWith('last_') && !(first === 108 && LNDAYS.test(w)))
    return monthOf(w) !== undefined && atMonthDay(c);
  const t = c.peek();
  const next = c.peekWord(1);
  if (NAMED.test(w) || SHORT[w] !== undefined || LNDAYS.test(w) || DATE.test(t.text)) return true;
  if (w === 'last' || w === 'this' || w === 'from') return true;
  if (LAST.has(w)) return c.peek(1).kind === 'number' || NUMBER_WORDS[next] !== undefined || PERIODS.has(next);
  if (w === 'on' || w === 'since') return dayLength(c, 1) > 0;
  return (w === 'month' || w === 'week' || w === 'quarter' || w === 'year') && next === 'to';
}

/**
 * Parses a range: `today`, `yesterday`, `last 14 days`, `past 7 days`, `last 30d`, `L7D`,
 * `last 24 hours`, `last 2 weeks`, `last week`, `this week`/`WTD`, `this month`/`MTD`,
 * `this quarter`/`QTD`, `this year`/`YTD`, `last quarter`, `last_7_days`, `2026-11-19`,
 * `2026-11-01..2026-11-08`, `from 2026-11-01 to 2026-11-08`, `on 2026-11-19`, `since 2026-11-01`.
 * Returns the spec `resolveRange` takes, or `quarter_to_date`, `year_to_date`, `last_quarter`,
 * `since:<date>`, which `compileQuery` turns into dates.
 */
export function parseRange(c: Cursor): Located<string | { from: string; to: string }> {
  const first = c.next();
  const w = first.text.toLowerCase();
  const located = (value: string | { from: string; to: string }) => ({ value, start: first.start, end: c.lastEnd() });
  if (NAMED.test(w)) {
    if (w === 'today') soFar(c);
    return located(w);
  }
  const short = SHORT[w];
  if (short) {
    soFar(c);
    return located(short);
  }
  const lnd = LNDAYS.exec(w);
  if (lnd) return located(`last_${Number(lnd[1])}_days`);
  if (LAST.has(w)) return located(parseLast(c));
  if (w === 'this') {
    const t = c.next();
    const period = t.text.toLowerCase();
    const value = { week: 'this_week', month: 'month_to_date', quarter: 'quarter_to_date', year: 'year_to_date' }[
      period
    ];
    if (t.kind !== 'word' || value === undefined)
      throw c.error(t, 'After "this", write week, month, quarter or year.', ['week', 'month', 'quarter', 'year']);
    soFar(c);
    return located(value);
  }
  if (w === 'month' || w === 'week' || w === 'quarter' || w === 'year') {
    c.expectWord('to');
    c.expectWord('date');
    soFar(c);
    return located({ week: 'this_week', month: 'month_to_date', quarter: 'quarter_to_date', year: 'year_to_date' }[w]);
  }
  if (w === 'on') return located(readDay(c));
  if (w === 'since') return located(`since:${readDay(c)}`);
  if (w === 'from') {
    const from = readDay(c);
    // "from 13/11" with no end runs through today, as "since".
    const end = c.peekWord();
    if (end !== 'to' && end !== 'until' && end !== 'through' && end !== 'till') return located(`since:${from}`);
    c.expectWord('to');
    const to = readDay(c);
    // Both ISO dates: `to` exclusive, as in report definitions; a day as people write it is included.
    if (!from.startsWith('~') && !to.startsWith('~')) return located({ from, to });
    return located(`days:${from}..${to}`);
  }
  if (monthOf(w) !== undefined) {
    c.back();
    const { from, last } = readMonthDays(c);
    return located(from === last ? from : `days:${from}..${last}`);
  }
  const from = date(c, first);
  if (c.peek().text === '..') {
    c.next();
    return located({ from, to: date(c, c.next()) });
  }
  return located(from);
}

/** "this week so far", "MTD so far": the to-date ranges already run through today. */
function soFar(c: Cursor): void {
  if (c.peekWord() === 'so' && c.peekWord(1) === 'far') {
    c.next();
    c.next();
  }
}

/** After `last`/`past`/`previous`: `week`, `month`, `quarter`, or a count and a unit. */
function parseLast(c: Cursor): string {
  const t = c.next();
  const word = t.text.toLowerCase();
  if (word === 'week' || word === 'month' || word === 'quarter') return `last_${word}`;
  const glued = GLUED.exec(word);
  let count: string;
  let unitText: string;
  let unitToken = t;
  if (glued?.[1] && glued[2]) {
    count = glued[1];
    unitText = glued[2];
  } else {
    const fromWord = NUMBER_WORDS[word];
    if (t.kind !== 'number' && fromWord === undefined)
      throw c.error(
        t,
        'After "last", write a number and a unit: last 7 days, last 24 hours, last week, last month, last quarter.',
      );
    if (fromWord === undefined && !/^\d+$/.test(t.text)) throw c.error(t, 'The count must be a whole number.');
    count = String(fromWord ?? Number(t.text));
    unitToken = c.next();
    unitText = unitToken.text;
  }
  const unit = UNITS[unitText.toLowerCase()];
  if (!unit)
    throw c.error(unitToken, `"${unitToken.text}" is not a unit; write days, hours or weeks.`, [
      'days',
      'hours',
      'weeks',
    ]);
  const n = Number(count);
  return unit === 'weeks' ? `last_${n * 7}_days` : `last_${n}_${unit}`;
}

function date(c: Cursor, t: ReturnType<Cursor['next']>): string {
  if (t.kind !== 'word' || !DATE.test(t.text)) throw c.error(t, `Expected a date like 2026-11-19, not "${t.text}".`);
  return t.text;
}
