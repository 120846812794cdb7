import { decodeStoreText, emptyStoreData, StoreInvalidRecordError } from '../../../src/store/index.js';
import { stopTestPostgres } from '../../support/postgres.js';
import { STORE_KINDS, useStores } from '../../support/storeFactories.js';

afterAll(stopTestPostgres);

const clock = () => new Date('2026-03-01T09:00:00Z');
const sub = { report: 'daily', channel: 'C1', createdBy: 'U1' };

describe.each(STORE_KINDS)('a subscription with its own schedule (%s store)', (kind) => {
  const stores = useStores(kind);

  it('keeps its own at, cron and zone', async () => {
    const store = await stores.open({ clock });
    const { subscription } = await store.subscriptions.add({ ...sub, at: '08:30', timezone: 'Asia/Kolkata' });
    expect(subscription).toMatchObject({ at: '08:30', timezone: 'Asia/Kolkata' });
    expect(subscription).not.toHaveProperty('cron');
  });

  it('replaces the whole timing when subscribed again, and is a no-op when nothing changes', async () => {
    const store = await stores.open({ clock });
    const first = await store.subscriptions.add({ ...sub, at: '08:30', timezone: 'Asia/Kolkata' });
    const same = await store.subscriptions.add({ ...sub, at: '08:30', timezone: 'Asia/Kolkata' });
    expect(same).toEqual({ subscription: first.subscription, created: false });
    const changed = await store.subscriptions.add({ ...sub, cron: '0 9 * * 1-5' });
    expect(changed.created).toBe(false);
    expect(changed.subscription.id).toBe(first.subscription.id);
    expect(changed.subscription.cron).toBe('0 9 * * 1-5');
    expect(changed.subscription).not.toHaveProperty('at');
    expect(changed.subscription).not.toHaveProperty('timezone');
  });

  it('refuses an at that is not HH:MM', async () => {
    const store = await stores.open({ clock });
    await expect(store.subscriptions.add({ ...sub, at: '9am' })).rejects.toBeInstanceOf(StoreInvalidRecordError);
  });
});

describe('the store file format', () => {
  it('loads a file written before these fields existed, with the older schedule field', () => {
    const data = emptyStoreData();
    const old = {
      ...data,
      subscriptions: [
        {
          id: 'sub_1',
          report: 'daily',
          channel: 'C1',
          schedule: '0 9 * * *',
          createdBy: 'U1',
          createdAt: '2026-01-01T00:00:00.000Z',
          updatedAt: '2026-01-01T00:00:00.000Z',
        },
      ],
    };
    const decoded = decodeStoreText(JSON.stringify(old), 'old.json');
    expect(decoded.data.subscriptions[0]).toMatchObject({ schedule: '0 9 * * *' });
  });
});
