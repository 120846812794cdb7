import type { StoredFailure } from '../core/index.js';
import type { Run } from '../store/index.js';
import type { ScheduleSpec } from './ScheduleSpec.js';

/**
 * How one attempt at a slot ended: posted (or found done), stopped by shutdown, failed, or asking
 * to wait for late data with its run still claimed.
 */
export type SlotAttempt = 'done' | 'stopped' | { error: unknown; runId: string } | { waitMs: number; run: Run };

/**
 * Claims a slot (or continues `held`, a run already claimed that waits for data) and runs it once.
 * `handedOver`: the queue hands the slot over from a replica that stopped or died mid-run.
 * `fence`: aborted once the queue may give the slot to another replica (this replica's heartbeat
 * for it lapsed, or another took it): from then on this attempt writes nothing for its run.
 */
export type AttemptSlot = (
  spec: ScheduleSpec,
  slot: Date,
  late: boolean,
  held: Run | undefined,
  waitedMs: number,
  signal: AbortSignal,
  handedOver?: boolean,
  fence?: AbortSignal,
) => Promise<SlotAttempt>;

export class StoppedError extends Error {
  constructor() {
    super('the scheduler is stopping');
  }
}

/** What a schedule's slots are, in log lines. */
export function kindOf(spec: ScheduleSpec): string {
  return spec.kind === 'alert' ? 'alert' : 'digest';
}

/** The stored error of a run whose replica stopped or died mid-run, taken over by another. */
export function handedOverError(): StoredFailure {
  return {
    code: 'RUN_INTERRUPTED',
    message: 'the replica running this slot stopped or stopped answering; another replica runs the slot again',
  };
}
