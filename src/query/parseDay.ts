/**
 * Days as people write them: `2026-11-01`, `Nov 1`, `1 November`, `13/11`, `11/16`, `monday`. A
 * day without a year is kept as written (`~11-01`, `~monday`) and becomes a date only when the
 * query is compiled, with the clock and the query's zone (`dayOf`): the latest such day that is not
 * after today.
 */
import { wallClock } from '../time/index.js';
import type { Cursor } from './Cursor.js';

const ISO = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2})?)?$/;
const SLASHED = /^(\d{1,2})\/(\d{1,2})(?:\/(\d{4}))?$/;
const DAY_NUMBER = /^(\d{1,2})(?:st|nd|rd|th)?$/i;
const DAY_SPAN = /^(\d{1,2})-(\d{1,2})$/;
const MONTH_NAMES = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const LONG_MONTHS = 'january february march april may june july august september october november december'.split(' ');
export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const SHORT_WEEKDAYS: Readonly<Record<string, string>> = {
  mon: 'monday',
  tue: 'tuesday',
  tues: 'tuesday',
  wed: 'wednesday',
  thu: 'thursday',
  thur: 'thursday',
  thurs: 'thursday',
  fri: 'friday',
  sat: 'saturday',
  sun: 'sunday',
};
const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const DAY_MS = 86_400_000;

/** 1–12 for a month name (`nov`, `November`, `sept`), else undefined. */
export function monthOf(word: string): number | undefined {
  const w = word.toLowerCase();
  const i = w === 'sept' ? 8 : MONTH_NAMES.indexOf(w) >= 0 ? MONTH_NAMES.indexOf(w) : LONG_MONTHS.indexOf(w);
  return i >= 0 ? i + 1 : undefined;
}

function weekdayOf(word: string): string | undefined {
  const w = word.toLowerCase();
  return WEEKDAYS.includes(w) ? w : SHORT_WEEKDAYS[w];
}

/** How many tokens the day at `ahead` takes (0: no day there). */
export function dayLength(c: Cursor, ahead = 0): number {
  const t = c.peek(ahead);
  if (t.kind !== 'word' && t.kind !== 'number') return 0;
  if (ISO.test(t.text) || SLASHED.test(t.text) || weekdayOf(t.text)) return 1;
  const next = c.peek(ahead + 1).text;
  if (monthOf(t.text) !== undefined && DAY_NUMBER.test(next)) return 2;
  if (DAY_NUMBER.test(t.text) && monthOf(next) !== undefined) return 2;
  return 0;
}

/** True at `Nov 1`, `Nov 1-15`: a month name and a day (or days) with no word before them. */
export function atMonthDay(c: Cursor): boolean {
  const next = c.peek(1).text;
  return monthOf(c.peekWord()) !== undefined && (DAY_NUMBER.test(next) || DAY_SPAN.test(next));
}

const pad = (n: number) => String(n).padStart(2, '0');

function monthDay(c: Cursor, t: { start: number; end: number; text: string }, month: number, day: number): string {
  if (day < 1 || day > (DAYS_IN_MONTH[month - 1] ?? 0))
    throw c.error({ ...t, kind: 'word' }, `There is no day ${day} in ${LONG_MONTHS[month - 1] ?? 'that month'}.`);
  return `~${pad(month)}-${pad(day)}`;
}

/**
 * Reads one day: an ISO date as it is, a day without a year as `~MM-DD`, a weekday as `~monday`.
 * `1/11` (either day of month first) is refused with both readings; `13/11` and `11/16` have one.
 */
export function readDay(c: Cursor): string {
  const t = c.next();
  if (ISO.test(t.text)) return t.text;
  const weekday = weekdayOf(t.text);
  if (weekday) return `~${weekday}`;
  const slashed = SLASHED.exec(t.text);
  if (slashed) return slashedDay(c, t, Number(slashed[1]), Number(slashed[2]), slashed[3]);
  const month = monthOf(t.text);
  if (month !== undefined) {
    const d = c.next();
    return monthDay(c, d, month, Number(DAY_NUMBER.exec(d.text)?.[1]));
  }
  const dayNumber = DAY_NUMBER.exec(t.text);
  if (dayNumber) {
    const m = monthOf(c.next().text) ?? 0;
    return monthDay(c, t, m, Number(dayNumber[1]));
  }
  throw c.error(t, `Expected a date like 2026-11-19 or Nov 19, not "${t.text}".`);
}

function slashedDay(c: Cursor, t: ReturnType<Cursor['next']>, a: number, b: number, year?: string): string {
  const readings: Array<[number, number]> = [];
  if (a >= 1 && a <= 12 && b >= 1 && b <= (DAYS_IN_MONTH[a - 1] ?? 0)) readings.push([a, b]);
  if (b >= 1 && b <= 12 && a >= 1 && a <= (DAYS_IN_MONTH[b - 1] ?? 0) && a !== b) readings.push([b, a]);
  const [first, second] = readings;
  if (!first) throw c.error(t, `"${t.text}" is no date: write it like 2026-11-19 or Nov 19.`);
  if (second) {
    const words = readings.map(([m, d]) => `${MONTH_NAMES[m - 1]?.replace(/^./, (x) => x.toUpperCase())} ${d}`);
    const spoken = readings.map(([m, d]) => `${d} ${LONG_MONTHS[m - 1]?.replace(/^./, (x) => x.toUpperCase())}`);
    throw c.error(t, `"${t.text}" could be ${spoken[0]} or ${spoken[1]}; write ${words[0]} or ${words[1]}.`, words);
  }
  const [month, day] = first;
  return year ? `${year}-${pad(month)}-${pad(day)}` : `~${pad(month)}-${pad(day)}`;
}

/** `Nov 1-15`: the month name, then the first and last day (the last one included). */
export function readMonthDays(c: Cursor): { from: string; last: string } {
  const m = c.next();
  const month = monthOf(m.text) ?? 0;
  const d = c.next();
  const span = DAY_SPAN.exec(d.text);
  if (!span) {
    const day = monthDay(c, d, month, Number(DAY_NUMBER.exec(d.text)?.[1]));
    return { from: day, last: day };
  }
  const from = monthDay(c, d, month, Number(span[1]));
  const last = monthDay(c, d, month, Number(span[2]));
  if (last < from) throw c.error(d, `"${d.text}" ends before it starts; write the first day first: Nov 1-15.`);
  return { from, last };
}

/**
 * The date (`2026-11-01`) of a day read by `readDay`, today being `today` (`YYYY-MM-DD` in the
 * query's zone): a day without a year is the latest one not after today (or, with `notBefore`,
 * the first one on or after it); a weekday the latest one on or before today.
 */
export function dateOfDay(day: string, today: string, notBefore?: string): string {
  if (!day.startsWith('~')) return day;
  const todayMs = Date.parse(`${today}T00:00:00Z`);
  const weekday = WEEKDAYS.indexOf(day.slice(1));
  if (weekday >= 0) {
    const back = (new Date(todayMs).getUTCDay() + 6 - weekday) % 7;
    return iso(todayMs - back * DAY_MS);
  }
  const [month, dayOfMonth] = day.slice(1).split('-').map(Number) as [number, number];
  const year = Number(today.slice(0, 4));
  const candidates = [year - 1, year, year + 1].map((y) => iso(Date.UTC(y, month - 1, dayOfMonth)));
  if (notBefore !== undefined) return candidates.find((d) => d >= notBefore) ?? (candidates[2] as string);
  return [...candidates].reverse().find((d) => d <= today) ?? (candidates[0] as string);
}

/** Today's date in `zone` at `now`. */
export function todayIn(zone: string, now: Date): string {
  return iso(wallClock(now.getTime(), zone));
}

/** A day as the parser reads it back: `2026-11-01`, `Nov 1`, `monday`. */
export function dayWords(day: string): string {
  if (!day.startsWith('~')) return day;
  if (WEEKDAYS.includes(day.slice(1))) return day.slice(1);
  const [month, d] = day.slice(1).split('-').map(Number) as [number, number];
  return `${MONTH_NAMES[month - 1]?.replace(/^./, (x) => x.toUpperCase())} ${d}`;
}

function iso(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
