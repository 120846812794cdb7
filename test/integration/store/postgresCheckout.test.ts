/**
 * A session the server ends while its client is checked out of the pool (between two queries of
 * a transaction) fails that client's next query; it does not crash the process. Without the
 * guard, pg emits an `error` event with no listener: an uncaught exception that stopped a replica
 * during a database outage. The server's FATAL message may arrive before the next query or after
 * the client has been released; both orders are covered.
 */
import pg from 'pg';
import { checkout } from '../../../src/store/postgres/checkout.js';
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
