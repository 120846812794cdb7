import type { JobWithMetadata } from 'pg-boss';
import { silentLogger } from '../../../src/core/index.js';
import { createSlotQueueWorkers } from '../../../src/store/postgres/slotQueueWorkers.js';
import type { QueuedSlot } from '../../../src/store/SlotQueue.js';

/** A pg-boss stand-in whose fetch answers when the test says so (the replica is stopped meanwhile). */
function heldBoss() {
  const fetched: Array<(jobs: Array<JobWithMetadata<QueuedSlot>>) => void> = [];
  const failed: Array<{ id: string; message: string }> = [];
  const completed: string[] = [];
  let fetchAsked: () => void = () => undefined;
  const firstFetch = new Promise<void>((resolve) => {
    fetchAsked = resolve;
  });
  const boss = {
    fetch: () =>
      new Promise<Array<JobWithMetadata<QueuedSlot>>>((resolve) => {
        fetched.push(resolve as never);
        fetchAsked();
      }),
    complete: async (_queue: string, attempts: Array<{ id: string }>) => {
      completed.push(...attempts.map((a) => a.id));
      return { affected: attempts.length };
    },
    fail: async (_queue: string, attempts: Array<{ id: string }>, data: { message: string }) => {
      failed.push(...attempts.map((a) => ({ id: a.id, message: data.message })));
      return { affected: attempts.length };
    },
    touch: async () => ({ settled: [] }),
  };
  return { boss, fetched, failed, completed, firstFetch };
}

const job = (id: string): JobWithMetadata<QueuedSlot> =>
  ({ id, retryCount: 0, expireInSeconds: 900, data: { scheduleId: 's', slot: '2026-11-27T09:00:00.000Z' } }) as never;

/** Workers over the stand-in, polling rarely (a fetch is answered by the test, not by time). */
const workersOf = (boss: ReturnType<typeof heldBoss>['boss']) =>
  createSlotQueueWorkers({
    boss: boss as never,
    queue: 'pivotbot-slot',
    heartbeatMs: 30_000,
    pollMs: 60_000,
    logger: silentLogger(),
    location: 'test',
  });

describe('the slot queue workers of a replica that is stopping', () => {
  it('hand back jobs a fetch returned after the stop began, without starting them', async () => {
    const { boss, fetched, failed, completed, firstFetch } = heldBoss();
    const workers = workersOf(boss);
    const started: string[] = [];
    await workers.work(2, async (slot) => {
      started.push(slot.scheduleId);
    });
    await firstFetch;
    const stopping = workers.stop(1_000);
    // The fetch that was under way when SIGTERM came answers with a job.
    fetched[0]?.([job('j1')]);
    await stopping;
    expect(started).toEqual([]);
    expect(completed).toEqual([]);
    expect(failed).toEqual([{ id: 'j1', message: 'the replica was stopping' }]);
    // And no fetch after that.
    expect(fetched).toHaveLength(1);
  });

  it('run what they fetched before the stop', async () => {
    const { boss, fetched, completed, firstFetch } = heldBoss();
    const workers = workersOf(boss);
    let ran: () => void = () => undefined;
    const handled = new Promise<void>((resolve) => {
      ran = resolve;
    });
    await workers.work(1, async () => ran());
    await firstFetch;
    fetched[0]?.([job('j2')]);
    await handled;
    await workers.stop(1_000);
    expect(completed).toEqual(['j2']);
  });
});
