import { type CatchUpOptions, planCatchUp } from './planCatchUp.js';
import type { ScheduleSpec } from './ScheduleSpec.js';

/**
 * What a schedule needs at a wake-up, from its last recorded fire: `first-sight` (record `now`
 * as its last fire: a new schedule never posts its past), `lane` (slots to post or skip since),
 * or `nothing`.
 *
 * @example scheduleAction(spec, '2026-11-23T09:00:00.000Z', new Date('2026-11-24T09:00:10Z')) // 'lane'
 */
export function scheduleAction(
  spec: ScheduleSpec,
  lastFire: string | undefined,
  now: Date,
  catchUp?: CatchUpOptions,
): 'first-sight' | 'lane' | 'nothing' {
  if (lastFire === undefined) return 'first-sight';
  const plan = planCatchUp(spec, new Date(lastFire), now, catchUp);
  return plan.due.length + plan.skipped.length + plan.omitted > 0 ? 'lane' : 'nothing';
}

/**
 * The stored schedule ids to forget, given the schedules listed now. A schedule whose timing
 * changed is a new schedule (its id holds the timing): the old one's bookkeeping goes, and a
 * removed subscription's. A report that disappears keeps it, since a file that is briefly broken
 * must catch up its slots once fixed.
 *
 * @example vanishedSchedules([{ id: 'report:daily:C1:0 9 * * *' }], ['report:daily:C1:0 8 * * *', 'subscription:s1:0 9 * * *'])
 * // ['report:daily:C1:0 8 * * *', 'subscription:s1:0 9 * * *']
 */
export function vanishedSchedules(listed: ReadonlyArray<{ id: string }>, stored: readonly string[]): string[] {
  const ids = new Set(listed.map((s) => s.id));
  const live = new Set(listed.map((s) => owner(s.id)));
  return stored.filter((id) => !ids.has(id) && (id.startsWith('subscription:') || live.has(owner(id))));
}

/** The part of a schedule id that names what it belongs to (a subscription; a report and channel), not its timing. */
function owner(id: string): string {
  return id
    .split(':')
    .slice(0, id.startsWith('subscription:') ? 2 : 3)
    .join(':');
}

/**
 * When the scheduler wakes next: the earliest of the next fires given (those of schedules not
 * running a lane), and never later than `maxWakeMs` after now, so changed schedules are seen.
 *
 * @example nextWakeAt(1_000, 30_000, [5_000, undefined, 90_000]) // 5_000
 */
export function nextWakeAt(nowMs: number, maxWakeMs: number, nextFires: Iterable<number | undefined>): number {
  let wakeAt = nowMs + maxWakeMs;
  for (const next of nextFires) if (next !== undefined && next < wakeAt) wakeAt = next;
  return wakeAt;
}
