/**
 * The leases behind replicas, on a real PostgreSQL: a live replica's runs and jobs are never
 * orphans; a replica that stops (closed, or silent past its lease) leaves orphans that exactly one
 * other replica adopts; and a claim whose lease was never written counts once a lease old.
 */
import { silentLogger } from '../../../src/core/index.js';
import { isReplicaStore, openPostgresStore, type PostgresStore, type ReplicaStore } from '../../../src/store/index.js';
import { freshDatabase, stopTestPostgres } from '../../support/postgres.js';
import { eventually, sleep, sql } from './replicaHarness.js';

afterAll(stopTestPostgres);

const LEASE_MS = 400;
const opened: PostgresStore[] = [];
afterEach(async () => {
  for (const store of opened.splice(0)) await store.close().catch(() => undefined);
});

async function replica(url: string, leaseMs = LEASE_MS): Promise<PostgresStore & ReplicaStore> {
  const store = await openPostgresStore({
    url,
    logger: silentLogger(),
    refreshIntervalMs: 0,
    replica: { leaseMs },
  });
  opened.push(store);
  if (!isReplicaStore(store)) throw new Error('a replica store has leases and a queue');
  return store;
}

const slotRun = (key: string) => ({
  report: 'daily',
  trigger: 'schedule' as const,
  idempotencyKey: key,
  channel: 'C1',
});

describe('replica leases', () => {
  it('never offers a live replica’s run, and offers a closed replica’s run to exactly one adopter', async () => {
    const url = await freshDatabase('pivotbot_leases');
    const [a, b, c] = [await replica(url), await replica(url), await replica(url)];
    const { run } = await a.runs.start(slotRun('digest:daily:C1:2026-11-23T09:00:00.000Z'));
    await sleep(LEASE_MS * 2);
    // Its heartbeat keeps it alive past several leases.
    expect(await b.leases.orphans('run')).toEqual([]);
    expect(await b.leases.adopt('run', run.id)).toBe(false);

    await a.close();
    expect(await b.leases.orphans('run')).toEqual([run.id]);
    const adopted = await Promise.all([b.leases.adopt('run', run.id), c.leases.adopt('run', run.id)]);
    expect(adopted.filter(Boolean)).toHaveLength(1);
    // The adopter is alive: nobody else can take it now.
    expect(await c.leases.adopt('run', run.id)).toBe(false);
    expect(await b.leases.adopt('run', run.id)).toBe(false);
  });

  it('offers the work of a replica that stopped answering once its lease expired, and finished work never', async () => {
    const url = await freshDatabase('pivotbot_leases_silent');
    // a's heartbeat is due only in 10 s, so the expiry written below is not renewed under the test.
    const [a, b] = [await replica(url, 30_000), await replica(url)];
    const { run } = await a.runs.start(slotRun('digest:daily:C1:2026-11-23T10:00:00.000Z'));
    const { run: done } = await a.runs.start(slotRun('digest:daily:C1:2026-11-23T11:00:00.000Z'));
    await a.runs.finish(done.id, { status: 'succeeded' });
    // A silent replica: its heartbeat stops (as in a process frozen or cut off from the database).
    await sql(url, "UPDATE pivotbot_replicas SET expires_at = now() - interval '1 second' WHERE owner = $1", [
      a.leases.owner,
    ]);
    expect(await b.leases.orphans('run')).toEqual([run.id]);
    expect(await b.leases.adopt('run', run.id)).toBe(true);
  });

  it('counts a claim whose lease was never written as orphaned once it is a lease old', async () => {
    const url = await freshDatabase('pivotbot_leases_unwritten');
    const [a, b] = [await replica(url), await replica(url)];
    const { run } = await a.runs.start(slotRun('alert:daily:cpi:2026-11-23T12:00:00.000Z'));
    await sql(url, 'DELETE FROM pivotbot_leases');
    expect(await b.leases.orphans('run')).toEqual([]);
    await sleep(LEASE_MS + 200);
    expect(await b.leases.orphans('run')).toEqual([run.id]);
  });

  it('leases jobs too: released when the job finishes', async () => {
    const url = await freshDatabase('pivotbot_leases_jobs');
    const [a, b] = [await replica(url), await replica(url)];
    await a.jobs.create({ id: 'job-1', requester: 'U1', channel: 'C1', request: {} });
    await a.jobs.create({ id: 'job-2', requester: 'U1', channel: 'C1', request: {} });
    await a.jobs.update('job-2', { status: 'succeeded' });
    expect(await sql(url, 'SELECT key FROM pivotbot_leases ORDER BY key')).toEqual([{ key: 'job:job-1' }]);
    await a.close();
    expect(await b.leases.orphans('job')).toEqual(['job-1']);
  });
});

describe('Slack request keys shared by replicas', () => {
  it('answers true to the first replica only, and again once the TTL is over', async () => {
    const url = await freshDatabase('pivotbot_request_keys');
    const [a, b] = [await replica(url), await replica(url)];
    const first = await Promise.all([a.leases.firstSeen('cmd:T1', 300), b.leases.firstSeen('cmd:T1', 300)]);
    expect(first.filter(Boolean)).toHaveLength(1);
    expect(await a.leases.firstSeen('cmd:T1', 300)).toBe(false);
    await sleep(400);
    expect(await b.leases.firstSeen('cmd:T1', 300)).toBe(true);
  });

  it('runs exclusive work one replica at a time, and goes ahead past a holder that keeps the lock too long', async () => {
    const url = await freshDatabase('pivotbot_leases_exclusive');
    const [a, b] = [await replica(url, 30_000), await replica(url, 30_000)];
    const events: string[] = [];
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const held = a.leases.exclusive('pivotbot:alert:daily/high', 60_000, async () => {
      events.push('a starts');
      await gate;
      events.push('a ends');
    });
    await eventually(() => events.includes('a starts'), 30_000, 'a holding the lock');
    // b asks while a holds it: b's work waits until a's ends.
    const waiting = b.leases.exclusive('pivotbot:alert:daily/high', 60_000, async () => {
      events.push('b runs');
    });
    // b has asked (and been refused) at least once: its session's last statement is the try.
    const tries = () =>
      sql<{ n: number }>(
        url,
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE query LIKE 'SELECT pg_try_advisory_lock%' AND pid <> pg_backend_pid()",
      );
    let asked = false;
    await eventually(
      () => {
        void tries().then((rows) => {
          asked = (rows[0]?.n ?? 0) >= 2;
        });
        return asked;
      },
      30_000,
      'b asking for the lock a holds',
    );
    expect(events).toEqual(['a starts']);
    release();
    await Promise.all([held, waiting]);
    expect(events).toEqual(['a starts', 'a ends', 'b runs']);

    // A holder that keeps it past the wait (frozen): the other goes ahead, and then asks without waiting.
    let freeze: () => void = () => undefined;
    const frozen = new Promise<void>((resolve) => {
      freeze = resolve;
    });
    const stuck = a.leases.exclusive('pivotbot:alert:daily/high', 60_000, () => frozen);
    const ahead: string[] = [];
    await eventually(
      () => {
        void sql<{ n: number }>(
          url,
          "SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND granted",
        ).then((rows) => {
          if ((rows[0]?.n ?? 0) >= 1) ahead.push('locked');
        });
        return ahead.length > 0;
      },
      30_000,
      'a holding the lock again',
    );
    await b.leases.exclusive('pivotbot:alert:daily/high', 50, async () => {
      events.push('b went ahead');
    });
    // Given up: the next time b does not wait its 60 s, though a still holds the lock.
    await b.leases.exclusive('pivotbot:alert:daily/high', 60_000, async () => {
      events.push('b again');
    });
    expect(events.slice(-2)).toEqual(['b went ahead', 'b again']);
    freeze();
    await stuck;
  }, 120_000);
});
