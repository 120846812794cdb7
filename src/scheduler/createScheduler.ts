import type { Logger } from '../core/index.js';
import type { BotMetrics } from '../metrics/index.js';
import type { RunsRepository, SchedulesRepository, SlotQueue } from '../store/index.js';
import { createAttemptSlot } from './attemptSlot.js';
import { createLocalDriver } from './localDriver.js';
import type { CatchUpOptions } from './planCatchUp.js';
import { createPlanningLoop } from './planningLoop.js';
import { createQueueDriver } from './queueDriver.js';
import { specRunKeyPrefix } from './runKey.js';
import type { GiveUp, Scheduler, SlotResult, SlotRun } from './Scheduler.js';
import type { ScheduleList } from './ScheduleSpec.js';
import { defaultSetTimer, type SchedulerRuntime, type SetTimer, type SlotDriver } from './SlotDriver.js';
import { createScheduleLanes } from './scheduleLanes.js';
import { giveUpWith, recordWith, StoppedError } from './slotAttempt.js';
import { dueSlots, slotEvents } from './slotMetrics.js';

export {
  ALERTS_WAIT_MS,
  type GiveUp,
  type Scheduler,
  type ScheduleStatus,
  type SlotResult,
  type SlotRun,
} from './Scheduler.js';

export interface SchedulerDeps {
  /** Every schedule now (reports and subscriptions); called at start and on every wake-up. */
  listSchedules: () => Promise<ScheduleList>;
  store: { runs: RunsRepository; schedules: SchedulesRepository };
  /** Delivers one slot; resolves with the posted message's ts, or throws (then retried per `spec.retry`). */
  runSlot: (run: SlotRun) => Promise<SlotResult>;
  /** Called once per slot whose attempts are spent (post the failure notice). */
  onGiveUp?: (giveUp: GiveUp) => Promise<void> | void;
  clock?: () => Date;
  logger: Logger;
  /** Digest runs at once (default 4). */
  concurrency?: number;
  /** Timers on the same clock as `clock` (tests drive both); returns a cancel function. */
  setTimer?: SetTimer;
  /** Longest sleep between wake-ups, so changed reports and subscriptions are seen (default 30 s). */
  maxWakeMs?: number;
  catchUp?: CatchUpOptions;
  /**
   * Replica mode (several processes on one database). Without it (one process): slots run in this
   * process, and runs left unfinished at start-up are failed and run again. With it: each due slot
   * is sent to the queue under its run key (once across replicas), and every replica's workers run
   * what the queue hands them; retries and data waits go back to the queue to start later on any
   * replica, and a replica that dies or stops hands its running slots to the others.
   */
  queue?: SlotQueue;
  /** Slots due, posted (late), skipped, failed and retried, the delay to posting, the oldest still due. */
  metrics?: BotMetrics;
}

/**
 * The scheduler: the planning loop (one timer; the pure planner decides what is due and what is
 * caught up) starts a lane per schedule with due slots, and the lane hands each slot to a driver:
 * this process (`createLocalDriver`) or, with `queue`, the replicas' queue (`createQueueDriver`).
 * Both run a slot through one `attemptSlot`, which claims its run key in the store before
 * `runSlot` sends anything and records every outcome; each schedule's last fire is kept so
 * downtime is caught up.
 *
 * @example
 * const scheduler = createScheduler({ listSchedules, store, runSlot, onGiveUp, logger });
 * await scheduler.start(); … await scheduler.stop({ graceMs: 10_000 });
 */
export function createScheduler(deps: SchedulerDeps): Scheduler {
  const { store, logger } = deps;
  const abort = new AbortController();
  let stopping = false;
  /** When start() ran: slots before it were missed while the bot was down. */
  let startedAt = Number.NEGATIVE_INFINITY;
  const runtime: SchedulerRuntime = {
    clock: deps.clock ?? (() => new Date()),
    setTimer: deps.setTimer ?? defaultSetTimer,
    logger,
    signal: abort.signal,
    isStopping: () => stopping,
    record: recordWith(logger),
  };
  const { clock, setTimer } = runtime;
  const inFlight = new Set<Promise<unknown>>();
  const concurrency = deps.concurrency ?? 4;
  const due = dueSlots(deps.queue !== undefined);
  if (deps.metrics) deps.metrics.sources.oldestDueSlot = () => due.oldest();
  const events = slotEvents(deps.metrics, clock);
  const slotDeps = {
    runs: store.runs,
    attempt: due.track(createAttemptSlot({ runs: store.runs, runSlot: deps.runSlot, runtime, inFlight, events })),
    giveUp: due.trackGiveUp(giveUpWith(deps.onGiveUp, logger), deps.metrics),
    runtime,
    concurrency,
  };
  const driver: SlotDriver = deps.queue
    ? createQueueDriver({ ...slotDeps, queue: deps.queue, findSpec: (id) => loop.findSpec(id) })
    : createLocalDriver(slotDeps);
  const lanes = createScheduleLanes({
    store,
    dispatch: (spec, slot, late) => driver.dispatch(spec, slot, late),
    runtime,
    catchUp: deps.catchUp,
    startedAt: () => startedAt,
    onLaneEnd: () => loop.arm(),
  });
  const loop = createPlanningLoop({
    listSchedules: deps.listSchedules,
    schedules: store.schedules,
    lanes,
    runtime,
    maxWakeMs: deps.maxWakeMs ?? 30_000,
    catchUp: deps.catchUp,
  });

  return {
    async start() {
      startedAt = clock().getTime();
      await driver.start(() => loop.tick());
    },

    tick: () => loop.tick(),

    idle: () => loop.idle(),

    async stop(options = {}) {
      if (stopping) return;
      stopping = true;
      loop.disarm();
      const graceMs = options.graceMs ?? 10_000;
      await driver.stop(graceMs);
      if (inFlight.size > 0) {
        let cancelGrace = () => {};
        const grace = new Promise<void>((resolve) => {
          cancelGrace = setTimer(resolve, graceMs);
        });
        await Promise.race([Promise.allSettled([...inFlight]), grace]);
        cancelGrace();
        if (inFlight.size > 0) {
          logger.warn({ running: inFlight.size }, 'shutdown grace over; aborting digest runs (catch-up finishes them)');
          abort.abort(new StoppedError());
        }
      }
      // Lanes record what finished, then end (their waits are cancelled, their queued slots
      // dropped); a runSlot that ignores the abort is not waited for.
      const recorded = Promise.allSettled(lanes.running());
      if (abort.signal.aborted) await Promise.race([recorded, new Promise((r) => setImmediate(r))]);
      else await recorded;
    },

    nextRuns(count = 5) {
      const now = clock();
      return loop.specs().map((spec) => ({ spec, fires: loop.fires(spec, now, count) }));
    },

    status() {
      const now = clock();
      return loop.specs().map((spec) => {
        const next = loop.fires(spec, now, 1)[0];
        const prefix = specRunKeyPrefix(spec);
        const lastRun = store.runs.listByReport(spec.report, 200).find((r) => r.idempotencyKey.startsWith(prefix));
        return { spec, ...(next ? { next } : {}), ...(lastRun ? { lastRun } : {}) };
      });
    },

    problems: () => loop.problems(),
  };
}
