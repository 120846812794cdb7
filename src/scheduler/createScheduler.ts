import { type Logger, PivotbotError, type StoredFailure, storedError } from '../core/index.js';
import type { Run, RunsRepository, SchedulesRepository, SlotQueue } from '../store/index.js';
import { nextFires } from '../time/index.js';
import { type CatchUpOptions, planCatchUp } from './planCatchUp.js';
import { retryAction } from './retryAction.js';
import { parseAlertRunKey, parseRunKey, specRunKey, specRunKeyPrefix } from './runKey.js';
import { enqueueSlot, type QueuedSlotContext, runQueuedSlot } from './runQueuedSlot.js';
import type { GiveUp, Scheduler, SlotResult, SlotRun } from './Scheduler.js';
import type { ScheduleList, ScheduleProblem, ScheduleSpec } from './ScheduleSpec.js';
import { type AttemptSlot, handedOverError, kindOf, type SlotAttempt, StoppedError } from './slotAttempt.js';
import { createSlotPool } from './slotPool.js';

export type { GiveUp, Scheduler, ScheduleStatus, SlotResult, SlotRun } from './Scheduler.js';

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
  setTimer?: (fn: () => void, ms: number) => () => void;
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
}

const MAX_TIMEOUT_MS = 2_147_483_647;

/** setTimeout that does not keep the process alive and accepts waits past Node's 24.8-day limit. */
function defaultSetTimer(fn: () => void, ms: number): () => void {
  let timer: NodeJS.Timeout;
  const wait = (left: number) => {
    timer = setTimeout(
      () => (left > MAX_TIMEOUT_MS ? wait(left - MAX_TIMEOUT_MS) : fn()),
      Math.min(left, MAX_TIMEOUT_MS),
    );
    timer.unref();
  };
  wait(Math.max(0, ms));
  return () => clearTimeout(timer);
}

/**
 * The scheduler's driver: decides with the pure functions of this folder, claims each slot's
 * run key in the store before `runSlot` sends anything, records every outcome, and keeps the
 * last fire of each schedule so downtime is caught up. One timer, re-armed after each wake-up.
 *
 * @example
 * const scheduler = createScheduler({ listSchedules, store, runSlot, onGiveUp, logger });
 * await scheduler.start(); … await scheduler.stop({ graceMs: 10_000 });
 */
export function createScheduler(deps: SchedulerDeps): Scheduler {
  const { store, logger } = deps;
  const clock = deps.clock ?? (() => new Date());
  const setTimer = deps.setTimer ?? defaultSetTimer;
  const maxWakeMs = deps.maxWakeMs ?? 30_000;
  const pool = createSlotPool(deps.concurrency ?? 4);

  let specs: ScheduleSpec[] = [];
  let listProblems: ScheduleProblem[] = [];
  const loggedProblems = new Set<string>();
  const lanes = new Map<string, Promise<void>>();
  const nextFire = new Map<string, number>();
  const waits = new Set<() => void>();
  const inFlight = new Set<Promise<unknown>>();
  const abort = new AbortController();
  let cancelWake: (() => void) | undefined;
  let stopping = false;
  /** When start() ran: slots before it were missed while the bot was down. */
  let startedAt = Number.NEGATIVE_INFINITY;
  let ticking: Promise<void> | undefined;

  const sleep = (ms: number): Promise<boolean> =>
    new Promise((resolve) => {
      if (stopping) return resolve(false);
      const wake = () => {
        waits.delete(cancel);
        resolve(true);
      };
      const stopTimer = setTimer(wake, ms);
      const cancel = () => {
        stopTimer();
        waits.delete(cancel);
        resolve(false);
      };
      waits.add(cancel);
    });

  async function refresh(): Promise<void> {
    let list: ScheduleList;
    try {
      list = await deps.listSchedules();
    } catch (error) {
      logger.error({ err: error }, 'could not list schedules; keeping the previous ones');
      return;
    }
    specs = list.schedules;
    listProblems = list.problems;
    const ids = new Set(specs.map((s) => s.id));
    for (const id of nextFire.keys()) if (!ids.has(id)) nextFire.delete(id);
    for (const problem of list.problems) {
      const text = `${problem.report}${problem.channel ? ` → ${problem.channel}` : ''}: ${problem.message}`;
      if (!loggedProblems.has(text)) logger.warn({ problem }, `schedule not running: ${text}`);
      loggedProblems.add(text);
    }
    await forgetVanished();
  }

  /**
   * A schedule whose timing changed is a new schedule (its id holds the timing): forget the old
   * one's bookkeeping, and a removed subscription's. A report that disappears keeps it, since a
   * file that is briefly broken must catch up its slots once fixed.
   */
  async function forgetVanished(): Promise<void> {
    const ids = new Set(specs.map((s) => s.id));
    const prefix = (id: string) =>
      id
        .split(':')
        .slice(0, id.startsWith('subscription:') ? 2 : 3)
        .join(':');
    const live = new Set(specs.map((s) => prefix(s.id)));
    for (const { scheduleId: id } of store.schedules.list()) {
      if (ids.has(id)) continue;
      if (id.startsWith('subscription:') || live.has(prefix(id))) await record(() => store.schedules.remove(id));
    }
  }

  async function tick(): Promise<void> {
    if (stopping) return;
    // One tick at a time: a timer wake-up and a test's tick() never plan the same slot twice.
    while (ticking) await ticking;
    ticking = (async () => {
      try {
        await refresh();
        const now = clock();
        for (const spec of specs) {
          if (stopping) break;
          if (lanes.has(spec.id)) continue;
          try {
            await consider(spec, now);
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

  async function consider(spec: ScheduleSpec, now: Date): Promise<void> {
    const since = store.schedules.getLastFire(spec.id);
    if (since === undefined) {
      // First sight: only slots after now count, so a new schedule never posts its past.
      await record(() => store.schedules.setLastFire(spec.id, now.toISOString()));
      return;
    }
    const plan = planCatchUp(spec, new Date(since), now, deps.catchUp);
    if (plan.due.length + plan.skipped.length + plan.omitted > 0) startLane(spec);
  }

  function startLane(spec: ScheduleSpec): void {
    const lane = runLane(spec)
      .catch((error: unknown) => logger.error({ err: error, schedule: spec.id }, 'schedule lane failed'))
      .finally(() => {
        lanes.delete(spec.id);
        if (!stopping) arm();
      });
    lanes.set(spec.id, lane);
  }

  /** One schedule's slots, in order, until nothing more is due; stops (leaving the rest to catch-up) on shutdown. */
  async function runLane(spec: ScheduleSpec): Promise<void> {
    for (;;) {
      if (stopping) return;
      const since = store.schedules.getLastFire(spec.id);
      if (since === undefined) return;
      const plan = planCatchUp(spec, new Date(since), clock(), deps.catchUp);
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
        const late = overdue || slot.getTime() < startedAt;
        if (deps.queue) {
          // Until the queue has it, the slot stays due: a send that fails is tried again next wake-up.
          await enqueueSlot(deps.queue, spec, slot, late, logger);
          await record(() => store.schedules.setLastFire(spec.id, slot.toISOString()));
          continue;
        }
        const outcome = await runWithRetries(spec, slot, late);
        if (outcome === 'stopped') return;
        await record(() => store.schedules.setLastFire(spec.id, slot.toISOString()));
      }
    }
  }

  async function recordSkipped(spec: ScheduleSpec, slot: Date, reason: string): Promise<void> {
    await record(async () => {
      const { run, started } = await store.runs.start(newRun(spec, slot, 'catch-up'));
      if (started) {
        await store.runs.finish(run.id, { status: 'skipped', error: { code: 'SLOT_SKIPPED', message: reason } });
      }
    });
    logger.info({ schedule: spec.id, slot: slot.toISOString(), reason }, `${kindOf(spec)} slot skipped`);
  }

  function newRun(spec: ScheduleSpec, slot: Date, trigger: 'schedule' | 'catch-up') {
    return {
      report: spec.report,
      trigger,
      idempotencyKey: specRunKey(spec, slot),
      scheduledFor: slot.toISOString(),
      channel: spec.channel,
      ...(spec.subscriptionId === undefined ? {} : { subscriptionId: spec.subscriptionId }),
    };
  }

  async function runWithRetries(spec: ScheduleSpec, slot: Date, late: boolean): Promise<'done' | 'stopped'> {
    // A claimed run that asked to wait for late data, and since when (this process) it waits.
    let held: Run | undefined;
    let waitingSince: number | undefined;
    const release = async () => {
      if (held) {
        await store.runs.finish(held.id, { status: 'failed', error: interrupted() }).catch(() => undefined);
      }
    };
    for (let tries = 1; ; ) {
      const waitedMs = waitingSince === undefined ? 0 : clock().getTime() - waitingSince;
      let outcome: SlotAttempt;
      try {
        outcome = await pool.run(() => attemptSlot(spec, slot, late, held, waitedMs, abort.signal));
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
        await giveUp(spec, slot, outcome.error, outcome.runId);
        return 'done';
      }
      logger.warn({ ...where, retryInMs: decision.delayMs }, `${kindOf(spec)} slot failed; retrying`);
      if (!(await sleep(decision.delayMs))) return 'stopped';
      tries++;
    }
  }

  /** Posts the failure notice of a slot whose attempts are spent (once; a failing notice is logged). */
  async function giveUp(spec: ScheduleSpec, slot: Date, error: unknown, runId: string): Promise<void> {
    try {
      await deps.onGiveUp?.({ spec, slot, error, runId });
    } catch (noticeError) {
      logger.error(
        { schedule: spec.id, slot: slot.toISOString(), err: noticeError },
        'the failure notice could not be sent',
      );
    }
  }

  /** Claims the slot (unless it holds it already, waiting for data) and runs it once, inside the pool. */
  const attemptSlot: AttemptSlot = async (spec, slot, late, held, waitedMs, signal, handedOver = false, fence) => {
    if (stopping) return 'stopped';
    let run = held;
    if (!run) {
      const key = specRunKey(spec, slot);
      try {
        let claim = await store.runs.start(newRun(spec, slot, late ? 'catch-up' : 'schedule'));
        if (!claim.started && claim.run.status === 'running' && handedOver) {
          // The queue handed this slot over from a replica that died or stopped mid-run: its claim
          // is failed, and this attempt (the next, so it checks the channel first) takes the key.
          await store.runs.finish(claim.run.id, { status: 'failed', error: handedOverError() });
          logger.warn(
            { run: claim.run.id, key },
            `${kindOf(spec)} run of a stopped replica taken over; running it again`,
          );
          claim = await store.runs.start(newRun(spec, slot, late ? 'catch-up' : 'schedule'));
        }
        // Running elsewhere (the same channel subscribed at the same instant), succeeded or skipped.
        if (!claim.started) return 'done';
        run = claim.run;
      } catch (error) {
        // A claim that is not on disk does not protect the slot after a crash: do not post on
        // it. The store keeps it in memory, so it is released as failed and tried again.
        const pending = store.runs.findByIdempotencyKey(key);
        if (pending?.status !== 'running') throw error;
        await record(() => store.runs.finish(pending.id, { status: 'failed', error: storedError(error) }));
        return { error, runId: pending.id };
      }
    }
    const claimed = run;
    const call = Promise.resolve().then(() =>
      deps.runSlot({ spec, slot, late, attempt: claimed.attempt, runId: claimed.id, waitedMs, signal }),
    );
    inFlight.add(call);
    let result: SlotResult;
    try {
      result = await call;
      if ('waitMs' in result) {
        const limit = spec.waitForData?.waitMs ?? 0;
        if (waitedMs + result.waitMs <= limit) return { waitMs: result.waitMs, run: claimed };
        throw new PivotbotError(
          'DATA_WAIT_OVER',
          `runSlot asked to wait ${result.waitMs} ms more after ${waitedMs} ms; the schedule allows ${limit} ms`,
          { userMessage: 'The digest waited for late data longer than its schedule allows.' },
        );
      }
    } catch (error) {
      if (fence?.aborted) return fenced(spec, claimed);
      if (signal.aborted) {
        // The next attempt (after a restart here, or on another replica) checks the channel first.
        await record(() => store.runs.finish(claimed.id, { status: 'failed', error: interrupted() }));
        return 'stopped';
      }
      await record(() => store.runs.finish(claimed.id, { status: 'failed', error: storedError(error) }));
      return { error, runId: claimed.id };
    } finally {
      inFlight.delete(call);
    }
    if (fence?.aborted) return fenced(spec, claimed);
    // Posted: whatever happens to this write, the slot is not run again by this process.
    const { messageTs } = result;
    const ts = messageTs === undefined ? {} : { messageTs };
    if ('skipped' in result) {
      const reason = result.skipped;
      logger.info({ schedule: spec.id, slot: slot.toISOString(), reason }, `${kindOf(spec)} slot skipped`);
      await record(() =>
        store.runs.finish(claimed.id, { status: 'skipped', error: { code: 'QUIET', message: reason }, ...ts }),
      );
      return 'done';
    }
    await record(() => store.runs.finish(claimed.id, { status: 'succeeded', ...ts }));
    return 'done';
  };

  /**
   * The queue's fence: this replica's hold on the slot lapsed or another replica took it over while
   * it ran (a frozen process, one cut off from the database). The run is the other replica's to
   * fail and retry now, so this late step writes nothing for it.
   */
  function fenced(spec: ScheduleSpec, run: Run): 'stopped' {
    logger.warn(
      { run: run.id, key: run.idempotencyKey, attempt: run.attempt },
      `${kindOf(spec)} slot: late step after another replica may have taken it over; not recorded`,
    );
    return 'stopped';
  }

  /**
   * A bookkeeping write that failed (disk full, read-only) stays in the store's memory and is
   * written with the next successful write: log it, and carry on with what is already decided.
   */
  async function record(write: () => Promise<unknown>): Promise<void> {
    try {
      await write();
    } catch (error) {
      logger.error({ err: error }, 'scheduler bookkeeping not written yet; the store retries with its next write');
    }
  }

  function arm(): void {
    cancelWake?.();
    cancelWake = undefined;
    if (stopping) return;
    const now = clock();
    let wakeAt = now.getTime() + maxWakeMs;
    for (const spec of specs) {
      if (lanes.has(spec.id)) continue;
      const next = nextFireAfter(spec, now.getTime());
      if (next !== undefined && next < wakeAt) wakeAt = next;
    }
    cancelWake = setTimer(
      () => {
        cancelWake = undefined;
        tick().catch((error: unknown) => logger.error({ err: error }, 'scheduler wake-up failed'));
      },
      Math.max(0, wakeAt - now.getTime()),
    );
  }

  /** The next fire after `nowMs`, remembered per schedule id (the id holds the timing) until it passes. */
  function nextFireAfter(spec: ScheduleSpec, nowMs: number): number | undefined {
    const known = nextFire.get(spec.id);
    if (known !== undefined && known > nowMs) return known;
    const next = safeNext(spec, new Date(nowMs), 1)[0]?.getTime();
    if (next === undefined) nextFire.delete(spec.id);
    else nextFire.set(spec.id, next);
    return next;
  }

  function safeNext(spec: ScheduleSpec, from: Date, count: number): Date[] {
    try {
      return nextFires(spec, from, count);
    } catch (error) {
      // listSchedules validates timings; this only guards the timer against a spec built by hand.
      logger.error({ err: error, schedule: spec.id }, 'schedule has an unreadable timing');
      return [];
    }
  }

  return {
    async start() {
      startedAt = clock().getTime();
      const { queue } = deps;
      if (queue) {
        // The schedules first (a queued slot's schedule is looked up among them), then the workers.
        // Runs a stopped replica left are the queue's to hand over, not this process's to fail.
        await tick();
        const queued: QueuedSlotContext = {
          queue,
          store,
          logger,
          clock,
          signal: abort.signal,
          isStopping: () => stopping,
          findSpec: async (id) => {
            if (!specs.some((s) => s.id === id)) await refresh();
            return specs.find((s) => s.id === id);
          },
          attempt: attemptSlot,
          giveUp,
          record,
        };
        await queue.work(deps.concurrency ?? 4, (job, delivery) => runQueuedSlot(queued, job, delivery));
        return;
      }
      for (const run of store.runs.listUnfinished()) {
        if (run.trigger === 'manual') continue;
        if (parseRunKey(run.idempotencyKey) === undefined && parseAlertRunKey(run.idempotencyKey) === undefined)
          continue;
        // A slot claimed by a process that died: marked failed, so the next claim of its key
        // starts a new attempt (told attempt > 1, the delivery checks the channel first).
        await record(() => store.runs.finish(run.id, { status: 'failed', error: interrupted() }));
        logger.warn(
          { run: run.id, key: run.idempotencyKey },
          'scheduled run interrupted by a restart; running it again',
        );
      }
      await tick();
    },

    tick,

    async idle() {
      while (lanes.size > 0 || ticking) {
        await Promise.allSettled([...lanes.values(), ...(ticking ? [ticking] : [])]);
      }
    },

    async stop(options = {}) {
      if (stopping) return;
      stopping = true;
      cancelWake?.();
      cancelWake = undefined;
      for (const cancel of [...waits]) cancel();
      pool.clear(new StoppedError());
      const graceMs = options.graceMs ?? 10_000;
      // Replica mode: no new steps taken; the running ones get the grace, then go back to the queue.
      await deps.queue?.stop(graceMs);
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
      const recorded = Promise.allSettled([...lanes.values()]);
      if (abort.signal.aborted) await Promise.race([recorded, new Promise((r) => setImmediate(r))]);
      else await recorded;
    },

    nextRuns(count = 5) {
      const now = clock();
      return specs.map((spec) => ({ spec, fires: safeNext(spec, now, count) }));
    },

    status() {
      const now = clock();
      return specs.map((spec) => {
        const next = safeNext(spec, now, 1)[0];
        const prefix = specRunKeyPrefix(spec);
        const lastRun = store.runs.listByReport(spec.report, 200).find((r) => r.idempotencyKey.startsWith(prefix));
        return { spec, ...(next ? { next } : {}), ...(lastRun ? { lastRun } : {}) };
      });
    },

    problems: () => listProblems,
  };
}

function interrupted(): StoredFailure {
  return { code: 'RUN_INTERRUPTED', message: 'pivotbot stopped before this run finished; the slot is run again' };
}
