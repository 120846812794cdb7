/**
 * A session the server ends while its client is checked out of the pool (between two queries of
 * a transaction) fails that client's next query; it does not crash the process. Without the
 * guard, pg emits an `error` event with no listener: an uncaught exception that stopped a replica
 * during a database outage. The server's FATAL message may arrive before the next query or after
 * the client has been released; both orders are covered.
 */
import pg from 'pg';
import { checkout } from '../../../src/store/postgres/checkout.js';
import { IDLE_IN_TRANSACTION_MS, storePoolConfig } from '../../../src/store/postgres/openPostgresStore.js';
import { freshDatabase, stopTestPostgres } from '../../support/postgres.js';

afterAll(async () => {
  await stopTestPostgres();
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it.each([
  ['before the next query', true],
  ['after the client is released', false],
])("survives the end of a checked-out client's session arriving %s", async (_when, queryFirst) => {
  const url = await freshDatabase('pivotbot_checkout');
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  // As the store's pool does: an idle client's lost session is reported, not thrown.
  const poolErrors: unknown[] = [];
  pool.on('error', (error) => poolErrors.push(error));
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const uncaught: unknown[] = [];
  const onUncaught = (error: unknown) => uncaught.push(error);
  process.on('uncaughtException', onUncaught);
  try {
    const client = await checkout(pool);
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    await admin.query('SELECT pg_terminate_backend($1)', [rows[0]?.pid]);
    if (queryFirst) {
      await pause(300);
      await expect(client.query('SELECT 1')).rejects.toThrow();
      client.release(true);
    } else {
      client.release(true);
      await pause(500);
    }
    expect(uncaught).toEqual([]);
    // The pool goes on with a new session.
    expect((await pool.query<{ one: number }>('SELECT 1 AS one')).rows[0]?.one).toBe(1);
  } finally {
    process.off('uncaughtException', onUncaught);
    await admin.end();
    await pool.end();
  }
});

/**
 * A replica stopped (SIGSTOP, a frozen container) between two statements of a store transaction
 * keeps that transaction's row locks for as long as it stays stopped; another replica's write to
 * those rows would wait as long. The store's sessions carry `idle_in_transaction_session_timeout`,
 * so PostgreSQL ends such a session and its locks go with it.
 */
it('lets another writer through once a session stopped inside a transaction is ended by the server', async () => {
  expect(storePoolConfig('postgres://x').idle_in_transaction_session_timeout).toBe(IDLE_IN_TRANSACTION_MS);
  const url = await freshDatabase('pivotbot_idle_tx');
  // The store's settings, with a short limit so the test does not wait the default's 10 s.
  const stopped = new pg.Pool(storePoolConfig(url, { idleInTransactionMs: 300 }));
  stopped.on('error', () => undefined);
  const other = new pg.Pool(storePoolConfig(url));
  const uncaught: unknown[] = [];
  const onUncaught = (error: unknown) => uncaught.push(error);
  process.on('uncaughtException', onUncaught);
  try {
    await other.query('CREATE TABLE held (k int PRIMARY KEY, v int); INSERT INTO held VALUES (1, 0)');
    const client = await checkout(stopped);
    await client.query('BEGIN');
    await client.query('UPDATE held SET v = 1 WHERE k = 1');
    // The "stopped" session sends nothing more; the other writer waits on its row lock until the
    // server ends that session, then goes through.
    const written = await other.query('UPDATE held SET v = 2 WHERE k = 1 RETURNING v');
    expect(written.rows).toEqual([{ v: 2 }]);
    // The stopped one, resumed, finds its transaction gone, and the process goes on.
    await expect(client.query('COMMIT')).rejects.toThrow();
    client.release(true);
    expect((await other.query('SELECT v FROM held')).rows).toEqual([{ v: 2 }]);
    expect(uncaught).toEqual([]);
  } finally {
    process.off('uncaughtException', onUncaught);
    await stopped.end();
    await other.end();
  }
});
