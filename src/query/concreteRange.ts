import type { RangeSpec } from '../reports/index.js';
import { isTimeZone, wallClock } from '../time/index.js';
import type { Located } from './ast.js';

const DAY_MS = 86_400_000;
const COMPUTED = /^since:/;

/**
 * The one range word the report definitions do not have, `since:<date>`, as the dates it means
 * today in `zone` (it ends at tomorrow's midnight, like `month_to_date`); every other range as
 * written, so it stays relative (`quarter_to_date` in a saved query moves with the clock).
 *
 * @example concrete({ value: 'since:2026-11-01', … }, 'UTC', new Date('2026-11-20T12:00:00Z')) // 2026-11-01..2026-11-21
 */
export function concrete(range: Located<RangeSpec>, zone: string, now: Date): RangeSpec {
  const spec = range.value;
  if (typeof spec !== 'string' || !COMPUTED.test(spec) || !isTimeZone(zone)) return spec;
  const today = new Date(wallClock(now.getTime(), zone));
  const tomorrow = day(new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate()) + DAY_MS));
  return `${spec.slice('since:'.length)}..${tomorrow}`;
}

function day(d: Date): string {
  return d.toISOString().slice(0, 10);
}
