import type { Run, RunsRepository } from '../store/index.js';
import { retryAction } from './retryAction.js';
import { parseAlertRunKey, parseRunKey } from './runKey.js';
import type { ScheduleSpec } from './ScheduleSpec.js';
import type { SchedulerRuntime, SlotDriver } from './SlotDriver.js';
import {
  type AttemptSlot,
  type GiveUpNotice,
  interruptedError,
  kindOf,
  type SlotAttempt,
  StoppedError,
} from './slotAttempt.js';
import { createSlotPool } from './slotPool.js';

export interface LocalDriverDeps {
  runs: RunsRepository;
  attempt: AttemptSlot;
  giveUp: GiveUpNotice;
  runtime: SchedulerRuntime;
  /** Slot attempts at once (the pool's size). */
  concurrency: number;
}

/**
 * One process (no replicas): each due slot runs here, in a bounded pool, and its retries and data
 * waits are timers of this process. At start, the slots a process that died left running are
 * failed, so the catch-up runs them again (told attempt > 1, the delivery checks the channel first).
 *
 * @example const driver = createLocalDriver({ runs: store.runs, attempt, giveUp, runtime, concurrency: 4 });
 */
export function createLocalDriver(deps: LocalDriverDeps): SlotDriver {
  const { runtime } = deps;
  const { clock, logger } = runtime;
  const pool = createSlotPool(deps.concurrency);
  const waits = new Set<() => void>();

  /** Resolves true after `ms`, or false at once when the scheduler stops (then or later). */
  const sleep = (ms: number): Promise<boolean> =>
    new Promise((resolve) => {
      if (runtime.isStopping()) return resolve(false);
      const wake = () => {
        waits.delete(cancel);
        resolve(true);
      };
      const stopTimer = runtime.setTimer(wake, ms);
      const cancel = () => {
        stopTimer();
        waits.delete(cancel);
        resolve(false);
      };
      waits.add(cancel);
    });

  /** Attempts the slot until it is done or given up: retries after backoff, waits for late data. */
  async function runWithRetries(spec: ScheduleSpec, slot: Date, late: boolean): Promise<'done' | 'stopped'> {
    // A claimed run that asked to wait for late data, and since when (this process) it waits.
    let held: Run | undefined;
    let waitingSince: number | undefined;
    const release = async () => {
      if (held) {
        await deps.runs.finish(held.id, { status: 'failed', error: interruptedError() }).catch(() => undefined);
      }
    };
    for (let tries = 1; ; ) {
      const waitedMs = waitingSince === undefined ? 0 : clock().getTime() - waitingSince;
      let outcome: SlotAttempt;
      try {
        outcome = await pool.run(() => deps.attempt({ spec, slot, late, held, waitedMs, signal: runtime.signal }));
      } catch (error) {
        if (!(error instanceof StoppedError)) throw error;
        await release();
        return 'stopped';
      }
      if (outcome === 'done' || outcome === 'stopped') return outcome;
      if ('waitMs' in outcome) {
        held = outcome.run;
        waitingSince ??= clock().getTime();
        logger.info(
          { schedule: spec.id, slot: slot.toISOString(), waitMs: outcome.waitMs, waitedMs },
          'digest waits for late data',
        );
        if (!(await sleep(outcome.waitMs))) {
          await release();
          return 'stopped';
        }
        continue;
      }
      held = undefined;
      waitingSince = undefined;
      const decision = retryAction(outcome.error, tries, spec.retry);
      const where = { schedule: spec.id, slot: slot.toISOString(), attempt: tries, err: outcome.error };
      if (decision.action === 'give-up') {
        logger.error(where, `${kindOf(spec)} slot failed; giving up: ${decision.reason}`);
        await deps.giveUp({ spec, slot, error: outcome.error, runId: outcome.runId });
        return 'done';
      }
      logger.warn({ ...where, retryInMs: decision.delayMs }, `${kindOf(spec)} slot failed; retrying`);
      if (!(await sleep(decision.delayMs))) return 'stopped';
      tries++;
    }
  }

  return {
    async start(plan) {
      await failInterruptedSlots(deps.runs, runtime);
      await plan();
    },
    dispatch: runWithRetries,
    async stop() {
      // Waits end at once (their lanes record and end); slots waiting for a pool place are dropped.
      for (const cancel of [...waits]) cancel();
      pool.clear(new StoppedError());
    },
  };
}

/**
 * A slot claimed by a process that died: marked failed, so the next claim of its key starts a new
 * attempt (told attempt > 1, the delivery checks the channel first). Manual runs are not slots.
 */
async function failInterruptedSlots(runs: RunsRepository, runtime: SchedulerRuntime): Promise<void> {
  for (const run of runs.listUnfinished()) {
    if (run.trigger === 'manual') continue;
    if (parseRunKey(run.idempotencyKey) === undefined && parseAlertRunKey(run.idempotencyKey) === undefined) continue;
    await runtime.record(() => runs.finish(run.id, { status: 'failed', error: interruptedError() }));
    runtime.logger.warn(
      { run: run.id, key: run.idempotencyKey },
      'scheduled run interrupted by a restart; running it again',
    );
  }
}
