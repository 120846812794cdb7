import { ErrorCode, PivotbotError, storedError } from '../core/index.js';
import type { Run, RunsRepository } from '../store/index.js';
import { specRunKey } from './runKey.js';
import { ALERTS_WAIT_MS, type SlotResult, type SlotRun } from './Scheduler.js';
import type { SchedulerRuntime } from './SlotDriver.js';
import {
  type AttemptSlot,
  handedOverError,
  interruptedError,
  kindOf,
  newSlotRun,
  type SlotAttempt,
  type SlotStep,
} from './slotAttempt.js';
import type { SlotEvents } from './slotMetrics.js';

export interface AttemptSlotDeps {
  runs: RunsRepository;
  /** Delivers one slot (the scheduler's `runSlot`). */
  runSlot: (run: SlotRun) => Promise<SlotResult>;
  runtime: Pick<SchedulerRuntime, 'logger' | 'isStopping' | 'record'>;
  /** Each `runSlot` call while it runs: shutdown gives them their grace. */
  inFlight: Set<Promise<unknown>>;
  /** Counts slots due, retried, posted and skipped (the bot's metrics). */
  events?: SlotEvents | undefined;
}

/**
 * The one attempt at a slot, used by both drivers: claims the slot's run key in the store (unless
 * the step continues a run that waits for data), calls `runSlot` once, and records the outcome.
 *
 * @example const attempt = createAttemptSlot({ runs: store.runs, runSlot, runtime, inFlight });
 *          const outcome = await attempt({ spec, slot, late: false, waitedMs: 0, signal });
 */
export function createAttemptSlot(deps: AttemptSlotDeps): AttemptSlot {
  return async (step) => {
    if (deps.runtime.isStopping()) return 'stopped';
    if (step.held) return runClaimed(deps, step, step.held);
    const claim = await claimSlot(deps, step);
    return 'run' in claim ? runClaimed(deps, step, claim.run) : claim.outcome;
  };
}

/** Claims the slot's run key: the run to deliver, or how the attempt ends without delivering. */
async function claimSlot(deps: AttemptSlotDeps, step: SlotStep): Promise<{ run: Run } | { outcome: SlotAttempt }> {
  const { runs, runtime } = deps;
  const { spec, slot, late } = step;
  const key = specRunKey(spec, slot);
  try {
    let claim = await runs.start(newSlotRun(spec, slot, late ? 'catch-up' : 'schedule'));
    if (!claim.started && claim.run.status === 'running' && step.handedOver) {
      // The queue handed this slot over from a replica that died or stopped mid-run: its claim
      // is failed, and this attempt (the next, so it checks the channel first) takes the key.
      await runs.finish(claim.run.id, { status: 'failed', error: handedOverError() });
      runtime.logger.warn(
        { run: claim.run.id, key },
        `${kindOf(spec)} run of a stopped replica taken over; running it again`,
      );
      claim = await runs.start(newSlotRun(spec, slot, late ? 'catch-up' : 'schedule'));
    }
    // Running elsewhere (the same channel subscribed at the same instant), succeeded or skipped.
    if (!claim.started) return { outcome: 'done' };
    if (claim.run.attempt === 1) deps.events?.due(spec);
    return { run: claim.run };
  } catch (error) {
    // A claim that is not on disk does not protect the slot after a crash: do not post on
    // it. The store keeps it in memory, so it is released as failed and tried again.
    const pending = runs.findByIdempotencyKey(key);
    if (pending?.status !== 'running') throw error;
    await runtime.record(() => runs.finish(pending.id, { status: 'failed', error: storedError(error) }));
    return { outcome: { error, runId: pending.id } };
  }
}

/** Calls `runSlot` for a claimed run and records what it answered. */
async function runClaimed(deps: AttemptSlotDeps, step: SlotStep, run: Run): Promise<SlotAttempt> {
  const { runs, runtime } = deps;
  const { spec, slot, late, waitedMs, signal, fence } = step;
  if (run.attempt > 1 && !step.held) deps.events?.retried(spec);
  const call = Promise.resolve().then(() =>
    deps.runSlot({ spec, slot, late, attempt: run.attempt, runId: run.id, waitedMs, signal }),
  );
  deps.inFlight.add(call);
  let result: SlotResult;
  try {
    result = await call;
    if ('waitMs' in result) {
      const data = spec.waitForData?.waitMs ?? 0;
      const limit = result.for === 'alerts' ? Math.max(data, ALERTS_WAIT_MS) : data;
      if (waitedMs + result.waitMs <= limit) return { waitMs: result.waitMs, run };
      throw new PivotbotError(
        ErrorCode.DataWaitOver,
        `runSlot asked to wait ${result.waitMs} ms more after ${waitedMs} ms; the schedule allows ${limit} ms`,
        { userMessage: 'The digest waited for late data longer than its schedule allows.' },
      );
    }
  } catch (error) {
    if (fence?.aborted) return fenced(deps, step, run);
    if (signal.aborted) {
      // The next attempt (after a restart here, or on another replica) checks the channel first.
      await runtime.record(() => runs.finish(run.id, { status: 'failed', error: interruptedError() }));
      return 'stopped';
    }
    await runtime.record(() => runs.finish(run.id, { status: 'failed', error: storedError(error) }));
    return { error, runId: run.id };
  } finally {
    deps.inFlight.delete(call);
  }
  if (fence?.aborted) return fenced(deps, step, run);
  // Posted: whatever happens to this write, the slot is not run again by this process.
  const { messageTs } = result;
  const ts = messageTs === undefined ? {} : { messageTs };
  if ('skipped' in result) {
    const reason = result.skipped;
    runtime.logger.info({ schedule: spec.id, slot: slot.toISOString(), reason }, `${kindOf(spec)} slot skipped`);
    const code = result.unsubscribed ? ErrorCode.Unsubscribed : ErrorCode.Quiet;
    await runtime.record(() => runs.finish(run.id, { status: 'skipped', error: { code, message: reason }, ...ts }));
    if (!result.unsubscribed) deps.events?.skippedQuiet(spec);
    return 'done';
  }
  deps.events?.posted(spec, slot, late);
  await runtime.record(() => runs.finish(run.id, { status: 'succeeded', ...ts }));
  return 'done';
}

/**
 * The queue's fence: this replica's hold on the slot lapsed or another replica took it over while
 * it ran (a frozen process, one cut off from the database). The run is the other replica's to
 * fail and retry now, so this late step writes nothing for it.
 */
function fenced(deps: AttemptSlotDeps, step: SlotStep, run: Run): 'stopped' {
  deps.runtime.logger.warn(
    { run: run.id, key: run.idempotencyKey, attempt: run.attempt },
    `${kindOf(step.spec)} slot: late step after another replica may have taken it over; not recorded`,
  );
  return 'stopped';
}
