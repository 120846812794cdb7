import { StoreInvalidRecordError, StoreNotFoundError } from '../../../src/store/index.js';
import { stopTestPostgres } from '../../support/postgres.js';
import { STORE_KINDS, useStores } from '../../support/storeFactories.js';

afterAll(stopTestPostgres);

function manualClock(start = '2026-03-01T09:00:00.000Z') {
  let t = Date.parse(start);
  return {
    now: () => new Date(t),
    advance(ms: number) {
      t += ms;
    },
  };
}

describe.each(STORE_KINDS)('runs repository (%s store)', (kind) => {
  const stores = useStores(kind);

  const run = {
    report: 'daily',
    trigger: 'schedule' as const,
    idempotencyKey: 'daily@2026-03-01T09:00Z',
    scheduledFor: '2026-03-01T09:00:00.000Z',
    channel: 'C1',
  };

  it('starts a run and records its outcome, finish time and duration', async () => {
    const clock = manualClock();
    const store = await stores.open({ clock: clock.now });
    const { run: started, started: isNew } = await store.runs.start(run);
    expect(isNew).toBe(true);
    expect(started).toMatchObject({ ...run, status: 'running', attempt: 1, startedAt: '2026-03-01T09:00:00.000Z' });
    clock.advance(1500);
    const done = await store.runs.finish(started.id, { status: 'succeeded', messageTs: '1700000000.000100' });
    expect(done).toMatchObject({
      status: 'succeeded',
      finishedAt: '2026-03-01T09:00:01.500Z',
      durationMs: 1500,
      messageTs: '1700000000.000100',
    });
    expect(store.runs.get(started.id)).toEqual(done);
  });

  it('does not start a second run for a key that is running or succeeded', async () => {
    const store = await stores.open();
    const first = await store.runs.start(run);
    const again = await store.runs.start(run);
    expect(again).toEqual({ run: first.run, started: false });
    await store.runs.finish(first.run.id, { status: 'succeeded' });
    expect((await store.runs.start(run)).started).toBe(false);
    expect(store.runs.listByReport('daily')).toHaveLength(1);
  });

  it('starts a new attempt when the last run of the key failed', async () => {
    const store = await stores.open();
    const first = await store.runs.start(run);
    await store.runs.finish(first.run.id, { status: 'failed', error: { code: 'REPORTING_HTTP', message: '503' } });
    const retry = await store.runs.start(run);
    expect(retry.started).toBe(true);
    expect(retry.run.attempt).toBe(2);
    expect(store.runs.findByIdempotencyKey(run.idempotencyKey)?.id).toBe(retry.run.id);
    expect(store.runs.get(first.run.id)?.error).toEqual({ code: 'REPORTING_HTTP', message: '503' });
  });

  it('lists a report newest first, with a limit, and lists unfinished runs', async () => {
    const store = await stores.open();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await store.runs.start({ ...run, idempotencyKey: `k${i}` })).run.id);
    await store.runs.start({ ...run, report: 'weekly', idempotencyKey: 'w' });
    expect(store.runs.listByReport('daily').map((r) => r.id)).toEqual([...ids].reverse());
    expect(store.runs.listByReport('daily', 2).map((r) => r.id)).toEqual([ids[2], ids[1]]);
    await store.runs.finish(ids[0] as string, { status: 'skipped' });
    expect(store.runs.listUnfinished()).toHaveLength(3);
  });

  it('keeps a bounded history of finished runs per report, never dropping running ones', async () => {
    const store = await stores.open({ limits: { runsPerReport: 3 } });
    const running = await store.runs.start({ ...run, idempotencyKey: 'still-running' });
    for (let i = 0; i < 5; i++) {
      const { run: r } = await store.runs.start({ ...run, idempotencyKey: `k${i}` });
      await store.runs.finish(r.id, { status: 'succeeded' });
    }
    const other = await store.runs.start({ ...run, report: 'weekly', idempotencyKey: 'w' });
    await store.runs.finish(other.run.id, { status: 'succeeded' });
    const kept = store.runs.listByReport('daily').map((r) => r.idempotencyKey);
    expect(kept).toEqual(['k4', 'k3', 'k2', 'still-running']);
    expect(store.runs.get(running.run.id)).toBeDefined();
    expect(store.runs.listByReport('weekly')).toHaveLength(1);
  });

  it('refuses to finish an unknown run, or with a message ts that is not a string ts', async () => {
    const store = await stores.open();
    await expect(store.runs.finish('run_x', { status: 'succeeded' })).rejects.toBeInstanceOf(StoreNotFoundError);
    const { run: r } = await store.runs.start(run);
    await expect(store.runs.finish(r.id, { status: 'succeeded', messageTs: '1.7e9' })).rejects.toBeInstanceOf(
      StoreInvalidRecordError,
    );
    expect(store.runs.get(r.id)?.status).toBe('running');
  });
});

describe.each(STORE_KINDS)('incidents repository (%s store)', (kind) => {
  const stores = useStores(kind);

  const incident = { ruleId: 'cpi-spike', entityKey: 'campaign=7|country=BR', channel: 'C9', value: 4.2 };

  it('opens one incident per rule and entity', async () => {
    const clock = manualClock();
    const store = await stores.open({ clock: clock.now });
    const opened = await store.incidents.open(incident);
    expect(opened.opened).toBe(true);
    expect(opened.incident).toMatchObject({
      ruleId: 'cpi-spike',
      state: 'open',
      values: [{ at: '2026-03-01T09:00:00.000Z', value: 4.2 }],
    });
    expect(await store.incidents.open({ ...incident, value: 5 })).toEqual({ incident: opened.incident, opened: false });
    expect((await store.incidents.open({ ...incident, entityKey: 'campaign=8' })).opened).toBe(true);
    expect(store.incidents.findOpen('cpi-spike', incident.entityKey)).toBe(opened.incident);
    expect(store.incidents.listOpen()).toHaveLength(2);
  });

  it('records the thread, appends bounded observations, and resolves', async () => {
    const clock = manualClock();
    const store = await stores.open({ clock: clock.now, limits: { valuesPerIncident: 3 } });
    const { incident: inc } = await store.incidents.open(incident);
    await store.incidents.update(inc.id, { threadTs: '1700000000.000200' });
    for (const value of [5, 6, 7]) {
      clock.advance(60_000);
      await store.incidents.update(inc.id, { value });
    }
    clock.advance(60_000);
    const resolved = await store.incidents.update(inc.id, { state: 'resolved', value: 1 });
    expect(resolved).toMatchObject({
      state: 'resolved',
      threadTs: '1700000000.000200',
      resolvedAt: '2026-03-01T09:04:00.000Z',
    });
    expect(resolved.values.map((v) => v.value)).toEqual([6, 7, 1]);
    expect(store.incidents.findOpen(incident.ruleId, incident.entityKey)).toBeUndefined();
    expect((await store.incidents.open(incident)).opened).toBe(true);
    expect(store.incidents.listByRule('cpi-spike').map((i) => i.state)).toEqual(['open', 'resolved']);
  });

  it('keeps a bounded number of resolved incidents per rule', async () => {
    const store = await stores.open({ limits: { resolvedIncidentsPerRule: 2 } });
    for (let i = 0; i < 4; i++) {
      const { incident: inc } = await store.incidents.open({ ...incident, entityKey: `e${i}` });
      await store.incidents.update(inc.id, { state: 'resolved' });
    }
    await store.incidents.open({ ...incident, entityKey: 'open-one' });
    expect(store.incidents.listByRule('cpi-spike').map((i) => i.entityKey)).toEqual(['open-one', 'e3', 'e2']);
  });

  it('rejects a value that is not a finite number', async () => {
    const store = await stores.open();
    await expect(store.incidents.open({ ...incident, value: Number.NaN })).rejects.toBeInstanceOf(
      StoreInvalidRecordError,
    );
    expect(store.incidents.listOpen()).toEqual([]);
  });
});

describe.each(STORE_KINDS)('schedules repository (%s store)', (kind) => {
  const stores = useStores(kind);

  it('remembers the last fire per schedule and forgets removed schedules', async () => {
    const store = await stores.open();
    expect(store.schedules.getLastFire('daily')).toBeUndefined();
    await store.schedules.setLastFire('daily', '2026-03-01T09:00:00.000Z');
    await store.schedules.setLastFire('daily', '2026-03-02T09:00:00.000Z');
    await store.schedules.setLastFire('weekly', '2026-03-02T08:00:00+01:00');
    expect(store.schedules.getLastFire('daily')).toBe('2026-03-02T09:00:00.000Z');
    expect(store.schedules.list()).toHaveLength(2);
    expect(await store.schedules.remove('daily')).toBe(true);
    expect(await store.schedules.remove('daily')).toBe(false);
    expect(store.schedules.getLastFire('daily')).toBeUndefined();
  });

  it('rejects a time that is not an ISO timestamp', async () => {
    const store = await stores.open();
    await expect(store.schedules.setLastFire('daily', 'yesterday')).rejects.toBeInstanceOf(StoreInvalidRecordError);
  });
});
