/**
 * When a schedule fires, in its zone, with the daylight-saving rule of RFC 5545 and Temporal's
 * "compatible" disambiguation:
 * - a wall time that does not exist that day (spring forward) fires the gap's length later
 *   (02:30 on a night where 02:00 jumps to 03:00 fires at 03:30);
 * - a wall time that occurs twice (fall back) fires once, at its first occurrence,
 * - except that a schedule whose hour field is a wildcard (`0 * * * *`, `*\/15 * * * *`) runs on
 *   real time, as in Vixie cron: every distinct instant whose wall time matches fires, so the
 *   repeated hour is neither dropped nor doubled;
 * - instants are distinct: a gap time moved onto a time that also matches fires once.
 * Wall times are naive UTC milliseconds (see `reports/zonedTime.ts`); days are walked in the
 * zone's calendar, so nothing here depends on the machine's zone.
 */

/** When a schedule fires: a cron, or `at` with `days`, read in an IANA zone. */
export interface Timing {
  /** 5 fields, or 6 with a leading seconds field. Either `cron` or `at` is set. */
  cron?: string;
  /** `HH:MM`, with `days` (default daily). */
  at?: string;
  days?: 'daily' | 'weekdays' | 'weekends' | readonly string[];
  /** IANA zone the cron is read in. */
  timezone: string;
}

import { atToCron, type CronExpression, parseCron } from './cronExpression.js';
import { offsetAt, wallClock } from './zonedTime.js';

const SECOND_MS = 1_000;
const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** No zone moves its clocks by more than this in a day; bounds how far instants can reorder. */
const MAX_SHIFT_MS = 3 * HOUR_MS;
/** How far ahead to look for a next fire: `0 0 29 2 *` can wait 8 years (2096 → 2104). */
const HORIZON_DAYS = 366 * 9;

const parsed = new Map<string, CronExpression>();

/** The parsed cron of a spec (`at` + `days` compile to one); throws `CronSyntaxError`. */
export function specCron(spec: Omit<Timing, 'timezone'>): CronExpression {
  const text = spec.cron ?? (spec.at === undefined ? '' : atToCron(spec.at, spec.days));
  let cron = parsed.get(text);
  if (cron === undefined) {
    cron = parseCron(text);
    if (parsed.size >= 1_000) parsed.clear();
    parsed.set(text, cron);
  }
  return cron;
}

/**
 * The next `count` fire instants strictly after `from`.
 *
 * @example nextFires({ cron: '30 2 * * *', timezone: 'America/New_York' }, new Date('2026-03-08T00:00:00Z'), 1)
 * // [2026-03-08T07:30:00.000Z]: 02:30 does not exist that night, so 03:30 EDT
 */
export function nextFires(spec: Timing, from: Date, count: number): Date[] {
  const out: Date[] = [];
  if (count <= 0) return out;
  for (const t of fireInstants(specCron(spec), spec.timezone, from.getTime())) {
    out.push(new Date(t));
    if (out.length >= count) break;
  }
  return out;
}

/**
 * Fire instants with `after < t ≤ until`, oldest first; at most `limit` (the oldest ones).
 *
 * @example firesBetween(spec, lastFire, now) // the slots due since the last fire
 */
export function firesBetween(spec: Timing, after: Date, until: Date, limit = Number.POSITIVE_INFINITY): Date[] {
  const out: Date[] = [];
  const end = until.getTime();
  if (end <= after.getTime()) return out;
  for (const t of fireInstants(specCron(spec), spec.timezone, after.getTime())) {
    if (t > end || out.length >= limit) break;
    out.push(new Date(t));
  }
  return out;
}

/** Every fire instant after `afterMs`, increasing, lazily (a seconds cron yields 86,400 a day). */
export function* fireInstants(cron: CronExpression, zone: string, afterMs: number): Generator<number> {
  const firstDay = Math.floor(wallClock(afterMs, zone) / DAY_MS) * DAY_MS - DAY_MS;
  let pending: number[] = [];
  let last = afterMs;
  for (let day = firstDay; day <= firstDay + HORIZON_DAYS * DAY_MS; day += DAY_MS) {
    if (dayMatches(cron, day)) {
      pending.push(...dayInstants(cron, zone, day));
      pending.sort((a, b) => a - b);
    }
    if (pending.length === 0) continue;
    // Instants of later days cannot fall before this bound, so everything under it is final.
    const bound = day + DAY_MS - offsetAt(day, zone) - MAX_SHIFT_MS;
    let i = 0;
    for (; i < pending.length && (pending[i] ?? 0) < bound; i++) {
      const t = pending[i] ?? 0;
      if (t > last) {
        last = t;
        yield t;
      }
    }
    pending = pending.slice(i);
  }
  for (const t of pending) {
    if (t > last) {
      last = t;
      yield t;
    }
  }
}

/** Vixie cron day matching: both day fields restricted means either may match. */
function dayMatches(cron: CronExpression, day: number): boolean {
  const date = new Date(day);
  if (!cron.months.has(date.getUTCMonth() + 1)) return false;
  const dom = cron.daysOfMonth.has(date.getUTCDate());
  const dow = cron.daysOfWeek.has(date.getUTCDay());
  return cron.dayOfMonthStar || cron.dayOfWeekStar ? dom && dow : dom || dow;
}

/** The instants of one wall day's matching times, unsorted. */
function dayInstants(cron: CronExpression, zone: string, day: number): number[] {
  const out: number[] = [];
  const offset = offsetAt(day - DAY_MS, zone);
  // Most days have no transition near them: one offset for the whole day.
  const steady = offset === offsetAt(day + 2 * DAY_MS, zone);
  for (const h of cron.hours) {
    for (const m of cron.minutes) {
      for (const s of cron.seconds) {
        const wall = day + h * HOUR_MS + m * MINUTE_MS + s * SECOND_MS;
        if (steady) out.push(wall - offset);
        else out.push(...wallInstants(wall, zone, cron.hourStar));
      }
    }
  }
  return out;
}

/**
 * The instants at which `zone` shows `wall`: one normally; the first of two in a repeated hour
 * (both when `everyOccurrence`); and in a gap, the wall time read with the offset before the
 * gap, which lands the gap's length later.
 */
function wallInstants(wall: number, zone: string, everyOccurrence: boolean): number[] {
  const before = offsetAt(wall - DAY_MS, zone);
  const after = offsetAt(wall + DAY_MS, zone);
  const found = [...new Set([wall - before, wall - after])]
    .filter((t) => wallClock(t, zone) === wall)
    .sort((a, b) => a - b);
  if (found.length === 0) return [wall - before];
  return everyOccurrence ? found : found.slice(0, 1);
}
