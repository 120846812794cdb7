import { createMemoryStore, type Store, storeHealth } from '../../../src/store/index.js';

describe('storeHealth', () => {
  it('names the memory and file stores without probing anything', async () => {
    expect(await storeHealth(createMemoryStore())).toEqual({ kind: 'memory' });
    expect(await storeHealth({ ...createMemoryStore(), location: '/data/pivotbot.json' })).toEqual({ kind: 'file' });
  });

  it("reports a PostgreSQL store's reachability and schema version, never its URL", async () => {
    const base = createMemoryStore();
    const up = {
      ...base,
      location: 'postgres://bot:***@db/pivotbot',
      health: async () => ({ reachable: true, schemaVersion: 1 }),
    };
    expect(await storeHealth(up as Store)).toEqual({ kind: 'postgres', reachable: true, schemaVersion: 1 });
    const down = {
      ...up,
      health: async () => ({ reachable: false, error: 'postgres://bot:***@db/pivotbot is unavailable' }),
    };
    expect(await storeHealth(down as Store)).toEqual({ kind: 'postgres', reachable: false });
  });
});
