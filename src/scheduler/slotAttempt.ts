import type { Logger, StoredFailure } from '../core/index.js';
import { ErrorCode } from '../core/index.js';
import type { NewRun, Run } from '../store/index.js';
import { specRunKey } from './runKey.js';
import type { GiveUp } from './Scheduler.js';
import type { ScheduleSpec } from './ScheduleSpec.js';

/**
 * How one attempt at a slot ended: posted (or found done), stopped by shutdown, failed, or asking
 * to wait for late data with its run still claimed.
 */
export type SlotAttempt = 'done' | 'stopped' | { error: unknown; runId: string } | { waitMs: number; run: Run };

/** One attempt at a slot, as a driver asks for it. */
export interface SlotStep {
  spec: ScheduleSpec;
  slot: Date;
  late: boolean;
  /** A run already claimed that waits for data: continued instead of claimed anew. */
  held?: Run | undefined;
  /** How long the slot has waited for late data so far. */
  waitedMs: number;
  /** Aborted when the step must stop (shutdown's grace ran out, or the queue took the step back). */
  signal: AbortSignal;
  /** The queue hands the slot over from a replica that stopped or died mid-run. */
  handedOver?: boolean;
  /**
   * Aborted once the queue may give the slot to another replica (this replica's heartbeat for it
   * lapsed, or another took it): from then on this attempt writes nothing for its run.
   */
  fence?: AbortSignal;
}

/** Claims a slot (or continues `step.held`) and runs it once: the one attempt both drivers use. */
export type AttemptSlot = (step: SlotStep) => Promise<SlotAttempt>;

/** Posts the failure notice of a slot whose attempts are spent (once; a failing notice is logged). */
export type GiveUpNotice = (giveUp: GiveUp) => Promise<void>;

/** A bookkeeping write whose failure is logged, not thrown. */
export type Bookkeeping = (write: () => Promise<unknown>) => Promise<void>;

export class StoppedError extends Error {
  constructor() {
    super('the scheduler is stopping');
  }
}

/** What a schedule's slots are, in log lines. */
export function kindOf(spec: ScheduleSpec): string {
  return spec.kind === 'alert' ? 'alert' : 'digest';
}

/** The run a slot claims under its run key. */
export function newSlotRun(spec: ScheduleSpec, slot: Date, trigger: 'schedule' | 'catch-up'): NewRun {
  return {
    report: spec.report,
    trigger,
    idempotencyKey: specRunKey(spec, slot),
    scheduledFor: slot.toISOString(),
    channel: spec.channel,
    ...(spec.subscriptionId === undefined ? {} : { subscriptionId: spec.subscriptionId }),
  };
}

/** The stored error of a run whose replica stopped or died mid-run, taken over by another. */
export function handedOverError(): StoredFailure {
  return {
    code: ErrorCode.RunInterrupted,
    message: 'the replica running this slot stopped or stopped answering; another replica runs the slot again',
  };
}

/** The stored error of a run this process stopped before it finished. */
export function interruptedError(): StoredFailure {
  return {
    code: ErrorCode.RunInterrupted,
    message: 'pivotbot stopped before this run finished; the slot is run again',
  };
}

/**
 * A bookkeeping write that failed (disk full, read-only) stays in the store's memory and is
 * written with the next successful write: log it, and carry on with what is already decided.
 */
export function recordWith(logger: Logger): Bookkeeping {
  return async (write) => {
    try {
      await write();
    } catch (error) {
      logger.error({ err: error }, 'scheduler bookkeeping not written yet; the store retries with its next write');
    }
  };
}

/** The give-up notice, sent through `onGiveUp` (when there is one); its failure is logged. */
export function giveUpWith(
  onGiveUp: ((giveUp: GiveUp) => Promise<void> | void) | undefined,
  logger: Logger,
): GiveUpNotice {
  return async (giveUp) => {
    try {
      await onGiveUp?.(giveUp);
    } catch (noticeError) {
      logger.error(
        { schedule: giveUp.spec.id, slot: giveUp.slot.toISOString(), err: noticeError },
        'the failure notice could not be sent',
      );
    }
  };
}
