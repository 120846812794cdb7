/**
 * A replica whose heartbeat cannot be written (its database is away) stops the work it holds
 * before the others may take it over: `lapsed()` aborts after two thirds of a lease without a
 * written heartbeat, and a fresh signal follows once the heartbeat is written again.
 */
import type pg from 'pg';
import { silentLogger } from '../../../src/core/index.js';
import { startReplicaLeases } from '../../../src/store/postgres/replicaLeases.js';

const LEASE_MS = 300;

/** A pool whose queries succeed while `up` is true, else fail as a stopped server's do. */
function fakePool() {
  const state = { up: true };
  const pool = {
    query: async () => {
      if (!state.up) throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
      return { rows: [], rowCount: 0 };
    },
  } as unknown as pg.Pool;
  return { pool, state };
}

const waitFor = async (test: () => boolean, ms: number) => {
  const until = Date.now() + ms;
  while (!test() && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
  return test();
};

describe('replica leases: a lapsed heartbeat', () => {
  it('aborts the held work once the heartbeat is two thirds of a lease old, and gives a new signal after it is written again', async () => {
    const { pool, state } = fakePool();
    const leases = await startReplicaLeases(pool, {
      owner: 'r1',
      leaseMs: LEASE_MS,
      logger: silentLogger(),
      location: 'test',
    });
    try {
      const first = leases.lapsed();
      // Written on time: never aborted.
      await new Promise((r) => setTimeout(r, LEASE_MS * 2));
      expect(first.aborted).toBe(false);

      state.up = false;
      expect(await waitFor(() => first.aborted, LEASE_MS * 5)).toBe(true);
      expect(leases.lapsed().aborted).toBe(true);

      state.up = true;
      expect(await leases.heartbeat()).toBe(true);
      expect(leases.lapsed().aborted).toBe(false);
      expect(first.aborted).toBe(true);
    } finally {
      await leases.close();
    }
  });
});
