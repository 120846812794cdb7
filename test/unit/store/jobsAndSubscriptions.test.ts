import {
  StoreClosedError,
  StoreConflictError,
  StoreInvalidRecordError,
  StoreNotFoundError,
} from '../../../src/store/index.js';
import { stopTestPostgres } from '../../support/postgres.js';
import { STORE_KINDS, useStores } from '../../support/storeFactories.js';

afterAll(stopTestPostgres);

function steppingClock(start = '2026-03-01T09:00:00.000Z', stepMs = 1000): () => Date {
  let t = Date.parse(start);
  return () => {
    const now = new Date(t);
    t += stepMs;
    return now;
  };
}

describe.each(STORE_KINDS)('jobs repository (%s store)', (kind) => {
  const stores = useStores(kind);

  const job = { id: 'job-1', request: { metrics: ['installs'] }, requester: 'U1', channel: 'C1' };

  it('creates a queued job with timestamps and reads it back', async () => {
    const store = await stores.open({ clock: steppingClock() });
    const created = await store.jobs.create({ ...job, threadTs: '1700000000.000100' });
    expect(created).toEqual({
      ...job,
      threadTs: '1700000000.000100',
      status: 'queued',
      createdAt: '2026-03-01T09:00:00.000Z',
      updatedAt: '2026-03-01T09:00:00.000Z',
    });
    expect(store.jobs.get('job-1')).toEqual(created);
    expect(store.jobs.listActive()).toHaveLength(1);
  });

  it('refuses a second job with the same id', async () => {
    const store = await stores.open();
    await store.jobs.create(job);
    await expect(store.jobs.create(job)).rejects.toBeInstanceOf(StoreConflictError);
    expect(store.jobs.list()).toHaveLength(1);
  });

  it('stamps startedAt and finishedAt as the status moves, keeping the result file', async () => {
    const store = await stores.open({ clock: steppingClock() });
    await store.jobs.create(job);
    const running = await store.jobs.update('job-1', { status: 'running' });
    expect(running.startedAt).toBe('2026-03-01T09:00:01.000Z');
    const done = await store.jobs.update('job-1', { status: 'succeeded', resultFile: 'out/job-1.csv' });
    expect(done).toMatchObject({
      status: 'succeeded',
      startedAt: '2026-03-01T09:00:01.000Z',
      finishedAt: '2026-03-01T09:00:02.000Z',
      resultFile: 'out/job-1.csv',
    });
    expect(store.jobs.listActive()).toEqual([]);
  });

  it('fails to update an unknown job', async () => {
    const store = await stores.open();
    await expect(store.jobs.update('nope', { status: 'failed' })).rejects.toBeInstanceOf(StoreNotFoundError);
  });

  it('drops the oldest finished jobs beyond the limit but never an active one', async () => {
    const store = await stores.open({ limits: { finishedJobs: 2 } });
    await store.jobs.create({ ...job, id: 'active' });
    for (const id of ['a', 'b', 'c']) {
      await store.jobs.create({ ...job, id });
      await store.jobs.update(id, { status: 'failed', error: { code: 'X', message: 'boom' } });
    }
    expect(store.jobs.list().map((j) => j.id)).toEqual(['active', 'b', 'c']);
  });

  it('copies the request, so later changes by the caller do not leak in', async () => {
    const store = await stores.open();
    const request = { metrics: ['installs'] };
    await store.jobs.create({ ...job, request });
    request.metrics.push('clicks');
    expect(store.jobs.get('job-1')?.request).toEqual({ metrics: ['installs'] });
  });

  it('returns frozen records', async () => {
    const store = await stores.open();
    const created = await store.jobs.create(job);
    expect(Object.isFrozen(created)).toBe(true);
    expect(Object.isFrozen(created.request)).toBe(true);
  });

  it('rejects a record that would not load back, changing nothing', async () => {
    const store = await stores.open();
    await expect(store.jobs.create({ ...job, threadTs: '1700000000.1e5' })).rejects.toBeInstanceOf(
      StoreInvalidRecordError,
    );
    await expect(store.jobs.create({ ...job, channel: '' })).rejects.toThrow(/channel/);
    expect(store.jobs.list()).toEqual([]);
  });

  it('refuses writes after close', async () => {
    const store = await stores.open();
    await store.close();
    await expect(store.jobs.create(job)).rejects.toBeInstanceOf(StoreClosedError);
    await expect(store.subscriptions.add({ report: 'r', channel: 'C', createdBy: 'U' })).rejects.toBeInstanceOf(
      StoreClosedError,
    );
  });
});

describe.each(STORE_KINDS)('subscriptions repository (%s store)', (kind) => {
  const stores = useStores(kind);

  const sub = { report: 'daily', channel: 'C1', createdBy: 'U1' };

  it('adds a subscription and finds it by report, channel and id', async () => {
    const store = await stores.open({ clock: steppingClock() });
    const { subscription, created } = await store.subscriptions.add(sub);
    expect(created).toBe(true);
    expect(subscription).toMatchObject({ ...sub, createdAt: '2026-03-01T09:00:00.000Z' });
    expect(subscription.id).toMatch(/^sub_[0-9a-f]{16}$/);
    expect(store.subscriptions.get(subscription.id)).toBe(subscription);
    expect(store.subscriptions.find('daily', 'C1')).toBe(subscription);
    expect(store.subscriptions.listByReport('daily')).toEqual([subscription]);
    expect(store.subscriptions.listByChannel('C1')).toEqual([subscription]);
    expect(store.subscriptions.listByChannel('C2')).toEqual([]);
  });

  it('keeps one subscription per report and channel, updating the schedule override', async () => {
    const store = await stores.open({ clock: steppingClock() });
    const first = await store.subscriptions.add(sub);
    const again = await store.subscriptions.add(sub);
    expect(again).toEqual({ subscription: first.subscription, created: false });
    const changed = await store.subscriptions.add({ ...sub, schedule: '0 8 * * 1-5', createdBy: 'U2' });
    expect(changed.created).toBe(false);
    expect(changed.subscription).toMatchObject({
      id: first.subscription.id,
      schedule: '0 8 * * 1-5',
      createdBy: 'U1',
      createdAt: first.subscription.createdAt,
    });
    expect(store.subscriptions.list()).toHaveLength(1);
    const cleared = await store.subscriptions.add(sub);
    expect(cleared.subscription.schedule).toBeUndefined();
  });

  it('removes a subscription and says so; removing twice is a no-op', async () => {
    const store = await stores.open();
    await store.subscriptions.add(sub);
    await store.subscriptions.add({ ...sub, channel: 'C2' });
    expect((await store.subscriptions.remove('daily', 'C1'))?.channel).toBe('C1');
    expect(await store.subscriptions.remove('daily', 'C1')).toBeUndefined();
    expect(store.subscriptions.list().map((s) => s.channel)).toEqual(['C2']);
  });
});
