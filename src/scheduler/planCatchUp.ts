import { firesBetween, formatDuration } from '../time/index.js';
import type { ScheduleSpec } from './ScheduleSpec.js';

/** A slot that has not fired yet is "on time" this long after its instant; later, it is late. */
export const ON_TIME_MS = 60_000;

export interface CatchUpOptions {
  /** Post at most this many missed slots (the latest); older ones are skipped (default 10). */
  maxLate?: number;
  /** Itemize at most this many skipped slots (the latest); the rest are only counted (default 50). */
  maxSkipped?: number;
  /** Look no further back than this (default 7 days); slots before it are only counted. */
  lookbackMs?: number;
}

export interface CatchUpPlan {
  /** Slots to post now, oldest first; `late` when more than `ON_TIME_MS` past their instant. */
  due: Array<{ slot: Date; late: boolean }>;
  /** Slots that will not be posted, oldest first, with the reason in words. */
  skipped: Array<{ slot: Date; reason: string }>;
  /** Skipped slots not itemized (beyond `maxSkipped` or `lookbackMs`); the lookback part is a lower bound. */
  omitted: number;
}

/**
 * Which slots after `since` (the last fire recorded, or when the schedule was first seen) and at
 * or before `now` are posted, and which are skipped. A slot within `spec.catchUp` of now is
 * posted (late); older ones, and every missed one when catch-up is off, are skipped.
 *
 * @example planCatchUp(spec, lastFire, now)
 * // { due: [{ slot: 09:00, late: true }], skipped: [{ slot: yesterday 09:00, reason: 'missed by 1d 2h …' }], omitted: 0 }
 */
export function planCatchUp(spec: ScheduleSpec, since: Date, now: Date, options: CatchUpOptions = {}): CatchUpPlan {
  const maxLate = options.maxLate ?? 10;
  const maxSkipped = options.maxSkipped ?? 50;
  const lookbackMs = options.lookbackMs ?? 7 * 86_400_000;
  const plan: CatchUpPlan = { due: [], skipped: [], omitted: 0 };
  const start = enumerationStart(spec, since.getTime(), now.getTime(), maxSkipped, lookbackMs);
  if (start > since.getTime()) plan.omitted += firesBetween(spec, since, new Date(start), 10_000).length;

  const late: Date[] = [];
  const slots = firesBetween(spec, new Date(start), now);
  for (const slot of slots) {
    const age = now.getTime() - slot.getTime();
    if (age <= ON_TIME_MS) plan.due.push({ slot, late: false });
    else if (spec.catchUp !== null && age <= spec.catchUp) late.push(slot);
    else {
      plan.skipped.push({ slot, reason: skipReason(spec, age) });
      // A seconds cron missed for days has hundreds of thousands of slots: keep memory bounded.
      if (plan.skipped.length > 2 * maxSkipped) {
        plan.omitted += plan.skipped.length - maxSkipped;
        plan.skipped = plan.skipped.slice(-maxSkipped);
      }
    }
  }
  const tooMany = late.length - maxLate;
  for (const slot of late.slice(0, Math.max(0, tooMany))) {
    plan.skipped.push({ slot, reason: `${late.length} slots were missed; only the latest ${maxLate} are posted` });
  }
  plan.due.unshift(...late.slice(Math.max(0, tooMany)).map((slot) => ({ slot, late: true })));
  if (plan.skipped.length > maxSkipped) {
    plan.omitted += plan.skipped.length - maxSkipped;
    plan.skipped = plan.skipped.slice(-maxSkipped);
  }
  return plan;
}

const HOUR_MS = 3_600_000;

/**
 * Where to start listing slots: early enough to itemize `maxSkipped` slots older than the
 * catch-up window, no earlier than `lookbackMs` before it, and never before `since`. A seconds
 * cron down for days thus lists minutes of slots, not hundreds of thousands.
 */
function enumerationStart(spec: ScheduleSpec, since: number, now: number, maxSkipped: number, lookbackMs: number) {
  const oldestDue = now - Math.max(spec.catchUp ?? 0, ON_TIME_MS);
  for (const extra of [HOUR_MS, 24 * HOUR_MS, lookbackMs]) {
    const candidate = Math.max(since, oldestDue - extra);
    if (candidate === since) return since;
    const older = firesBetween(spec, new Date(candidate), new Date(oldestDue), maxSkipped);
    if (older.length >= maxSkipped || extra >= lookbackMs) return candidate;
  }
  return Math.max(since, oldestDue - lookbackMs);
}

function skipReason(spec: ScheduleSpec, ageMs: number): string {
  if (spec.catchUp === null)
    return `missed by ${formatDuration(ageMs)} while pivotbot was not running; catch-up is off`;
  return `missed by ${formatDuration(ageMs)} while pivotbot was not running, beyond the ${formatDuration(spec.catchUp)} catch-up window`;
}
