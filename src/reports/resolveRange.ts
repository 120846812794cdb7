import { didYouMean, ErrorCode, suggest, UserInputError } from '../core/index.js';
import {
  addWallDays,
  addWallMonths,
  isoInZone,
  isTimeZone,
  startOfWallDay,
  wallClock,
  wallToEpoch,
} from '../time/index.js';

/** A range as written: a relative name (`last_7_days`), a date, `2026-11-01..2026-11-08`, or `{ from, to }`. */
export type RangeSpec = string | { from: string; to: string };

/** A range resolved in a time zone: inclusive `from`, exclusive `to`, both ISO 8601 with offset. */
export interface ResolvedRange {
  from: string;
  to: string;
  /** `Yesterday (Thu 19 Nov 2026)`, `Last 7 days (13–19 Nov 2026)`. */
  label: string;
  timezone: string;
  fromMs: number;
  toMs: number;
  /** `month` and `quarter` for calendar ones (their previous period is the one before). */
  unit: 'day' | 'hour' | 'month' | 'quarter' | 'instant';
}

export type Comparison = 'previous_period' | 'same_period_last_week' | 'same_period_last_month' | 'none';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** The named ranges of report definitions (besides `last_N_days`, `last_N_hours` and dates). */
export const RANGE_NAMES = [
  'today',
  'yesterday',
  'this_week',
  'last_week',
  'month_to_date',
  'last_month',
  'quarter_to_date',
  'last_quarter',
  'year_to_date',
] as const;
const RANGE_WORDS = [...RANGE_NAMES, 'last_7_days', 'last_24_hours'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?(Z|[+-]\d{2}:?\d{2})?$/;

/** A range problem a person caused; `suggestions` lists range words close to what they wrote. */
export class RangeSpecError extends UserInputError {}

/**
 * Resolves a range in `timeZone` at the instant `now`. Day boundaries are local midnights (a day
 * may last 23 or 25 hours around DST changes); `to` is exclusive; weeks start on Monday; relative
 * ranges that include today end at tomorrow's midnight; `last_N_hours` ends at the start of the
 * current hour.
 *
 * @example resolveRange('yesterday', 'America/Sao_Paulo', new Date('2026-11-20T12:00:00Z'))
 * // { from: '2026-11-19T00:00:00-03:00', to: '2026-11-20T00:00:00-03:00', label: 'Yesterday (Thu 19 Nov 2026)', … }
 */
export function resolveRange(spec: RangeSpec, timeZone: string, now: Date): ResolvedRange {
  if (!isTimeZone(timeZone)) {
    throw new RangeSpecError(
      ErrorCode.TimezoneInvalid,
      `"${timeZone}" is not an IANA time zone (like Europe/Berlin or UTC).`,
    );
  }
  if (typeof spec !== 'string') return absolute(spec.from, spec.to, timeZone, `${spec.from} to ${spec.to}`);
  const text = spec.trim().toLowerCase();
  const today = startOfWallDay(wallClock(now.getTime(), timeZone));
  const days = (fromWall: number, toWall: number, name: string, unit: ResolvedRange['unit'] = 'day') =>
    build(wallToEpoch(fromWall, timeZone), wallToEpoch(toWall, timeZone), timeZone, name, unit);
  const weekStart = today - ((new Date(today).getUTCDay() + 6) % 7) * DAY_MS;
  const monthStart = addWallMonths(today, 0);
  const quarterStart = addWallMonths(today, -(new Date(today).getUTCMonth() % 3));
  switch (text) {
    case 'today':
      return days(today, addWallDays(today, 1), 'Today');
    case 'yesterday':
      return days(addWallDays(today, -1), today, 'Yesterday');
    case 'this_week':
      return days(weekStart, addWallDays(today, 1), 'This week');
    case 'last_week':
      return days(addWallDays(weekStart, -7), weekStart, 'Last week');
    case 'month_to_date':
      return days(monthStart, addWallDays(today, 1), 'Month to date');
    case 'last_month':
      return days(addWallMonths(monthStart, -1), monthStart, 'Last month', 'month');
    case 'quarter_to_date':
      return days(quarterStart, addWallDays(today, 1), 'Quarter to date');
    case 'last_quarter':
      return days(addWallMonths(quarterStart, -3), quarterStart, 'Last quarter', 'quarter');
    case 'year_to_date':
      return days(Date.UTC(new Date(today).getUTCFullYear(), 0, 1), addWallDays(today, 1), 'Year to date');
  }
  const lastDays = /^last_(\d{1,4})_days?$/.exec(text);
  if (lastDays) {
    const n = boundedCount(lastDays[1], 1, 1000, spec);
    return days(addWallDays(today, -n), today, n === 1 ? 'Last day' : `Last ${n} days`);
  }
  const lastHours = /^last_(\d{1,4})_hours?$/.exec(text);
  if (lastHours) {
    const n = boundedCount(lastHours[1], 1, 24 * 31, spec);
    const end = Math.floor(now.getTime() / HOUR_MS) * HOUR_MS;
    return build(end - n * HOUR_MS, end, timeZone, n === 1 ? 'Last hour' : `Last ${n} hours`, 'hour');
  }
  const between = /^(.+?)\.\.(.+)$/.exec(spec.trim());
  if (between?.[1] && between[2]) return absolute(between[1], between[2], timeZone, spec.trim());
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) {
    const day = parseWall(text, spec);
    return days(day.wall, addWallDays(day.wall, 1), '');
  }
  const suggestions = suggest(text, RANGE_WORDS);
  throw new RangeSpecError(
    ErrorCode.RangeInvalid,
    `"${spec}" is not a range. Use today, yesterday, last_N_days, last_N_hours, this_week, last_week, month_to_date, last_month, quarter_to_date, last_quarter, year_to_date, a date (2026-11-19) or from..to dates.${didYouMean(suggestions)}`,
    { suggestions },
  );
}

/** How a comparison period is labelled: `Same period last month (1–20 Oct 2026)`. */
const COMPARISON_NAMES: Readonly<Record<Exclude<Comparison, 'none'>, string>> = {
  previous_period: 'Previous period',
  same_period_last_week: 'Same period last week',
  same_period_last_month: 'Same period last month',
};

/**
 * The comparison period of a resolved range: `same_period_last_week` is the same wall-clock span
 * seven days earlier; `same_period_last_month` the same days one month earlier
 * (`sameDaysLastMonth`); `previous_period` is the span of equal length just before (whole days for
 * day ranges, the previous calendar month for `last_month` and quarter for `last_quarter`).
 *
 * @example previousRange(resolveRange('last_7_days', 'UTC', now), 'previous_period')
 */
export function previousRange(range: ResolvedRange, comparison: Exclude<Comparison, 'none'>): ResolvedRange {
  const zone = range.timezone;
  const fromWall = wallClock(range.fromMs, zone);
  const toWall = wallClock(range.toMs, zone);
  const dayAligned = fromWall % DAY_MS === 0 && toWall % DAY_MS === 0;
  let from: number;
  let to: number;
  if (comparison === 'same_period_last_month') {
    [from, to] = sameDaysLastMonth(range, fromWall, toWall, dayAligned);
  } else if (comparison === 'same_period_last_week') {
    from = wallToEpoch(addWallDays(fromWall, -7), zone);
    to = wallToEpoch(addWallDays(toWall, -7), zone);
  } else if (range.unit === 'month' || range.unit === 'quarter') {
    from = wallToEpoch(addWallMonths(fromWall, range.unit === 'month' ? -1 : -3), zone);
    to = range.fromMs;
  } else if (dayAligned) {
    const n = Math.round((toWall - fromWall) / DAY_MS);
    from = wallToEpoch(addWallDays(fromWall, -n), zone);
    to = range.fromMs;
  } else {
    from = range.fromMs - (range.toMs - range.fromMs);
    to = range.fromMs;
  }
  return build(from, to, zone, COMPARISON_NAMES[comparison], range.unit);
}

/**
 * The same days one month earlier: 1–20 Nov → 1–20 Oct. A day past the end of the shorter month
 * is its last day (29–31 Mar → 28 Feb); a calendar month (`last_month`) is the whole month before.
 * Day ranges move their first and last days; other ranges their start, keeping their length.
 */
function sameDaysLastMonth(
  range: ResolvedRange,
  fromWall: number,
  toWall: number,
  dayAligned: boolean,
): [number, number] {
  const zone = range.timezone;
  if (range.unit === 'month') return [wallToEpoch(addWallMonths(fromWall, -1), zone), range.fromMs];
  const from = monthEarlier(fromWall);
  const to = dayAligned ? addWallDays(monthEarlier(addWallDays(toWall, -1)), 1) : from + (toWall - fromWall);
  return [wallToEpoch(from, zone), wallToEpoch(to, zone)];
}

/** The same wall-clock time one month earlier, on the month's last day when it has no such day. */
function monthEarlier(wall: number): number {
  const d = new Date(wall);
  const lastDay = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 0)).getUTCDate();
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 1, Math.min(d.getUTCDate(), lastDay)) + (wall % DAY_MS);
}

function absolute(fromText: string, toText: string, zone: string, spec: string): ResolvedRange {
  const from = parseWall(fromText.trim(), spec);
  const to = parseWall(toText.trim(), spec);
  const fromMs = from.instant ?? wallToEpoch(from.wall, zone);
  const toMs = to.instant ?? wallToEpoch(to.wall, zone);
  if (fromMs >= toMs) {
    throw new RangeSpecError(
      ErrorCode.RangeEmpty,
      `The range ${spec} is empty: "to" is exclusive and must come after "from" (for one day, write 2026-11-19..2026-11-20 or just 2026-11-19).`,
    );
  }
  const aligned = from.dateOnly && to.dateOnly;
  return build(fromMs, toMs, zone, '', aligned ? 'day' : 'instant');
}

function parseWall(text: string, spec: string): { wall: number; instant?: number; dateOnly: boolean } {
  const match = DATE_TIME.exec(text);
  const bad = () =>
    new RangeSpecError(
      ErrorCode.RangeInvalid,
      `"${text}" in range "${spec}" is not a date (2026-11-19) or date-time (2026-11-19T06:00).`,
    );
  if (!match) throw bad();
  const [, y, mo, d, h = '0', mi = '0', s = '0', zone] = match;
  const wall = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  const check = new Date(wall);
  if (check.getUTCDate() !== Number(d) || check.getUTCMonth() !== Number(mo) - 1 || Number(h) > 23 || Number(mi) > 59)
    throw bad();
  const dateOnly = match[4] === undefined;
  if (zone === undefined) return { wall, dateOnly };
  if (zone === 'Z') return { wall, instant: wall, dateOnly };
  const digits = zone.slice(1).replace(':', '');
  const offset = (zone.startsWith('-') ? -1 : 1) * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2)));
  return { wall, instant: wall - offset * 60_000, dateOnly };
}

function boundedCount(digits: string | undefined, min: number, max: number, spec: string): number {
  const n = Number(digits);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new RangeSpecError(ErrorCode.RangeInvalid, `"${spec}": the count must be between ${min} and ${max}.`);
  }
  return n;
}

function build(fromMs: number, toMs: number, zone: string, name: string, unit: ResolvedRange['unit']): ResolvedRange {
  const span = spanLabel(fromMs, toMs, zone, unit);
  return {
    from: isoInZone(fromMs, zone),
    to: isoInZone(toMs, zone),
    label: name === '' ? span : `${name} (${span})`,
    timezone: zone,
    fromMs,
    toMs,
    unit,
  };
}

/** `Thu 19 Nov 2026`, `13–19 Nov 2026`, `28 Oct – 3 Nov 2026`, `Oct 2026`, or times for hour ranges. */
function spanLabel(fromMs: number, toMs: number, zone: string, unit: ResolvedRange['unit']): string {
  const first = new Date(wallClock(fromMs, zone));
  const lastWall = wallClock(toMs, zone);
  if (unit === 'hour' || unit === 'instant') {
    const end = new Date(lastWall);
    return `${dayText(first)} ${timeText(first)} – ${dayText(end)} ${timeText(end)}`;
  }
  const last = new Date(lastWall - 1);
  const fy = first.getUTCFullYear();
  const ly = last.getUTCFullYear();
  if (unit === 'month' && first.getUTCDate() === 1 && last.getUTCMonth() === first.getUTCMonth()) {
    return `${MONTHS[first.getUTCMonth()]} ${fy}`;
  }
  if (first.getTime() === startOfWallDay(last.getTime())) {
    return `${WEEKDAYS[first.getUTCDay()]} ${dayText(first)}`;
  }
  if (fy === ly && first.getUTCMonth() === last.getUTCMonth()) {
    return `${first.getUTCDate()}–${dayText(last)}`;
  }
  if (fy === ly) return `${first.getUTCDate()} ${MONTHS[first.getUTCMonth()]} – ${dayText(last)}`;
  return `${dayText(first)} – ${dayText(last)}`;
}

function dayText(d: Date): string {
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

function timeText(d: Date): string {
  return `${String(d.getUTCHours()).padStart(2, '0')}:${String(d.getUTCMinutes()).padStart(2, '0')}`;
}
