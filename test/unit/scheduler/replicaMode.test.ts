/**
 * The scheduler with leases (several replicas on one database): start-up never takes a live
 * replica's run; an orphaned run (its holder's lease expired) is adopted by one scheduler and run
 * again as the next attempt; a stop leaves an interrupted run to the others instead of failing it.
 */
import { silentLogger } from '../../../src/core/index.js';
import {
  createScheduler,
  runKey,
  type ScheduleSpec,
  type SlotLeases,
  type SlotRun,
} from '../../../src/scheduler/index.js';
import { createMemoryStore, type Store } from '../../../src/store/index.js';
import { deferred, FakeTime } from './fakeTime.js';

const spec: ScheduleSpec = {
  id: 'report:daily:C1:0 * * * *@UTC',
  report: 'daily',
  channel: 'C1',
  source: 'report',
  timezone: 'UTC',
  cron: '0 * * * *',
  catchUp: 6 * 3_600_000,
  retry: { attempts: 3, backoffMs: 120_000 },
};
const claim = (store: Store, iso: string) =>
  store.runs.start({
    report: 'daily',
    trigger: 'schedule',
    idempotencyKey: runKey('daily', 'C1', new Date(iso)),
    scheduledFor: iso,
    channel: 'C1',
  });

/** Leases over a fixed list of orphans, adopted once each (as the database decides). */
function fakeLeases(orphans: () => string[]): SlotLeases & { adopted: string[] } {
  const adopted: string[] = [];
  return {
    adopted,
    everyMs: 1_000,
    orphans: async () => orphans().filter((id) => !adopted.includes(id)),
    adopt: async (id) => {
      if (adopted.includes(id)) return false;
      adopted.push(id);
      return true;
    },
  };
}

function setup() {
  const time = new FakeTime('2026-11-23T09:30:00Z');
  const store = createMemoryStore({ clock: time.clock });
  const calls: SlotRun[] = [];
  const make = (leases: SlotLeases | undefined, runSlot?: (run: SlotRun) => Promise<{ messageTs?: string }>) =>
    createScheduler({
      listSchedules: async () => ({ schedules: [spec], problems: [] }),
      store,
      runSlot: (run) => {
        calls.push(run);
        return runSlot ? runSlot(run) : Promise.resolve({ messageTs: '1.0001' });
      },
      clock: time.clock,
      setTimer: time.setTimer,
      logger: silentLogger(),
      ...(leases ? { leases } : {}),
    });
  return { time, store, calls, make };
}

describe('createScheduler with leases', () => {
  it('leaves a live replica’s run alone and runs an orphan again as attempt 2, on one replica only', async () => {
    const { store, calls, make, time } = setup();
    await store.schedules.setLastFire(spec.id, '2026-11-23T09:00:00.000Z');
    const { run: live } = await claim(store, '2026-11-23T09:00:00.000Z');
    const { run: orphan } = await claim(store, '2026-11-23T08:00:00.000Z');
    const leases = fakeLeases(() => [orphan.id]);
    const [a, b] = [make(leases), make(leases)];
    await Promise.all([a.start(), b.start()]);
    await time.advance(1_000);
    await Promise.all([a.idle(), b.idle()]);

    expect(store.runs.get(live.id)?.status).toBe('running');
    expect(store.runs.get(orphan.id)).toMatchObject({ status: 'failed', error: { code: 'RUN_INTERRUPTED' } });
    expect(calls.map((c) => [c.slot.toISOString(), c.attempt, c.late])).toEqual([
      ['2026-11-23T08:00:00.000Z', 2, true],
    ]);
    expect(store.runs.findByIdempotencyKey(orphan.idempotencyKey)).toMatchObject({ status: 'succeeded', attempt: 2 });
    await Promise.all([a.stop(), b.stop()]);
  });

  it('without leases (one process), fails every unfinished run at start-up and runs it again', async () => {
    const { store, calls, make } = setup();
    await store.schedules.setLastFire(spec.id, '2026-11-23T08:00:00.000Z');
    const { run } = await claim(store, '2026-11-23T09:00:00.000Z');
    const scheduler = make(undefined);
    await scheduler.start();
    await scheduler.idle();
    expect(store.runs.get(run.id)?.status).toBe('failed');
    expect(calls.map((c) => c.attempt)).toEqual([2]);
    await scheduler.stop();
  });

  it('on stop, leaves an interrupted run running for another replica to adopt', async () => {
    const { store, make, time } = setup();
    await store.schedules.setLastFire(spec.id, '2026-11-23T09:30:00.000Z');
    const started = deferred();
    const scheduler = make(
      fakeLeases(() => []),
      (run) => {
        started.resolve();
        return new Promise((_, reject) => run.signal.addEventListener('abort', () => reject(new Error('aborted'))));
      },
    );
    await scheduler.start();
    await time.advance(30 * 60_000);
    await started.promise;
    const stopping = scheduler.stop({ graceMs: 5_000 });
    await time.advance(5_000);
    await stopping;
    expect(store.runs.findByIdempotencyKey(runKey('daily', 'C1', new Date('2026-11-23T10:00:00Z')))?.status).toBe(
      'running',
    );
  });
});
