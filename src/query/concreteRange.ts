import type { RangeSpec } from '../reports/index.js';
import { isTimeZone } from '../time/index.js';
import type { Located } from './ast.js';
import { dateOfDay, todayIn } from './parseDay.js';

const DAY_MS = 86_400_000;

/**
 * The range words the report definitions do not have, as the dates they mean today in `zone`:
 * `since:<day>` (that day through today: it ends at tomorrow's midnight, like `month_to_date`), a
 * day written without a year (`~11-03`, `~monday`), and `days:<first>..<last>` (both days
 * included). Days without a year are the latest such day not after today (`parseDay`). Every other
 * range as written, so it stays relative (`quarter_to_date` in a saved query moves with the clock).
 *
 * @example concrete({ value: 'since:2026-11-01', … }, 'UTC', new Date('2026-11-20T12:00:00Z')) // 2026-11-01..2026-11-21
 */
export function concrete(range: Located<RangeSpec>, zone: string, now: Date): RangeSpec {
  const spec = range.value;
  if (typeof spec !== 'string' || !isTimeZone(zone)) return spec;
  const today = todayIn(zone, now);
  if (spec.startsWith('since:')) return `${dateOfDay(spec.slice('since:'.length), today)}..${nextDay(today)}`;
  if (spec.startsWith('days:')) {
    const [first = '', last = ''] = spec.slice('days:'.length).split('..');
    const from = dateOfDay(first, today);
    return { from, to: nextDay(dateOfDay(last, today, from)) };
  }
  if (spec.startsWith('~')) return dateOfDay(spec, today);
  return spec;
}

function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);
}
