import { INTERNAL_FAILURE_MESSAGE, PivotbotError, silentLogger } from '../../../src/core/index.js';
import {
  createScheduler,
  type GiveUp,
  runKey,
  type SchedulerDeps,
  type ScheduleSpec,
  type SlotResult,
  type SlotRun,
} from '../../../src/scheduler/index.js';
import { createMemoryStore, type Store, StoreWriteFailedError } from '../../../src/store/index.js';
import { deferred, FakeTime, settle } from './fakeTime.js';

const HOUR = 3_600_000;
const spec = (over: Partial<ScheduleSpec> = {}): ScheduleSpec => {
  const base: ScheduleSpec = {
    id: 'report:daily:C1:0 * * * *@UTC',
    report: 'daily',
    channel: 'C1',
    source: 'report',
    timezone: 'UTC',
    cron: '0 * * * *',
    catchUp: 6 * HOUR,
    retry: { attempts: 3, backoffMs: 120_000 },
  };
  return { ...base, ...over };
};
const transient = () => new PivotbotError('REPORTING_HTTP', 'POST /v1/graphql answered 503', { retryable: true });

interface Setup {
  time: FakeTime;
  store: Store;
  specs: ScheduleSpec[];
  calls: SlotRun[];
  gaveUp: GiveUp[];
  runSlot: (run: SlotRun) => Promise<SlotResult>;
}

/** A scheduler on a fake clock and a memory store; `runSlot` answers with a message ts unless replaced. */
function setup(startIso: string, specs: ScheduleSpec[] = [spec()]) {
  const time = new FakeTime(startIso);
  const state: Setup = {
    time,
    store: createMemoryStore({ clock: time.clock }),
    specs,
    calls: [],
    gaveUp: [],
    runSlot: async (run) => ({ messageTs: `${Math.floor(run.slot.getTime() / 1000)}.000100` }),
  };
  const make = (over: Partial<SchedulerDeps> = {}) =>
    createScheduler({
      listSchedules: async () => ({ schedules: state.specs, problems: [] }),
      store: state.store,
      runSlot: (run) => {
        state.calls.push(run);
        return state.runSlot(run);
      },
      onGiveUp: (giveUp) => {
        state.gaveUp.push(giveUp);
      },
      clock: time.clock,
      setTimer: time.setTimer,
      logger: silentLogger(),
      ...over,
    });
  return { ...state, state, make };
}

const slotsOf = (calls: SlotRun[]) => calls.map((c) => `${c.slot.toISOString().slice(11, 16)}${c.late ? ' late' : ''}`);

describe('createScheduler: each slot once', () => {
  it('fires a slot when its time comes, once, even if tick runs again', async () => {
    const { state, make, time, store } = setup('2026-11-23T08:30:00Z');
    const scheduler = make();
    await scheduler.start();
    expect(state.calls).toEqual([]);
    await time.advance(30 * 60_000);
    await scheduler.tick();
    await scheduler.tick();
    await scheduler.idle();
    expect(slotsOf(state.calls)).toEqual(['09:00']);
    const run = store.runs.findByIdempotencyKey(runKey('daily', 'C1', new Date('2026-11-23T09:00:00Z')));
    expect(run).toMatchObject({ status: 'succeeded', trigger: 'schedule', attempt: 1, messageTs: '1795424400.000100' });
    expect(store.schedules.getLastFire(spec().id)).toBe('2026-11-23T09:00:00.000Z');
    await scheduler.stop();
  });

  it('does not fire a slot again after a restart on the same store', async () => {
    const { state, make, time } = setup('2026-11-23T08:30:00Z');
    const first = make();
    await first.start();
    await time.advance(31 * 60_000);
    await first.idle();
    await first.stop();
    const second = make();
    await second.start();
    await second.tick();
    await second.idle();
    expect(slotsOf(state.calls)).toEqual(['09:00']);
    await second.stop();
  });

  it('posts a slot delivered to the same channel by a report and a subscription once', async () => {
    const twin = spec({ id: 'subscription:sub_1:0 * * * *@UTC', source: 'subscription', subscriptionId: 'sub_1' });
    const { state, make, time } = setup('2026-11-23T08:30:00Z', [spec(), twin]);
    const scheduler = make();
    await scheduler.start();
    await time.advance(30 * 60_000);
    await scheduler.idle();
    expect(slotsOf(state.calls)).toEqual(['09:00']);
    await scheduler.stop();
  });

  it('never posts the past of a schedule it sees for the first time', async () => {
    const { state, make, store } = setup('2026-11-23T09:30:00Z', [spec({ cron: '* * * * *' })]);
    const scheduler = make();
    await scheduler.start();
    await scheduler.idle();
    expect(state.calls).toEqual([]);
    expect(store.schedules.getLastFire(spec().id)).toBe('2026-11-23T09:30:00.000Z');
    await scheduler.stop();
  });

  it('arms one timer, never further than 30 s away, and re-lists schedules on each wake-up', async () => {
    const { state, make, time } = setup('2026-11-23T08:30:00Z', []);
    let lists = 0;
    const scheduler = make({
      listSchedules: async () => {
        lists++;
        return { schedules: state.specs, problems: [] };
      },
    });
    await scheduler.start();
    expect(time.pendingTimers).toBe(1);
    await time.advance(60_000);
    expect(lists).toBe(3);
    // A subscription added while running is seen at the next wake-up, then fires.
    state.specs.push(spec({ cron: '*/5 * * * *' }));
    await time.advance(30_000);
    await time.advance(4 * 60_000);
    await scheduler.idle();
    expect(slotsOf(state.calls)).toEqual(['08:35']);
    await scheduler.stop();
    expect(time.pendingTimers).toBe(0);
  });
});

describe('createScheduler: catch-up after downtime', () => {
  async function downtime(over: Partial<ScheduleSpec>, downUntil: string) {
    const s = setup('2026-11-23T08:30:00Z', [spec(over)]);
    const first = s.make();
    await first.start();
    await s.time.advance(31 * 60_000); // 09:00 fires
    await first.idle();
    await first.stop();
    s.time.jump(downUntil);
    const second = s.make();
    await second.start();
    await second.idle();
    await second.stop();
    return s;
  }

  it('posts the slots missed within the window late, once each, as catch-up runs', async () => {
    const { state, store } = await downtime({}, '2026-11-23T11:47:00Z');
    expect(slotsOf(state.calls)).toEqual(['09:00', '10:00 late', '11:00 late']);
    const run = store.runs.findByIdempotencyKey(runKey('daily', 'C1', new Date('2026-11-23T10:00:00Z')));
    expect(run).toMatchObject({ trigger: 'catch-up', status: 'succeeded' });
    expect(store.schedules.getLastFire(spec().id)).toBe('2026-11-23T11:00:00.000Z');
  });

  it('records older slots as skipped with the reason, and posts the recent one', async () => {
    const { state, store } = await downtime({ catchUp: HOUR }, '2026-11-23T11:47:00Z');
    expect(slotsOf(state.calls)).toEqual(['09:00', '11:00 late']);
    const skipped = store.runs.findByIdempotencyKey(runKey('daily', 'C1', new Date('2026-11-23T10:00:00Z')));
    expect(skipped).toMatchObject({
      status: 'skipped',
      trigger: 'catch-up',
      error: {
        code: 'SLOT_SKIPPED',
        message: 'missed by 1h 47m while pivotbot was not running, beyond the 1h catch-up window',
      },
    });
  });

  it('with catchUp none records every missed slot as skipped and posts nothing late', async () => {
    const { state, store } = await downtime({ catchUp: null }, '2026-11-23T11:47:00Z');
    expect(slotsOf(state.calls)).toEqual(['09:00']);
    expect(store.runs.listByReport('daily').map((r) => r.status)).toEqual(['skipped', 'skipped', 'succeeded']);
    expect(store.schedules.getLastFire(spec().id)).toBe('2026-11-23T11:00:00.000Z');
  });

  it('runs again, as attempt 2, a slot whose process died after claiming it', async () => {
    const { state, make, store, time } = setup('2026-11-23T08:30:00Z');
    const first = make();
    await first.start();
    await first.stop();
    // The crashed process: it claimed 09:00 and died before recording anything.
    time.jump('2026-11-23T09:00:05Z');
    const key = runKey('daily', 'C1', new Date('2026-11-23T09:00:00Z'));
    await store.runs.start({ report: 'daily', trigger: 'schedule', idempotencyKey: key, channel: 'C1' });
    time.jump('2026-11-23T09:00:20Z');
    const second = make();
    await second.start();
    await second.idle();
    expect(state.calls.map((c) => [c.slot.toISOString(), c.attempt, c.late])).toEqual([
      ['2026-11-23T09:00:00.000Z', 2, true], // posted after the restart: late
    ]);
    expect(store.runs.listByReport('daily').map((r) => [r.attempt, r.status, r.error?.code])).toEqual([
      [2, 'succeeded', undefined],
      [1, 'failed', 'RUN_INTERRUPTED'],
    ]);
    await second.stop();
  });
});

describe('createScheduler: failures', () => {
  it('retries after the backoff, then gives up and calls onGiveUp once', async () => {
    const { state, make, time, store } = setup('2026-11-23T08:59:00Z');
    state.runSlot = async () => {
      throw transient();
    };
    const scheduler = make();
    await scheduler.start();
    await time.advance(60_000);
    expect(state.calls).toHaveLength(1);
    await time.advance(119_000);
    expect(state.calls).toHaveLength(1);
    await time.advance(1_000);
    expect(state.calls).toHaveLength(2);
    await time.advance(120_000);
    await scheduler.idle();
    expect(state.calls.map((c) => c.attempt)).toEqual([1, 2, 3]);
    expect(state.gaveUp).toHaveLength(1);
    expect(state.gaveUp[0]).toMatchObject({ slot: new Date('2026-11-23T09:00:00Z'), runId: state.calls[2]?.runId });
    expect(store.runs.listByReport('daily').map((r) => [r.status, r.error?.code])).toEqual([
      ['failed', 'REPORTING_HTTP'],
      ['failed', 'REPORTING_HTTP'],
      ['failed', 'REPORTING_HTTP'],
    ]);
    // Given up is done: the slot is not tried again later, nor after a restart.
    await time.advance(30 * 60_000);
    const again = make();
    await again.start();
    await again.idle();
    expect(state.calls).toHaveLength(3);
    expect(state.gaveUp).toHaveLength(1);
    await scheduler.stop();
    await again.stop();
  });

  it('gives up at once on an error that cannot succeed by trying again', async () => {
    const { state, make, time } = setup('2026-11-23T08:59:00Z');
    state.runSlot = async () => {
      throw new PivotbotError('REPORT_NOT_FOUND', 'no report', { retryable: false });
    };
    const scheduler = make();
    await scheduler.start();
    await time.advance(60_000);
    await scheduler.idle();
    expect(state.calls).toHaveLength(1);
    expect(state.gaveUp).toHaveLength(1);
    await scheduler.stop();
  });

  it('succeeds on a retry without a failure notice', async () => {
    const { state, make, time, store } = setup('2026-11-23T08:59:00Z');
    let failures = 1;
    state.runSlot = async () => {
      if (failures-- > 0) throw transient();
      return { messageTs: '1.000100' };
    };
    const scheduler = make();
    await scheduler.start();
    await time.advance(60_000 + 120_000);
    await scheduler.idle();
    expect(state.calls).toHaveLength(2);
    expect(state.gaveUp).toEqual([]);
    expect(store.runs.listByReport('daily').map((r) => r.status)).toEqual(['succeeded', 'failed']);
    await scheduler.stop();
  });

  it('stores the user-safe message of our errors and never an unknown error text', async () => {
    const { state, make, time, store } = setup('2026-11-23T08:59:00Z', [
      spec({ retry: { attempts: 1, backoffMs: 0 } }),
    ]);
    state.runSlot = async () => {
      throw new Error('token xoxb-secret refused');
    };
    const scheduler = make();
    await scheduler.start();
    await time.advance(60_000);
    await scheduler.idle();
    expect(store.runs.listByReport('daily')[0]?.error).toEqual({ code: 'INTERNAL', message: INTERNAL_FAILURE_MESSAGE });
    await scheduler.stop();
  });
});

describe('createScheduler: when the store cannot write', () => {
  const diskFull = () => new StoreWriteFailedError('/data/pivotbot.json', new Error('ENOSPC'));

  it('does not post again a digest whose success could not be written', async () => {
    const s = setup('2026-11-23T08:59:00Z');
    const finish = s.store.runs.finish;
    const runs = {
      ...s.store.runs,
      finish: async (...args: Parameters<typeof finish>) => {
        await finish(...args);
        throw diskFull();
      },
    };
    const scheduler = s.make({ store: { runs, schedules: s.store.schedules } });
    await scheduler.start();
    await s.time.advance(60_000);
    await scheduler.idle();
    expect(s.store.schedules.getLastFire(spec().id)).toBe('2026-11-23T09:00:00.000Z');
    await s.time.advance(10 * 60_000);
    await scheduler.idle();
    expect(s.state.calls).toHaveLength(1);
    expect(s.store.runs.listByReport('daily').map((r) => r.status)).toEqual(['succeeded']);
    expect(s.store.schedules.getLastFire(spec().id)).toBe('2026-11-23T09:00:00.000Z');
    await scheduler.stop();
  });

  it('does not post on a claim that is not on disk, and tries again later', async () => {
    const s = setup('2026-11-23T08:59:00Z');
    const start = s.store.runs.start;
    let failures = 1;
    const runs = {
      ...s.store.runs,
      start: async (...args: Parameters<typeof start>) => {
        const claim = await start(...args);
        if (failures-- > 0) throw diskFull();
        return claim;
      },
    };
    const scheduler = s.make({ store: { runs, schedules: s.store.schedules } });
    await scheduler.start();
    await s.time.advance(60_000);
    expect(s.state.calls).toHaveLength(0);
    await s.time.advance(120_000);
    await scheduler.idle();
    expect(s.state.calls.map((c) => c.attempt)).toEqual([2]);
    expect(s.store.runs.listByReport('daily').map((r) => [r.status, r.error?.code])).toEqual([
      ['succeeded', undefined],
      ['failed', 'STORE_WRITE_FAILED'],
    ]);
    await scheduler.stop();
  });
});

describe('createScheduler: load and shutdown', () => {
  const many = (n: number) =>
    Array.from({ length: n }, (_, i) => spec({ id: `report:r${i}:C1:0 * * * *@UTC`, report: `r${i}` }));

  it('runs at most `concurrency` slots at once and all of them in the end', async () => {
    const { state, make, time } = setup('2026-11-23T08:59:00Z', many(10));
    let running = 0;
    let peak = 0;
    const gate = deferred();
    state.runSlot = async () => {
      running++;
      peak = Math.max(peak, running);
      await gate.promise;
      running--;
      return {};
    };
    const scheduler = make({ concurrency: 4 });
    await scheduler.start();
    await time.advance(60_000);
    expect(running).toBe(4);
    gate.resolve();
    await scheduler.idle();
    expect(peak).toBe(4);
    expect(state.calls).toHaveLength(10);
    await scheduler.stop();
  });

  it('stop waits for in-flight runs within the grace and records them', async () => {
    const { state, make, time, store } = setup('2026-11-23T08:59:00Z');
    const gate = deferred<{ messageTs?: string }>();
    state.runSlot = () => gate.promise;
    const scheduler = make();
    await scheduler.start();
    await time.advance(60_000);
    let stopped = false;
    const stopping = scheduler.stop({ graceMs: 5_000 }).then(() => {
      stopped = true;
    });
    await settle();
    expect(stopped).toBe(false);
    gate.resolve({ messageTs: '2.000100' });
    await stopping;
    expect(store.runs.listByReport('daily')[0]).toMatchObject({ status: 'succeeded', messageTs: '2.000100' });
    expect(store.schedules.getLastFire(spec().id)).toBe('2026-11-23T09:00:00.000Z');
    expect(time.pendingTimers).toBe(0);
  });

  it('aborts runs still going when the grace is over and leaves their slots to catch-up', async () => {
    const { state, make, time, store } = setup('2026-11-23T08:59:00Z');
    state.runSlot = (run) =>
      new Promise((_, reject) => run.signal.addEventListener('abort', () => reject(new Error('aborted'))));
    const scheduler = make();
    await scheduler.start();
    await time.advance(60_000);
    const stopping = scheduler.stop({ graceMs: 5_000 });
    await time.advance(5_000);
    await stopping;
    expect(state.calls[0]?.signal.aborted).toBe(true);
    expect(store.runs.listByReport('daily')[0]).toMatchObject({ status: 'failed', error: { code: 'RUN_INTERRUPTED' } });
    expect(store.schedules.getLastFire(spec().id)).toBe('2026-11-23T08:59:00.000Z');
    // The next start catches the slot up (attempt 2), and the failure notice was never sent.
    state.runSlot = async () => ({});
    time.jump('2026-11-23T09:03:00Z');
    const next = make();
    await next.start();
    await next.idle();
    expect(state.calls.map((c) => [c.attempt, c.late])).toEqual([
      [1, false],
      [2, true],
    ]);
    expect(state.gaveUp).toEqual([]);
    await next.stop();
  });

  it('stop cancels a retry wait and leaves the slot to catch-up', async () => {
    const { state, make, time, store } = setup('2026-11-23T08:59:00Z');
    state.runSlot = async () => {
      throw transient();
    };
    const scheduler = make();
    await scheduler.start();
    await time.advance(60_000);
    await scheduler.stop({ graceMs: 1_000 });
    expect(time.pendingTimers).toBe(0);
    expect(state.calls).toHaveLength(1);
    expect(state.gaveUp).toEqual([]);
    expect(store.schedules.getLastFire(spec().id)).toBe('2026-11-23T08:59:00.000Z');
  });
});

describe('createScheduler: waiting for late data', () => {
  const waiting = spec({ waitForData: { metric: 'impressions', minShare: 0.5, waitMs: 30 * 60_000 } });

  it('keeps the slot claimed, frees the pool, and calls again after the wait with waitedMs grown', async () => {
    const { state, make, time, store } = setup('2026-11-23T08:59:00Z', [waiting]);
    state.runSlot = async (run) => (run.waitedMs < 30 * 60_000 ? { waitMs: 15 * 60_000 } : { messageTs: '3.000100' });
    const scheduler = make();
    await scheduler.start();
    await time.advance(60_000);
    const key = runKey('daily', 'C1', new Date('2026-11-23T09:00:00Z'));
    expect(store.runs.findByIdempotencyKey(key)?.status).toBe('running');
    await time.advance(30 * 60_000);
    await scheduler.idle();
    expect(state.calls.map((c) => [c.waitedMs, c.attempt])).toEqual([
      [0, 1],
      [15 * 60_000, 1],
      [30 * 60_000, 1],
    ]);
    expect(store.runs.listByReport('daily').map((r) => r.status)).toEqual(['succeeded']);
    await scheduler.stop();
  });

  it('fails the slot, with one notice, when runSlot would wait past the schedule', async () => {
    const { state, make, time, store } = setup('2026-11-23T08:59:00Z', [waiting]);
    state.runSlot = async () => ({ waitMs: 20 * 60_000 });
    const scheduler = make();
    await scheduler.start();
    await time.advance(60_000 + 20 * 60_000);
    await scheduler.idle();
    expect(state.calls).toHaveLength(2);
    expect(state.gaveUp).toHaveLength(1);
    expect(store.runs.listByReport('daily')[0]?.error?.code).toBe('DATA_WAIT_OVER');
    await scheduler.stop();
  });

  it('on stop, marks a waiting run interrupted so the next start runs it again', async () => {
    const { state, make, time, store } = setup('2026-11-23T08:59:00Z', [waiting]);
    state.runSlot = async () => ({ waitMs: 15 * 60_000 });
    const scheduler = make();
    await scheduler.start();
    await time.advance(60_000);
    await scheduler.stop();
    expect(store.runs.listByReport('daily')[0]).toMatchObject({ status: 'failed', error: { code: 'RUN_INTERRUPTED' } });
    expect(time.pendingTimers).toBe(0);
  });
});

describe('createScheduler: what it reports', () => {
  it('status gives each schedule its next fire and its last run', async () => {
    const { make, time } = setup('2026-11-23T08:59:00Z');
    const scheduler = make();
    await scheduler.start();
    await time.advance(60_000);
    await scheduler.idle();
    const [status] = scheduler.status();
    expect(status?.next).toEqual(new Date('2026-11-23T10:00:00Z'));
    expect(status?.lastRun).toMatchObject({ status: 'succeeded', scheduledFor: '2026-11-23T09:00:00.000Z' });
    expect(scheduler.nextRuns(2)[0]?.fires).toEqual([
      new Date('2026-11-23T10:00:00Z'),
      new Date('2026-11-23T11:00:00Z'),
    ]);
    await scheduler.stop();
  });

  it('keeps the previous schedules when listing fails, and reports problems', async () => {
    const { state, make, time } = setup('2026-11-23T08:59:00Z');
    let fail = false;
    const problem = {
      source: 'subscription' as const,
      report: 'x',
      channel: 'C9',
      message: 'report "x" has no schedule',
    };
    const scheduler = make({
      listSchedules: async () => {
        if (fail) throw new Error('reports folder unreadable');
        return { schedules: state.specs, problems: [problem] };
      },
    });
    await scheduler.start();
    fail = true;
    await time.advance(60_000);
    await scheduler.idle();
    expect(slotsOf(state.calls)).toEqual(['09:00']);
    expect(scheduler.problems()).toEqual([problem]);
    await scheduler.stop();
  });

  it('keeps running the other schedules when one cannot be planned', async () => {
    const broken = spec({ id: 'report:bad:C1:nonsense@UTC', report: 'bad', cron: 'nonsense' });
    const { state, make, time, store } = setup('2026-11-23T08:59:00Z', [broken, spec()]);
    await store.schedules.setLastFire(broken.id, '2026-11-23T08:00:00.000Z');
    const scheduler = make();
    await scheduler.start();
    await time.advance(60_000);
    await scheduler.idle();
    expect(slotsOf(state.calls)).toEqual(['09:00']);
    expect(time.pendingTimers).toBe(1);
    await scheduler.stop();
  });

  it('forgets the bookkeeping of a removed subscription and of a changed timing, not of a vanished report', async () => {
    const sub = spec({ id: 'subscription:sub_1:0 * * * *@UTC', source: 'subscription', subscriptionId: 'sub_1' });
    const other = spec({ id: 'report:weekly:C1:0 9 * * 1@UTC', report: 'weekly', cron: '0 9 * * 1' });
    const { state, make, time, store } = setup('2026-11-23T08:59:00Z', [spec(), sub, other]);
    const scheduler = make();
    await scheduler.start();
    expect(store.schedules.list()).toHaveLength(3);
    state.specs = [spec({ id: 'report:daily:C1:30 * * * *@UTC', cron: '30 * * * *' })];
    await time.advance(30_000);
    expect(store.schedules.list().map((s) => s.scheduleId)).toEqual([
      'report:weekly:C1:0 9 * * 1@UTC',
      'report:daily:C1:30 * * * *@UTC',
    ]);
    await scheduler.stop();
  });
});
