import type { SchedulesRepository } from '../store/index.js';
import { nextFires } from '../time/index.js';
import type { CatchUpOptions } from './planCatchUp.js';
import { nextWakeAt, scheduleAction, vanishedSchedules } from './planSchedules.js';
import type { ScheduleList, ScheduleProblem, ScheduleSpec } from './ScheduleSpec.js';
import type { SchedulerRuntime } from './SlotDriver.js';
import type { ScheduleLanes } from './scheduleLanes.js';

export interface PlanningLoopDeps {
  listSchedules: () => Promise<ScheduleList>;
  schedules: SchedulesRepository;
  lanes: ScheduleLanes;
  runtime: SchedulerRuntime;
  /** Longest sleep between wake-ups, so changed reports and subscriptions are seen. */
  maxWakeMs: number;
  catchUp: CatchUpOptions | undefined;
}

export interface PlanningLoop {
  /** Lists the schedules again and starts a lane for each one with something due; arms the timer. */
  tick(): Promise<void>;
  /** Arms the one timer for the next wake-up (after a lane ends, say). */
  arm(): void;
  /** Cancels the timer (shutdown). */
  disarm(): void;
  /** Resolves when no lane runs and no wake-up is under way. */
  idle(): Promise<void>;
  specs(): readonly ScheduleSpec[];
  problems(): readonly ScheduleProblem[];
  /** A schedule by id, listing them again once when it is not known. */
  findSpec(id: string): Promise<ScheduleSpec | undefined>;
  /** The schedule's next `count` fires from `from` (none, logged, when its timing cannot be read). */
  fires(spec: ScheduleSpec, from: Date, count: number): Date[];
}

/**
 * The scheduler's wake-ups: one timer, armed to the earliest next fire (and never later than
 * `maxWakeMs`); each wake-up lists the schedules, forgets the bookkeeping of vanished ones, and
 * starts a lane for each schedule with slots due or missed (the pure planner decides which).
 *
 * @example const loop = createPlanningLoop({ listSchedules, schedules: store.schedules, lanes, runtime, maxWakeMs, catchUp });
 *          await loop.tick();
 */
export function createPlanningLoop(deps: PlanningLoopDeps): PlanningLoop {
  const { lanes, runtime } = deps;
  const { clock, logger } = runtime;
  let specs: ScheduleSpec[] = [];
  let problems: ScheduleProblem[] = [];
  const loggedProblems = new Set<string>();
  const nextFire = new Map<string, number>();
  let cancelWake: (() => void) | undefined;
  let ticking: Promise<void> | undefined;

  async function refresh(): Promise<void> {
    let list: ScheduleList;
    try {
      list = await deps.listSchedules();
    } catch (error) {
      logger.error({ err: error }, 'could not list schedules; keeping the previous ones');
      return;
    }
    specs = list.schedules;
    problems = list.problems;
    const ids = new Set(specs.map((s) => s.id));
    for (const id of nextFire.keys()) if (!ids.has(id)) nextFire.delete(id);
    for (const problem of list.problems) {
      const text = `${problem.report}${problem.channel ? ` → ${problem.channel}` : ''}: ${problem.message}`;
      if (!loggedProblems.has(text)) logger.warn({ problem }, `schedule not running: ${text}`);
      loggedProblems.add(text);
    }
    const stored = deps.schedules.list().map((fire) => fire.scheduleId);
    for (const id of vanishedSchedules(specs, stored)) await runtime.record(() => deps.schedules.remove(id));
  }

  async function plan(spec: ScheduleSpec, now: Date): Promise<void> {
    const action = scheduleAction(spec, deps.schedules.getLastFire(spec.id), now, deps.catchUp);
    if (action === 'first-sight') {
      // First sight: only slots after now count, so a new schedule never posts its past.
      await runtime.record(() => deps.schedules.setLastFire(spec.id, now.toISOString()));
    } else if (action === 'lane') lanes.start(spec);
  }

  async function tick(): Promise<void> {
    if (runtime.isStopping()) return;
    // One tick at a time: a timer wake-up and a test's tick() never plan the same slot twice.
    while (ticking) await ticking;
    ticking = (async () => {
      try {
        await refresh();
        const now = clock();
        for (const spec of specs) {
          if (runtime.isStopping()) break;
          if (lanes.has(spec.id)) continue;
          try {
            await plan(spec, now);
          } catch (error) {
            // One bad schedule (a timing built by hand that does not parse) must not stop the others.
            logger.error({ err: error, schedule: spec.id }, 'schedule could not be planned');
          }
        }
      } finally {
        // Whatever failed above, the next wake-up is armed: the scheduler never stops by itself.
        arm();
      }
    })();
    try {
      await ticking;
    } finally {
      ticking = undefined;
    }
  }

  function disarm(): void {
    cancelWake?.();
    cancelWake = undefined;
  }

  function arm(): void {
    disarm();
    if (runtime.isStopping()) return;
    const now = clock().getTime();
    const waiting = specs.filter((spec) => !lanes.has(spec.id));
    const wakeAt = nextWakeAt(
      now,
      deps.maxWakeMs,
      waiting.map((spec) => nextFireAfter(spec, now)),
    );
    cancelWake = runtime.setTimer(
      () => {
        cancelWake = undefined;
        tick().catch((error: unknown) => logger.error({ err: error }, 'scheduler wake-up failed'));
      },
      Math.max(0, wakeAt - now),
    );
  }

  /** The next fire after `nowMs`, remembered per schedule id (the id holds the timing) until it passes. */
  function nextFireAfter(spec: ScheduleSpec, nowMs: number): number | undefined {
    const known = nextFire.get(spec.id);
    if (known !== undefined && known > nowMs) return known;
    const next = fires(spec, new Date(nowMs), 1)[0]?.getTime();
    if (next === undefined) nextFire.delete(spec.id);
    else nextFire.set(spec.id, next);
    return next;
  }

  function fires(spec: ScheduleSpec, from: Date, count: number): Date[] {
    try {
      return nextFires(spec, from, count);
    } catch (error) {
      // listSchedules validates timings; this only guards the timer against a spec built by hand.
      logger.error({ err: error, schedule: spec.id }, 'schedule has an unreadable timing');
      return [];
    }
  }

  return {
    tick,
    arm,
    disarm,
    async idle() {
      while (lanes.size > 0 || ticking) {
        await Promise.allSettled([...lanes.running(), ...(ticking ? [ticking] : [])]);
      }
    },
    specs: () => specs,
    problems: () => problems,
    async findSpec(id) {
      if (!specs.some((s) => s.id === id)) await refresh();
      return specs.find((s) => s.id === id);
    },
    fires,
  };
}
