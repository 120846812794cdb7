import type { RunsRepository, SlotQueue } from '../store/index.js';
import { enqueueSlot, runQueuedSlot } from './runQueuedSlot.js';
import type { ScheduleSpec } from './ScheduleSpec.js';
import type { SchedulerRuntime, SlotDriver } from './SlotDriver.js';
import type { AttemptSlot, GiveUpNotice } from './slotAttempt.js';

export interface QueueDriverDeps {
  queue: SlotQueue;
  runs: RunsRepository;
  attempt: AttemptSlot;
  giveUp: GiveUpNotice;
  runtime: SchedulerRuntime;
  /** The schedule a job names (the list is read again once when this process does not know it). */
  findSpec(id: string): Promise<ScheduleSpec | undefined>;
  /** Queue workers in this process. */
  concurrency: number;
}

/**
 * Replica mode (several processes on one database): each due slot is sent to the queue under its
 * run key (once across replicas), and this replica's workers run what the queue hands them
 * (`runQueuedSlot`); retries and data waits go back to the queue to start later on any replica,
 * and a replica that dies or stops hands its running slots to the others.
 *
 * @example const driver = createQueueDriver({ queue, runs: store.runs, attempt, giveUp, runtime, findSpec, concurrency: 4 });
 */
export function createQueueDriver(deps: QueueDriverDeps): SlotDriver {
  const { queue, runtime } = deps;
  return {
    async start(plan) {
      // The schedules first (a queued slot's schedule is looked up among them), then the workers.
      // Runs a stopped replica left are the queue's to hand over, not this process's to fail.
      await plan();
      const steps = {
        queue,
        runs: deps.runs,
        runtime,
        findSpec: deps.findSpec,
        attempt: deps.attempt,
        giveUp: deps.giveUp,
      };
      await queue.work(deps.concurrency, (job, delivery) => runQueuedSlot(steps, job, delivery));
    },
    async dispatch(spec, slot, late) {
      // Until the queue has it, the slot stays due: a send that fails is tried again next wake-up.
      await enqueueSlot(queue, spec, slot, late, runtime.logger);
      return 'done';
    },
    // No new steps taken; the running ones get the grace, then go back to the queue.
    stop: (graceMs) => queue.stop(graceMs),
  };
}
