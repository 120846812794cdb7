/**
 * Every store behind the one `Store` interface, for repository tests that must hold for all of
 * them: `describe.each(STORE_KINDS)('%s store', (kind) => { const stores = useStores(kind); … })`.
 * A test file using the postgres kind also calls `afterAll(stopTestPostgres)` at its top level.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { silentLogger } from '../../src/core/index.js';
import { createMemoryStore, openStore, type Store, type StoreData, type StoreLimits } from '../../src/store/index.js';
import { copyStoreData, openPostgresStore, type PostgresStore } from '../../src/store/postgres/index.js';
import { TABLES } from '../../src/store/postgres/postgresSchema.js';
import { freshDatabase } from './postgres.js';

export const STORE_KINDS = ['memory', 'file', 'postgres'] as const;
export type StoreKind = (typeof STORE_KINDS)[number];

export interface StoreOptions {
  clock?: () => Date;
  limits?: Partial<StoreLimits>;
  /** Starting contents (current version). */
  data?: StoreData;
}

export interface Stores {
  /** Opens a store of this kind; every store opened in a test starts from the same empty state and is closed after it. */
  open(options?: StoreOptions): Promise<Store>;
  /** Postgres only: the test database's URL. */
  url(): string;
}

/** Registers the hooks of one kind (a fresh database / folder per test) and returns its opener. */
export function useStores(kind: StoreKind): Stores {
  const opened: Store[] = [];
  let url = '';
  let dir = '';
  let n = 0;

  let admin: pg.Client | undefined;

  beforeAll(async () => {
    if (kind === 'postgres') {
      url = await freshDatabase();
      admin = new pg.Client({ connectionString: url });
      await admin.connect();
    }
    if (kind === 'file') dir = await mkdtemp(join(tmpdir(), 'pivotbot-store-kinds-'));
  });
  beforeEach(async () => {
    n++;
    if (admin === undefined) return;
    // Every test starts from empty tables (DELETE: faster than TRUNCATE on tiny tables).
    const { rows } = await admin.query<{ t: string | null }>("SELECT to_regclass('pivotbot_runs')::text AS t");
    if (rows[0]?.t !== null && rows[0]?.t !== undefined) {
      await admin.query(TABLES.map((t) => `DELETE FROM ${t.table};`).join(' '));
    }
  });
  afterEach(async () => {
    const stores = opened.splice(0);
    // Whatever the test did, the database must hold exactly what the mirror serves.
    if (admin !== undefined && stores.length > 0) {
      await Promise.all(stores.map((store) => store.flush().catch(() => undefined)));
      const rows: Record<string, unknown[]> = {};
      for (const t of TABLES) {
        rows[t.collection] = (await admin.query(`SELECT body FROM ${t.table} ORDER BY seq`)).rows.map((r) => r.body);
      }
      for (const store of stores) {
        const mirror = (store as PostgresStore).snapshot();
        for (const t of TABLES) expect(rows[t.collection]).toEqual(mirror[t.collection]);
      }
    }
    for (const store of stores) await store.close().catch(() => undefined);
  });
  afterAll(async () => {
    await admin?.end();
    if (dir !== '') await rm(dir, { recursive: true, force: true });
  });

  return {
    url: () => url,
    async open(options = {}) {
      const common = {
        logger: silentLogger(),
        ...(options.clock === undefined ? {} : { clock: options.clock }),
        ...(options.limits === undefined ? {} : { limits: options.limits }),
      };
      let store: Store;
      if (kind === 'memory') {
        store = createMemoryStore({ ...common, ...(options.data === undefined ? {} : { data: options.data }) });
      } else if (kind === 'file') {
        const path = join(dir, `store-${n}-${opened.length}.json`);
        if (options.data !== undefined) await writeFile(path, `${JSON.stringify(options.data)}\n`);
        // Opening reads the clock (the lock's start time): a test's stepping clock starts after it.
        let ready = false;
        const { clock } = options;
        store = await openStore({
          path,
          ...common,
          ...(clock === undefined ? {} : { clock: () => (ready ? clock() : new Date()) }),
        });
        ready = true;
      } else {
        const pgStore: PostgresStore = await openPostgresStore({ url, ...common, refreshIntervalMs: 0 });
        if (options.data !== undefined) {
          const pool = new pg.Pool({ connectionString: url, max: 1 });
          try {
            await copyStoreData(pool, options.data);
          } finally {
            await pool.end();
          }
          await pgStore.refresh();
        }
        store = pgStore;
      }
      opened.push(store);
      return store;
    },
  };
}
