/** What the scheduler's parts share: its clock and timers, its shutdown, and how they run a due slot. */
import type { Logger } from '../core/index.js';
import type { ScheduleSpec } from './ScheduleSpec.js';
import type { Bookkeeping } from './slotAttempt.js';

/** Timers on the same clock as `clock` (tests drive both); returns a cancel function. */
export type SetTimer = (fn: () => void, ms: number) => () => void;

const MAX_TIMEOUT_MS = 2_147_483_647;

/** setTimeout that does not keep the process alive and accepts waits past Node's 24.8-day limit. */
export function defaultSetTimer(fn: () => void, ms: number): () => void {
  let timer: NodeJS.Timeout;
  const wait = (left: number) => {
    timer = setTimeout(
      () => (left > MAX_TIMEOUT_MS ? wait(left - MAX_TIMEOUT_MS) : fn()),
      Math.min(left, MAX_TIMEOUT_MS),
    );
    timer.unref();
  };
  wait(Math.max(0, ms));
  return () => clearTimeout(timer);
}

/** The scheduler's clock, timers, log and shutdown state, as its parts see them. */
export interface SchedulerRuntime {
  readonly clock: () => Date;
  readonly setTimer: SetTimer;
  readonly logger: Logger;
  /** Aborted when shutdown's grace runs out: `runSlot` calls still running stop. */
  readonly signal: AbortSignal;
  /** True from the moment `stop()` is called. */
  isStopping(): boolean;
  /** A bookkeeping write whose failure is logged, not thrown. */
  readonly record: Bookkeeping;
}

/**
 * Who runs the due slots: this process, with its lanes' retries and waits in memory
 * (`createLocalDriver`), or the replicas' shared queue (`createQueueDriver`).
 */
export interface SlotDriver {
  /** Starts; `plan` is the first wake-up (the catch-up), run at the point this driver needs it. */
  start(plan: () => Promise<void>): Promise<void>;
  /**
   * One due slot of a lane: run to its end (posted, skipped or given up) or handed to the queue.
   * `stopped`: shutdown came first, and the slot stays due for the next start's catch-up.
   */
  dispatch(spec: ScheduleSpec, slot: Date, late: boolean): Promise<'done' | 'stopped'>;
  /** Shutdown: takes no new step; running ones get `graceMs` (the queue hands its own back after it). */
  stop(graceMs: number): Promise<void>;
}
