import { isTimeZone, type RangeSpec, wallClock } from '../reports/index.js';
import type { Located } from './ast.js';

const DAY_MS = 86_400_000;
const COMPUTED = /^(quarter_to_date|year_to_date|last_quarter|since:)/;

/**
 * The range words the report definitions do not have (`quarter_to_date`, `year_to_date`,
 * `last_quarter`, `since:<date>`) as the dates they mean today in `zone`; every other range as
 * written. Quarters are calendar quarters; "to date" ranges end at tomorrow's midnight, like
 * `month_to_date`.
 *
 * @example concrete({ value: 'quarter_to_date', … }, 'UTC', new Date('2026-11-20T12:00:00Z')) // 2026-10-01..2026-11-21
 */
export function concrete(range: Located<RangeSpec>, zone: string, now: Date): RangeSpec {
  const spec = range.value;
  if (typeof spec !== 'string' || !COMPUTED.test(spec) || !isTimeZone(zone)) return spec;
  const today = new Date(wallClock(now.getTime(), zone));
  const year = today.getUTCFullYear();
  const quarterMonth = Math.floor(today.getUTCMonth() / 3) * 3;
  const tomorrow = day(new Date(Date.UTC(year, today.getUTCMonth(), today.getUTCDate()) + DAY_MS));
  if (spec === 'quarter_to_date') return `${day(new Date(Date.UTC(year, quarterMonth, 1)))}..${tomorrow}`;
  if (spec === 'year_to_date') return `${year}-01-01..${tomorrow}`;
  if (spec === 'last_quarter')
    return `${day(new Date(Date.UTC(year, quarterMonth - 3, 1)))}..${day(new Date(Date.UTC(year, quarterMonth, 1)))}`;
  if (spec.startsWith('since:')) return `${spec.slice('since:'.length)}..${tomorrow}`;
  return spec;
}

function day(d: Date): string {
  return d.toISOString().slice(0, 10);
}
