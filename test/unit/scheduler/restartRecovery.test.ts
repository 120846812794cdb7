/**
 * One process (no queue): a run that a process left `running` when it died is failed at start-up
 * and its slot run again as the next attempt (which checks the channel before posting).
 */
import { silentLogger } from '../../../src/core/index.js';
import { createScheduler, runKey, type ScheduleSpec, type SlotRun } from '../../../src/scheduler/index.js';
import { createMemoryStore } from '../../../src/store/index.js';
import { FakeTime } from './fakeTime.js';

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

it('fails every unfinished run at start-up and runs its slot again as the next attempt', async () => {
  const time = new FakeTime('2026-11-23T09:30:00Z');
  const store = createMemoryStore({ clock: time.clock });
  await store.schedules.setLastFire(spec.id, '2026-11-23T08:00:00.000Z');
  const { run } = await store.runs.start({
    report: 'daily',
    trigger: 'schedule',
    idempotencyKey: runKey('daily', 'C1', new Date('2026-11-23T09:00:00.000Z')),
    scheduledFor: '2026-11-23T09:00:00.000Z',
    channel: 'C1',
  });
  const calls: SlotRun[] = [];
  const scheduler = createScheduler({
    listSchedules: async () => ({ schedules: [spec], problems: [] }),
    store,
    runSlot: async (slotRun) => {
      calls.push(slotRun);
      return { messageTs: '1.0001' };
    },
    clock: time.clock,
    setTimer: time.setTimer,
    logger: silentLogger(),
  });
  await scheduler.start();
  await scheduler.idle();
  expect(store.runs.get(run.id)).toMatchObject({ status: 'failed', error: { code: 'RUN_INTERRUPTED' } });
  expect(calls.map((c) => [c.slot.toISOString(), c.attempt])).toEqual([['2026-11-23T09:00:00.000Z', 2]]);
  expect(store.runs.findByIdempotencyKey(run.idempotencyKey)).toMatchObject({ status: 'succeeded', attempt: 2 });
  await scheduler.stop();
});
