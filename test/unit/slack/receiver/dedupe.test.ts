import { RecentKeys, type SharedKeys } from '../../../../src/slack/receiver/dedupe.js';

/** Keys shared by "replicas" as the database would: first caller within the TTL wins. */
function sharedKeys(now: () => number): SharedKeys & { calls: number } {
  const until = new Map<string, number>();
  const shared = {
    calls: 0,
    async firstSeen(key: string, ttlMs: number) {
      shared.calls++;
      const expires = until.get(key);
      if (expires !== undefined && expires > now()) return false;
      until.set(key, now() + ttlMs);
      return true;
    },
  };
  return shared;
}

describe('RecentKeys', () => {
  it('recognises a repeat within the TTL in one process, and forgets it after', () => {
    let now = 0;
    const keys = new RecentKeys(1_000, 100, () => now);
    expect(keys.checkAndRemember('cmd:t1')).toBe(false);
    expect(keys.checkAndRemember('cmd:t1')).toBe(true);
    now = 1_000;
    expect(keys.checkAndRemember('cmd:t1')).toBe(false);
  });

  it('with shared keys, recognises a repeat first delivered to another replica', async () => {
    let now = 0;
    const shared = sharedKeys(() => now);
    const [a, b] = [new RecentKeys(1_000, 100, () => now, shared), new RecentKeys(1_000, 100, () => now, shared)];
    expect(await a.seenBefore('cmd:t1')).toBe(false);
    expect(await b.seenBefore('cmd:t1')).toBe(true);
    // A repeat to the same replica is answered from memory, without the database.
    const calls = shared.calls;
    expect(await a.seenBefore('cmd:t1')).toBe(true);
    expect(shared.calls).toBe(calls);
    now = 1_000;
    expect(await b.seenBefore('cmd:t1')).toBe(false);
  });

  it('handles the request when the database does not answer (the run claim still decides)', async () => {
    const down: SharedKeys = { firstSeen: () => Promise.reject(new Error('STORE_UNAVAILABLE')) };
    const keys = new RecentKeys(1_000, 100, () => 0, down);
    expect(await keys.seenBefore('cmd:t2')).toBe(false);
    expect(await keys.seenBefore('cmd:t2')).toBe(true);
  });
});
