/** The scheduler's contract: what it hands to delivery code, and what it answers to its owner. */
import type { Run } from '../store/index.js';
import type { ScheduleProblem, ScheduleSpec } from './ScheduleSpec.js';

/** One claimed slot, handed to the code that delivers it. */
export interface SlotRun {
  spec: ScheduleSpec;
  slot: Date;
  /** Posted after its time (caught up after downtime): the digest says "Late". */
  late: boolean;
  /**
   * The store's attempt number for this slot's key: 1 on its first claim. Greater means an earlier
   * attempt, perhaps in a process that died, may already have posted: check the channel first.
   */
  attempt: number;
  runId: string;
  /** How long this slot has waited for late data so far (0 on the first call). */
  waitedMs: number;
  /** Aborted when shutdown's grace runs out. */
  signal: AbortSignal;
}

/**
 * What `runSlot` answers: the posted message's ts; or, for a schedule with `waitForData`, a wait
 * for late data (the slot stays claimed, the pool place is given back, and `runSlot` is called
 * again after `waitMs` with `waitedMs` grown; waiting past `waitForData.waitMs` is a failure); or
 * `skipped`, a slot that decided not to post (a quiet digest): the run is recorded as skipped with
 * that reason, perhaps with the ts of a short note posted instead.
 */
export type SlotResult =
  | { messageTs?: string }
  /** `for: 'alerts'`: a quiet digest waits for its slot's alert evaluations (up to `ALERTS_WAIT_MS`). */
  | { waitMs: number; for?: 'data' | 'alerts' }
  /** `unsubscribed`: the slot's subscription was removed after it was claimed (not a quiet digest). */
  | { skipped: string; messageTs?: string; unsubscribed?: true };

/** How long a quiet digest may wait for the alert evaluations of its slot, whatever its `waitForData`. */
export const ALERTS_WAIT_MS = 10 * 60_000;

export interface GiveUp {
  spec: ScheduleSpec;
  slot: Date;
  error: unknown;
  runId: string;
}

export interface ScheduleStatus {
  spec: ScheduleSpec;
  next?: Date;
  /** The latest run of this (report, channel), newest first in the store. */
  lastRun?: Run;
}

export interface Scheduler {
  /** Resolves runs a dead process left running, catches up, and arms the timer. */
  start(): Promise<void>;
  /** Re-lists schedules and starts whatever is due at `clock()`; resolves once dispatched. */
  tick(): Promise<void>;
  /** Resolves when no slot is running, queued or waiting to retry. */
  idle(): Promise<void>;
  /** Stops arming, cancels retry waits, lets in-flight runs finish within `graceMs`, then aborts them. */
  stop(options?: { graceMs?: number }): Promise<void>;
  /** Each schedule with its next `count` fires. */
  nextRuns(count?: number): Array<{ spec: ScheduleSpec; fires: Date[] }>;
  /** Each schedule with its next fire and its last run's outcome (for `/pivot schedule`). */
  status(): ScheduleStatus[];
  /** What could not be scheduled, as last listed. */
  problems(): readonly ScheduleProblem[];
}
