/** `pivotbot migrate-store`: a populated JSON store file moved into PostgreSQL, twice, and what the bot then reads. */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { main } from '../../../src/cli/main.js';
import { silentLogger } from '../../../src/core/index.js';
import {
  type AlertIncident,
  decodeStoreText,
  isReplicaStore,
  openPostgresStore,
  openStore,
} from '../../../src/store/index.js';
import { TABLES } from '../../../src/store/postgres/postgresSchema.js';
import { freshDatabase, stopTestPostgres } from '../../support/postgres.js';
import { withTempDir } from '../../support/storeTestKit.js';

afterAll(stopTestPostgres);

const AT = '2026-03-01T09:00:00.000Z';

async function populate(path: string): Promise<void> {
  let t = Date.parse(AT);
  const clock = (): Date => {
    t += 1000;
    return new Date(t);
  };
  const store = await openStore({ path, logger: silentLogger(), clock });
  try {
    await store.subscriptions.add({ report: 'daily', channel: 'C1', createdBy: 'U1' });
    await store.subscriptions.add({
      report: 'weekly',
      channel: 'C2',
      createdBy: 'U2',
      at: '08:30',
      timezone: 'Europe/Berlin',
    });
    for (let i = 0; i < 5; i++) {
      const { run } = await store.runs.start({
        report: 'daily',
        trigger: 'schedule',
        idempotencyKey: `digest:daily:C1:${i}`,
      });
      if (i < 4)
        await store.runs.finish(run.id, { status: i === 2 ? 'failed' : 'succeeded', messageTs: '1700000000.000100' });
    }
    await store.jobs.create({ id: 'job-1', request: { metrics: ['installs'] }, requester: 'U1', channel: 'C1' });
    await store.jobs.update('job-1', { status: 'succeeded', resultFile: 'out/job-1.csv' });
    const { incident } = await store.incidents.open({
      ruleId: 'cpi',
      entityKey: 'country=BR',
      channel: 'C9',
      value: 4,
    });
    await store.incidents.update(incident.id, { value: 5, threadTs: '1700000000.000200' });
    const evaluated: AlertIncident = {
      ...incident,
      id: 'inc_0123456789abcdef0123',
      entityKey: 'country=US',
      reportId: 'daily',
    };
    await store.incidents.applyEvaluation({
      evaluation: {
        ruleKey: 'daily/cpi',
        reportId: 'daily',
        ruleId: 'cpi',
        lastEvaluatedAt: AT,
        evaluated: 10,
        breaching: 2,
        skipped: 0,
        pending: [{ entityKey: 'country=FR', streak: 1, since: AT, lastValue: 3 }],
      },
      incidents: [evaluated],
    });
    await store.schedules.setLastFire('daily', AT);
  } finally {
    await store.close();
  }
}

async function bodies(url: string): Promise<Record<string, unknown[]>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const out: Record<string, unknown[]> = {};
    for (const table of TABLES) {
      out[table.collection] = (await client.query(`SELECT body FROM ${table.table} ORDER BY seq`)).rows.map(
        (r) => r.body,
      );
    }
    return out;
  } finally {
    await client.end();
  }
}

async function cli(args: string[], env: NodeJS.ProcessEnv = {}) {
  let out = '';
  let err = '';
  const code = await main(['node', 'pivotbot', ...args], {
    out: (s) => {
      out += s;
    },
    err: (s) => {
      err += s;
    },
    env,
  });
  return { code, out, err };
}

describe('pivotbot migrate-store', () => {
  it('copies every record, verified by counts, and changes nothing when run again', async () => {
    await withTempDir(async (dir) => {
      const path = join(dir, 'pivotbot.json');
      await populate(path);
      const { data } = decodeStoreText(await readFile(path, 'utf8'), path);
      const url = await freshDatabase('pivotbot_migrate_store');

      const first = await cli(['migrate-store', '--from', path, '--to', url]);
      expect(first.err).toBe('');
      expect(first.code).toBe(0);
      expect(first.out).toMatch(/runs\s+5\s+5\s+5/);
      expect(first.out).toMatch(/incidents\s+2\s+2\s+2/);
      expect(first.out).toMatch(/alertEvaluations\s+1\s+1\s+1/);
      expect(first.out).toContain('Copied 12 record(s)');
      expect(first.out).not.toContain('pivotbot-test@');

      const copied = await bodies(url);
      for (const table of TABLES) expect(copied[table.collection]).toEqual(data[table.collection]);

      const second = await cli(['migrate-store', '--from', path], { PIVOTBOT_STORE: url });
      expect(second.code).toBe(0);
      expect(second.out).toMatch(/runs\s+5\s+0\s+5/);
      expect(second.out).toContain('Nothing to copy');
      expect(await bodies(url)).toEqual(copied);

      // What the bot reads from the database is what it read from the file.
      const file = await openStore({ path, logger: silentLogger() });
      const db = await openPostgresStore({ url, logger: silentLogger(), refreshIntervalMs: 0 });
      try {
        expect(db.runs.listByReport('daily')).toEqual(file.runs.listByReport('daily'));
        expect(db.subscriptions.list()).toEqual(file.subscriptions.list());
        expect(db.incidents.listOpen()).toEqual(file.incidents.listOpen());
        expect(db.incidents.getEvaluation('daily', 'cpi')).toEqual(file.incidents.getEvaluation('daily', 'cpi'));
        expect(db.jobs.get('job-1')).toEqual(file.jobs.get('job-1'));
        expect(db.schedules.getLastFire('daily')).toBe(AT);
        // A claim the file had decided is still decided.
        expect(
          (await db.runs.start({ report: 'daily', trigger: 'schedule', idempotencyKey: 'digest:daily:C1:0' })).started,
        ).toBe(false);
      } finally {
        await db.close();
        await file.close();
      }
    });
  });

  it('refuses a file a running pivotbot holds, a missing file and a target that is not PostgreSQL', async () => {
    await withTempDir(async (dir) => {
      const path = join(dir, 'pivotbot.json');
      await populate(path);
      const url = await freshDatabase('pivotbot_migrate_refused');
      await writeFile(`${path}.lock`, JSON.stringify({ pid: process.pid, hostname: 'here', startedAt: AT }));
      const locked = await cli(['migrate-store', '--from', path, '--to', url]);
      expect(locked.code).toBe(1);
      expect(locked.err).toMatch(/a pivotbot may still be using .*Stop it first/);

      const missing = await cli(['migrate-store', '--from', join(dir, 'nope.json'), '--to', url]);
      expect(missing.code).toBe(1);
      expect(missing.err).toMatch(/Cannot read the store file .*nope\.json/);

      // A database where another pivotbot already subscribed the same channel under another id.
      await rm(`${path}.lock`);
      const busy = await freshDatabase('pivotbot_migrate_conflict');
      const other = await openPostgresStore({ url: busy, logger: silentLogger(), refreshIntervalMs: 0 });
      await other.subscriptions.add({ report: 'daily', channel: 'C1', createdBy: 'U9' });
      await other.close();
      const conflict = await cli(['migrate-store', '--from', path, '--to', busy]);
      expect(conflict.code).toBe(1);
      expect(conflict.err).toMatch(
        /conflicts with one already in .*\(report, channel\)=\(daily, C1\).*nothing was copied/,
      );
      expect((await bodies(busy)).runs).toEqual([]);

      const wrongTarget = await cli(['migrate-store', '--from', path, '--to', 'data/other.json']);
      expect(wrongTarget.code).toBe(1);
      expect(wrongTarget.err).toMatch(/--to must be a postgres:\/\/ URL/);
    });
  });
});

describe('PIVOTBOT_STORE as a PostgreSQL URL', () => {
  it('opens the PostgreSQL store as a replica: a second one on the same database opens beside it', async () => {
    const url = await freshDatabase('pivotbot_open_store');
    const first = await openStore({ path: url, logger: silentLogger() });
    try {
      expect(first.location).toMatch(/^postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\//);
      const second = await openStore({ path: url, logger: silentLogger() });
      try {
        // Both hold leases with a heartbeat each: replicas, not a lock.
        expect(isReplicaStore(first)).toBe(true);
        expect(isReplicaStore(second)).toBe(true);
        const { started } = await first.runs.start({
          report: 'r',
          trigger: 'schedule',
          idempotencyKey: 'k',
          channel: 'C1',
        });
        expect(started).toBe(true);
        expect(
          (await second.runs.start({ report: 'r', trigger: 'schedule', idempotencyKey: 'k', channel: 'C1' })).started,
        ).toBe(false);
      } finally {
        await second.close();
      }
    } finally {
      await first.close();
    }
  });
});
