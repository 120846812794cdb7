import {
  decodeStoreText,
  emptyStoreData,
  StoreInvalidRecordError,
  StoreNotFoundError,
} from '../../../src/store/index.js';
import { stopTestPostgres } from '../../support/postgres.js';
import { STORE_KINDS, useStores } from '../../support/storeFactories.js';

afterAll(stopTestPostgres);

const manual = {
  report: 'site-bundle-quality',
  trigger: 'manual' as const,
  idempotencyKey: 'slack:trigger-1',
  channel: 'C0GENERAL1',
  requester: 'U0ALICE',
  command: 'run site-bundle-quality',
};

describe.each(STORE_KINDS)('a manual run and the async job it becomes (%s store)', (kind) => {
  const stores = useStores(kind);

  it('keeps who asked and the command text, so a restart can tell them how to run it again', async () => {
    const store = await stores.open();
    const { run } = await store.runs.start(manual);
    expect(store.runs.get(run.id)).toMatchObject({ requester: 'U0ALICE', command: 'run site-bundle-quality' });
  });

  it('links a running run to its job and lists the unfinished runs of that job only', async () => {
    const store = await stores.open();
    const { run: a } = await store.runs.start(manual);
    const { run: b } = await store.runs.start({ ...manual, idempotencyKey: 'slack:trigger-2' });
    const linked = await store.runs.linkJob(a.id, 'job-1');
    expect(linked).toMatchObject({ id: a.id, jobId: 'job-1', status: 'running' });
    expect(store.runs.listUnfinishedByJob('job-1').map((r) => r.id)).toEqual([a.id]);
    expect(store.runs.listUnfinishedByJob('job-2')).toEqual([]);
    await store.runs.finish(a.id, { status: 'succeeded', messageTs: '1700000000.000100' });
    expect(store.runs.listUnfinishedByJob('job-1')).toEqual([]);
    expect(store.runs.get(a.id)?.jobId).toBe('job-1');
    expect(store.runs.get(b.id)?.jobId).toBeUndefined();
  });

  it('refuses to link an unknown run or an empty job id', async () => {
    const store = await stores.open();
    await expect(store.runs.linkJob('run_missing', 'job-1')).rejects.toBeInstanceOf(StoreNotFoundError);
    const { run } = await store.runs.start(manual);
    await expect(store.runs.linkJob(run.id, '')).rejects.toBeInstanceOf(StoreInvalidRecordError);
  });
});

describe('the store file format', () => {
  it('loads a file written before runs had a requester, command or job', () => {
    const at = '2026-03-01T09:00:00.000Z';
    const old = {
      ...emptyStoreData(),
      runs: [
        {
          id: 'run_1',
          report: 'daily',
          trigger: 'manual',
          idempotencyKey: 'k',
          attempt: 1,
          status: 'running',
          startedAt: at,
        },
      ],
    };
    const { data } = decodeStoreText(JSON.stringify(old), 'old.json');
    expect(data.runs[0]).toMatchObject({ id: 'run_1', status: 'running' });
    expect(data.runs[0]?.jobId).toBeUndefined();
  });
});
