import type { Located } from './ast.js';
import type { Cursor } from './Cursor.js';

const DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2})?)?$/;
const NAMED = /^(today|yesterday|this_week|last_week|month_to_date|last_month|last_\d+_(days?|hours?))$/i;
const UNITS: Record<string, 'days' | 'hours' | 'weeks'> = {
  day: 'days',
  days: 'days',
  d: 'days',
  hour: 'hours',
  hours: 'hours',
  h: 'hours',
  week: 'weeks',
  weeks: 'weeks',
};

/** True when the cursor stands at the start of a range (`yesterday`, `last 7 days`, `2026-11-01`…). */
export function atRange(c: Cursor): boolean {
  const t = c.peek();
  if (t.kind !== 'word') return false;
  const w = t.text.toLowerCase();
  return (
    NAMED.test(w) ||
    DATE.test(t.text) ||
    w === 'last' ||
    w === 'this' ||
    w === 'from' ||
    w === 'on' ||
    (w === 'month' && c.peekWord(1) === 'to')
  );
}

/**
 * Parses a range: `today`, `yesterday`, `last 14 days`, `last 24 hours`, `last 2 weeks`,
 * `last week`, `this week`, `last month`, `month to date`, `last_7_days`, `2026-11-19`,
 * `2026-11-01..2026-11-08`, `from 2026-11-01 to 2026-11-08`, `on 2026-11-19`.
 * Returns the spec `resolveRange` takes.
 */
export function parseRange(c: Cursor): Located<string | { from: string; to: string }> {
  const first = c.next();
  const w = first.text.toLowerCase();
  const located = (value: string | { from: string; to: string }) => ({ value, start: first.start, end: c.lastEnd() });
  if (NAMED.test(w)) return located(w);
  if (w === 'last') {
    const t = c.next();
    const word = t.text.toLowerCase();
    if (word === 'week' || word === 'month') return located(`last_${word}`);
    if (t.kind !== 'number')
      throw c.error(t, 'After "last", write a number and a unit: last 7 days, last 24 hours, last week, last month.');
    const unitToken = c.next();
    const unit = UNITS[unitToken.text.toLowerCase()];
    if (!unit)
      throw c.error(unitToken, `"${unitToken.text}" is not a unit; write days, hours or weeks.`, [
        'days',
        'hours',
        'weeks',
      ]);
    if (!/^\d+$/.test(t.text)) throw c.error(t, 'The count must be a whole number.');
    const n = Number(t.text);
    return located(unit === 'weeks' ? `last_${n * 7}_days` : `last_${n}_${unit}`);
  }
  if (w === 'this') {
    c.expectWord('week');
    return located('this_week');
  }
  if (w === 'month') {
    c.expectWord('to');
    c.expectWord('date');
    return located('month_to_date');
  }
  if (w === 'on') return located(date(c, c.next()));
  if (w === 'from') {
    const from = date(c, c.next());
    c.expectWord('to');
    return located({ from, to: date(c, c.next()) });
  }
  const from = date(c, first);
  if (c.peek().text === '..') {
    c.next();
    return located({ from, to: date(c, c.next()) });
  }
  return located(from);
}

function date(c: Cursor, t: ReturnType<Cursor['next']>): string {
  if (t.kind !== 'word' || !DATE.test(t.text)) throw c.error(t, `Expected a date like 2026-11-19, not "${t.text}".`);
  return t.text;
}
