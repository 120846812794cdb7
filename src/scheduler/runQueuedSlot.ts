import type { Logger } from '../core/index.js';
import type { QueuedDelivery, QueuedSlot, RunsRepository, SlotQueue } from '../store/index.js';
import { retryAction } from './retryAction.js';
import { specRunKey } from './runKey.js';
import type { ScheduleSpec } from './ScheduleSpec.js';
import type { SchedulerRuntime } from './SlotDriver.js';
import { type AttemptSlot, type GiveUpNotice, handedOverError, kindOf, StoppedError } from './slotAttempt.js';

/** What the replica-mode steps need of the scheduler that runs them. */
export interface QueuedSlotContext {
  queue: SlotQueue;
  runs: RunsRepository;
  runtime: Pick<SchedulerRuntime, 'logger' | 'clock' | 'signal' | 'isStopping' | 'record'>;
  /** The schedule a job names (the list is read again once when this process does not know it). */
  findSpec(id: string): Promise<ScheduleSpec | undefined>;
  /** Claims the slot (or continues `held`) and runs it once: the scheduler's attempt. */
  attempt: AttemptSlot;
  giveUp: GiveUpNotice;
}

/** Replica mode: sends a due slot to the queue, once across replicas (its run key names the job). */
export async function enqueueSlot(
  queue: SlotQueue,
  spec: ScheduleSpec,
  slot: Date,
  late: boolean,
  logger: Logger,
): Promise<void> {
  const job: QueuedSlot = { scheduleId: spec.id, slot: slot.toISOString(), late, tries: 1, waitedMs: 0 };
  const sent = await queue.send(job, { key: specRunKey(spec, slot) });
  if (sent) queue.nudge();
  logger.debug({ schedule: spec.id, slot: job.slot, sent }, `${kindOf(spec)} slot queued`);
}

/**
 * Replica mode: one step of a slot, as the queue hands it to this replica. The same claim and
 * attempt as in one process; what comes next (a retry, another data check) is sent back to the
 * queue to start later on whichever replica is free, under a key of its own. Throws when the
 * scheduler stops mid-step, so the queue hands the step to another replica.
 */
export async function runQueuedSlot(ctx: QueuedSlotContext, job: QueuedSlot, delivery: QueuedDelivery): Promise<void> {
  const { queue, runs } = ctx;
  const { logger, clock } = ctx.runtime;
  if (ctx.runtime.isStopping()) throw new StoppedError();
  const spec = await ctx.findSpec(job.scheduleId);
  const slot = new Date(job.slot);
  if (spec === undefined) {
    // Removed (unsubscribed, or its timing changed) between planning and running: nothing to post.
    logger.warn(
      { schedule: job.scheduleId, slot: job.slot },
      'queued slot of a schedule that no longer exists; dropped',
    );
    return;
  }
  const handedOver = delivery.handoffs > 0;
  let held = job.heldRunId === undefined ? undefined : runs.get(job.heldRunId);
  if (held?.status !== 'running' || handedOver) {
    // A replica that died mid-step may have posted: its claim is failed, and a new attempt checks the channel.
    const stale = held;
    if (stale?.status === 'running') {
      await ctx.runtime.record(() => runs.finish(stale.id, { status: 'failed', error: handedOverError() }));
    }
    held = undefined;
  }
  const signal = AbortSignal.any([ctx.runtime.signal, delivery.signal]);
  const outcome = await ctx.attempt({
    spec,
    slot,
    late: job.late,
    held,
    waitedMs: job.waitedMs,
    signal,
    handedOver,
    fence: delivery.signal,
  });
  if (outcome === 'done') return;
  if (outcome === 'stopped') throw new StoppedError();
  const key = specRunKey(spec, slot);
  if ('waitMs' in outcome) {
    logger.info(
      { schedule: spec.id, slot: job.slot, waitMs: outcome.waitMs, waitedMs: job.waitedMs },
      'digest waits for late data',
    );
    const waitedMs = job.waitedMs + outcome.waitMs;
    await queue.send(
      { ...job, waitedMs, heldRunId: outcome.run.id },
      { key: `${key}#try${job.tries}-wait${waitedMs}`, startAfter: new Date(clock().getTime() + outcome.waitMs) },
    );
    return;
  }
  const decision = retryAction(outcome.error, job.tries, spec.retry);
  const where = { schedule: spec.id, slot: job.slot, attempt: job.tries, err: outcome.error };
  if (decision.action === 'give-up') {
    logger.error(where, `${kindOf(spec)} slot failed; giving up: ${decision.reason}`);
    await ctx.giveUp({ spec, slot, error: outcome.error, runId: outcome.runId });
    return;
  }
  logger.warn({ ...where, retryInMs: decision.delayMs }, `${kindOf(spec)} slot failed; retrying`);
  const { heldRunId: _held, ...next } = job;
  await queue.send(
    { ...next, tries: job.tries + 1, waitedMs: 0 },
    { key: `${key}#try${job.tries + 1}`, startAfter: new Date(clock().getTime() + decision.delayMs) },
  );
}
