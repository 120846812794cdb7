import type { BotMetrics } from '../metrics/index.js';
import { specRunKey } from './runKey.js';
import type { ScheduleSpec } from './ScheduleSpec.js';
import type { AttemptSlot, GiveUpNotice } from './slotAttempt.js';
import { kindOf } from './slotAttempt.js';

/** What `attemptSlot` tells the metrics about one slot, by what happened to it. */
export interface SlotEvents {
  /** Claimed for its first attempt. */
  due(spec: ScheduleSpec): void;
  /** An attempt after the first began. */
  retried(spec: ScheduleSpec): void;
  posted(spec: ScheduleSpec, slot: Date, late: boolean): void;
  skippedQuiet(spec: ScheduleSpec): void;
}

/**
 * The slot counters and the due-to-posted histogram, over `metrics`; nothing without it.
 *
 * @example const events = slotEvents(metrics, clock); events.posted(spec, slot, false);
 */
export function slotEvents(metrics: BotMetrics | undefined, clock: () => Date): SlotEvents | undefined {
  if (!metrics) return undefined;
  const { slots } = metrics;
  const labels = (spec: ScheduleSpec) => ({ kind: kindOf(spec), report: spec.report });
  return {
    due: (spec) => slots.due.inc(labels(spec)),
    retried: (spec) => slots.retried.inc(labels(spec)),
    posted(spec, slot, late) {
      slots.posted.inc(labels(spec));
      if (late) slots.postedLate.inc(labels(spec));
      slots.postDelay.observe({ kind: kindOf(spec) }, Math.max(0, (clock().getTime() - slot.getTime()) / 1000));
    },
    skippedQuiet: (spec) => slots.skippedQuiet.inc(labels(spec)),
  };
}

/**
 * The slots this process is working on, for `pivotbot_slot_oldest_due_seconds`: a slot counts from
 * its first attempt here until it is posted, skipped or given up. With the replicas' queue a slot
 * whose attempt failed or waits for data goes back to the queue (any replica may take it next),
 * so it stops counting here until an attempt starts here again.
 *
 * @example const due = dueSlots(false); const attempt = due.track(rawAttempt); due.oldest();
 */
export function dueSlots(queued: boolean): {
  track(attempt: AttemptSlot): AttemptSlot;
  trackGiveUp(giveUp: GiveUpNotice, metrics: BotMetrics | undefined): GiveUpNotice;
  oldest(): Date | undefined;
} {
  const slots = new Map<string, Date>();
  return {
    track: (attempt) => async (step) => {
      const key = specRunKey(step.spec, step.slot);
      slots.set(key, step.slot);
      const outcome = await attempt(step).catch((error: unknown) => {
        slots.delete(key);
        throw error;
      });
      const ended = outcome === 'done' || outcome === 'stopped';
      if (ended || queued) slots.delete(key);
      return outcome;
    },
    trackGiveUp: (giveUp, metrics) => async (notice) => {
      slots.delete(specRunKey(notice.spec, notice.slot));
      metrics?.slots.failed.inc({ kind: kindOf(notice.spec), report: notice.spec.report });
      await giveUp(notice);
    },
    oldest() {
      let oldest: Date | undefined;
      for (const slot of slots.values()) if (!oldest || slot < oldest) oldest = slot;
      return oldest;
    },
  };
}
