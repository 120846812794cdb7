import { ErrorCode } from '../core/index.js';
import type { RunsRepository, SchedulesRepository } from '../store/index.js';
import { type CatchUpOptions, planCatchUp } from './planCatchUp.js';
import type { ScheduleSpec } from './ScheduleSpec.js';
import type { SchedulerRuntime, SlotDriver } from './SlotDriver.js';
import { kindOf, newSlotRun } from './slotAttempt.js';

export interface ScheduleLanesDeps {
  store: { runs: RunsRepository; schedules: SchedulesRepository };
  /** Runs or queues one due slot (the driver's `dispatch`). */
  dispatch: SlotDriver['dispatch'];
  runtime: SchedulerRuntime;
  catchUp: CatchUpOptions | undefined;
  /** When the scheduler started: slots before it were missed while no scheduler ran. */
  startedAt: () => number;
  /** Called when a lane ends (and the scheduler is not stopping): the timer is armed again. */
  onLaneEnd: () => void;
}

/** One lane per schedule with slots to post or skip: its slots in order, one at a time. */
export interface ScheduleLanes {
  has(scheduleId: string): boolean;
  /** Starts the schedule's lane (the caller checks `has` first). */
  start(spec: ScheduleSpec): void;
  readonly size: number;
  /** The lanes running now. */
  running(): Array<Promise<void>>;
}

/**
 * A lane walks one schedule's slots, oldest first, until nothing more is due: skipped slots are
 * recorded, due ones dispatched, and each is recorded as the schedule's last fire once dispatched.
 * It stops on shutdown, leaving the rest to catch-up.
 *
 * @example const lanes = createScheduleLanes({ store, dispatch: driver.dispatch, runtime, catchUp, startedAt, onLaneEnd: arm });
 */
export function createScheduleLanes(deps: ScheduleLanesDeps): ScheduleLanes {
  const { store, runtime } = deps;
  const { logger, record } = runtime;
  const lanes = new Map<string, Promise<void>>();

  async function runLane(spec: ScheduleSpec): Promise<void> {
    for (;;) {
      if (runtime.isStopping()) return;
      const since = store.schedules.getLastFire(spec.id);
      if (since === undefined) return;
      const plan = planCatchUp(spec, new Date(since), runtime.clock(), deps.catchUp);
      if (plan.omitted > 0) {
        logger.warn({ schedule: spec.id, omitted: plan.omitted }, `${plan.omitted} older missed slot(s) not recorded`);
      }
      for (const { slot, reason } of plan.skipped) await recordSkipped(spec, slot, reason);
      const lastSkipped = plan.skipped.at(-1)?.slot;
      if (plan.due.length === 0) {
        if (lastSkipped) await record(() => store.schedules.setLastFire(spec.id, lastSkipped.toISOString()));
        return;
      }
      for (const { slot, late: overdue } of plan.due) {
        // Missed while no scheduler ran (downtime, a restart) is late however recent: the digest says so.
        const late = overdue || slot.getTime() < deps.startedAt();
        const outcome = await deps.dispatch(spec, slot, late);
        if (outcome === 'stopped') return;
        await record(() => store.schedules.setLastFire(spec.id, slot.toISOString()));
      }
    }
  }

  async function recordSkipped(spec: ScheduleSpec, slot: Date, reason: string): Promise<void> {
    await record(async () => {
      const { run, started } = await store.runs.start(newSlotRun(spec, slot, 'catch-up'));
      if (started) {
        await store.runs.finish(run.id, { status: 'skipped', error: { code: ErrorCode.SlotSkipped, message: reason } });
      }
    });
    logger.info({ schedule: spec.id, slot: slot.toISOString(), reason }, `${kindOf(spec)} slot skipped`);
  }

  return {
    has: (id) => lanes.has(id),
    start(spec) {
      const lane = runLane(spec)
        .catch((error: unknown) => logger.error({ err: error, schedule: spec.id }, 'schedule lane failed'))
        .finally(() => {
          lanes.delete(spec.id);
          if (!runtime.isStopping()) deps.onLaneEnd();
        });
      lanes.set(spec.id, lane);
    },
    get size() {
      return lanes.size;
    },
    running: () => [...lanes.values()],
  };
}
