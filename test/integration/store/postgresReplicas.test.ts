/**
 * Several PostgreSQL stores on one database, as several replicas would hold them: claims are
 * decided by the database (exactly one winner however the calls interleave), and a change made
 * through one store reaches the others' in-memory mirrors.
 */
import pg from 'pg';
import { silentLogger } from '../../../src/core/index.js';
import { StoreConflictError, StoreLockedError, StoreTooNewError } from '../../../src/store/index.js';
import {
  openPostgresStore,
  type PostgresStore,
  type PostgresStoreOptions,
  StoreUnavailableError,
} from '../../../src/store/postgres/index.js';
import { freshDatabase, stopTestPostgres } from '../../support/postgres.js';

afterAll(stopTestPostgres);

const opened: PostgresStore[] = [];
afterEach(async () => {
  for (const store of opened.splice(0)) await store.close().catch(() => undefined);
});

async function open(url: string, options: Partial<PostgresStoreOptions> = {}): Promise<PostgresStore> {
  const store = await openPostgresStore({ url, logger: silentLogger(), refreshIntervalMs: 0, ...options });
  opened.push(store);
  return store;
}

/** Polls `check` until it holds; fails after `timeoutMs` (notifications arrive in milliseconds). */
async function eventually(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function sql<T extends pg.QueryResultRow>(url: string, text: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text, params)).rows;
  } finally {
    await client.end();
  }
}

const run = (key: string) => ({ report: 'daily', trigger: 'schedule' as const, idempotencyKey: key, channel: 'C1' });

describe('claims between two stores on one database', () => {
  let url: string;
  beforeAll(async () => {
    url = await freshDatabase('pivotbot_replicas');
  });
  beforeEach(async () => {
    await sql(url, 'DROP SCHEMA public CASCADE; CREATE SCHEMA public;');
  });

  it('starts each run key exactly once when both replicas start it at the same moment', async () => {
    const [a, b] = await Promise.all([open(url), open(url)]);
    const keys = Array.from(
      { length: 25 },
      (_, i) => `digest:daily:C1:2026-03-01T09:${String(i).padStart(2, '0')}:00Z`,
    );
    const results = await Promise.all(keys.flatMap((key) => [a.runs.start(run(key)), b.runs.start(run(key))]));
    for (let i = 0; i < keys.length; i++) {
      const pair = [results[2 * i], results[2 * i + 1]];
      expect(pair.filter((r) => r?.started)).toHaveLength(1);
      // The loser is handed the winner's run.
      expect(pair[0]?.run.id).toBe(pair[1]?.run.id);
    }
    const rows = await sql<{ n: string }>(url, 'SELECT count(*) AS n FROM pivotbot_runs');
    expect(Number(rows[0]?.n)).toBe(keys.length);
  });

  it('lets exactly one replica retry a failed key, even when its mirror has not heard of the failure', async () => {
    const a = await open(url);
    const b = await open(url);
    const first = await a.runs.start(run('k'));
    await eventually(() => b.runs.get(first.run.id) !== undefined);
    await a.runs.finish(first.run.id, { status: 'failed', error: { code: 'X', message: 'boom' } });
    // b decides on the database's rows, not on a mirror that may still say "running".
    const [ra, rb] = await Promise.all([a.runs.start(run('k')), b.runs.start(run('k'))]);
    expect([ra.started, rb.started].filter(Boolean)).toHaveLength(1);
    expect(ra.run.id).toBe(rb.run.id);
    expect(ra.run.attempt).toBe(2);
  });

  it('opens one incident, one subscription and one job however the two replicas race', async () => {
    const [a, b] = await Promise.all([open(url), open(url)]);
    const incident = { ruleId: 'cpi', entityKey: 'country=BR', channel: 'C9', value: 4 };
    const opens = await Promise.all([a.incidents.open(incident), b.incidents.open(incident)]);
    expect(opens.filter((o) => o.opened)).toHaveLength(1);
    expect(opens[0].incident.id).toBe(opens[1].incident.id);

    const sub = { report: 'daily', channel: 'C1', createdBy: 'U1' };
    const adds = await Promise.all([a.subscriptions.add(sub), b.subscriptions.add(sub)]);
    expect(adds.filter((s) => s.created)).toHaveLength(1);
    expect(adds[0].subscription.id).toBe(adds[1].subscription.id);

    const job = { id: 'job-1', request: {}, requester: 'U1', channel: 'C1' };
    const creates = await Promise.allSettled([a.jobs.create(job), b.jobs.create(job)]);
    expect(creates.filter((c) => c.status === 'fulfilled')).toHaveLength(1);
    const refused = creates.find((c) => c.status === 'rejected');
    expect((refused as PromiseRejectedResult).reason).toBeInstanceOf(StoreConflictError);

    const counts = await sql<{ incidents: string; subscriptions: string; jobs: string }>(
      url,
      `SELECT (SELECT count(*) FROM pivotbot_incidents) AS incidents,
              (SELECT count(*) FROM pivotbot_subscriptions) AS subscriptions,
              (SELECT count(*) FROM pivotbot_jobs) AS jobs`,
    );
    expect(counts[0]).toEqual({ incidents: '1', subscriptions: '1', jobs: '1' });
  });

  it('does not take a subscription for present when another replica removed it', async () => {
    const a = await open(url);
    const b = await open(url);
    const sub = { report: 'daily', channel: 'C1', createdBy: 'U1' };
    await a.subscriptions.add(sub);
    await eventually(() => b.subscriptions.find('daily', 'C1') !== undefined);
    await a.subscriptions.remove('daily', 'C1');
    // Whether or not b has heard of the removal, subscribing again must write a new row.
    const again = await b.subscriptions.add(sub);
    expect(again.created).toBe(true);
    const rows = await sql(url, 'SELECT key FROM pivotbot_subscriptions');
    expect(rows).toEqual([{ key: again.subscription.id }]);
  });
});

describe("one replica's changes in another's mirror", () => {
  let url: string;
  beforeAll(async () => {
    url = await freshDatabase('pivotbot_mirror');
  });

  it('sees inserts, updates and deletes made by the other store', async () => {
    const a = await open(url);
    const b = await open(url);
    const { subscription } = await a.subscriptions.add({ report: 'daily', channel: 'C7', createdBy: 'U1' });
    await eventually(() => b.subscriptions.get(subscription.id) !== undefined);
    expect(b.subscriptions.get(subscription.id)).toEqual(subscription);

    const { run: started } = await a.runs.start(run('mirror-1'));
    await a.runs.finish(started.id, { status: 'succeeded', messageTs: '1700000000.000100' });
    await eventually(() => b.runs.get(started.id)?.status === 'succeeded');
    expect(b.runs.findByIdempotencyKey('mirror-1')?.messageTs).toBe('1700000000.000100');

    await a.subscriptions.remove('daily', 'C7');
    await eventually(() => b.subscriptions.get(subscription.id) === undefined);
    expect(b.subscriptions.listByChannel('C7')).toEqual([]);
  });

  it('misses nothing written while it was opening', async () => {
    const a = await open(url);
    const writes = (async () => {
      for (let i = 0; i < 150; i++) await a.schedules.setLastFire(`busy-${i}`, '2026-03-01T09:00:00.000Z');
    })();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const b = await open(url);
    await writes;
    await eventually(() => b.schedules.list().filter((s) => s.scheduleId.startsWith('busy-')).length === 150);
  });

  it('catches up by the periodic reload when a change was never announced', async () => {
    const b = await open(url, { refreshIntervalMs: 50 });
    const a = await open(url);
    await sql(url, 'ALTER TABLE pivotbot_schedules DISABLE TRIGGER pivotbot_schedules_changed');
    try {
      await a.schedules.setLastFire('silent', '2026-03-01T09:00:00.000Z');
      await eventually(() => b.schedules.getLastFire('silent') === '2026-03-01T09:00:00.000Z');
    } finally {
      await sql(url, 'ALTER TABLE pivotbot_schedules ENABLE TRIGGER pivotbot_schedules_changed');
    }
  });
});

describe('opening the database', () => {
  it('migrates once when several stores open a new database together', async () => {
    const url = await freshDatabase('pivotbot_migrate');
    await Promise.all([open(url), open(url), open(url)]);
    const versions = await sql<{ version: number }>(url, 'SELECT version FROM pivotbot_schema_version');
    expect(versions).toEqual([{ version: 1 }, { version: 2 }]);
  });

  it('refuses a database migrated by a newer pivotbot, and changes nothing', async () => {
    const url = await freshDatabase('pivotbot_newer');
    await (await open(url)).close();
    await sql(url, 'INSERT INTO pivotbot_schema_version (version) VALUES (7)');
    await expect(open(url)).rejects.toBeInstanceOf(StoreTooNewError);
    const versions = await sql<{ version: number }>(url, 'SELECT version FROM pivotbot_schema_version ORDER BY 1');
    expect(versions.map((v) => v.version)).toEqual([1, 2, 7]);
  });

  it('lets only one exclusive store hold the database, until it closes', async () => {
    const url = await freshDatabase('pivotbot_exclusive');
    const first = await open(url, { exclusive: true });
    const second = open(url, { exclusive: true });
    await expect(second).rejects.toBeInstanceOf(StoreLockedError);
    await expect(second).rejects.toThrow(/holds the store database .* exclusively/);
    await first.close();
    await expect(open(url, { exclusive: true })).resolves.toBeDefined();
  });

  it('says the database is unavailable without showing the password', async () => {
    const url = 'postgres://bot:s3cret-pw@127.0.0.1:1/pivotbot';
    const failure = await open(url, { pool: { connectionTimeoutMillis: 2000 } }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(StoreUnavailableError);
    expect((failure as Error).message).toContain('postgres://bot:***@127.0.0.1:1/pivotbot');
    expect((failure as Error).message).not.toContain('s3cret-pw');
  });

  it('fails a write clearly while the database refuses connections, then works again', async () => {
    const url = await freshDatabase('pivotbot_outage');
    const name = new URL(url).pathname.slice(1);
    const admin = new URL(url);
    admin.pathname = '/postgres';
    const store = await open(url);
    await sql(admin.toString(), `ALTER DATABASE ${name} WITH ALLOW_CONNECTIONS false`);
    await sql(admin.toString(), 'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [name]);
    try {
      const failure = await store.runs.start(run('during-outage')).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(StoreUnavailableError);
      expect((failure as StoreUnavailableError).retryable).toBe(true);
      expect(store.runs.findByIdempotencyKey('during-outage')).toBeUndefined();
      expect((await store.health()).reachable).toBe(false);
    } finally {
      await sql(admin.toString(), `ALTER DATABASE ${name} WITH ALLOW_CONNECTIONS true`);
    }
    expect((await store.runs.start(run('during-outage'))).started).toBe(true);
    expect(await store.health()).toEqual({ reachable: true, schemaVersion: 2 });
  });
});
