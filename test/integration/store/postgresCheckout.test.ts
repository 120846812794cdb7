/**
 * A session the server ends while its client is checked out of the pool (between two queries of
 * a transaction) fails that client's next query; it does not crash the process. Without the
 * guard, pg emits an `error` event with no listener: an uncaught exception that stopped a replica
 * during a database outage.
 */
import pg from 'pg';
import { checkout } from '../../../src/store/postgres/checkout.js';
import { freshDatabase, stopTestPostgres } from '../../support/postgres.js';

afterAll(async () => {
  await stopTestPostgres();
});

it('turns a terminated session of a checked-out client into a failed query, not an uncaught error', async () => {
  const url = await freshDatabase('pivotbot_checkout');
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const uncaught: unknown[] = [];
  const onUncaught = (error: unknown) => uncaught.push(error);
  process.on('uncaughtException', onUncaught);
  try {
    const client = await checkout(pool);
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    await admin.query('SELECT pg_terminate_backend($1)', [rows[0]?.pid]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await expect(client.query('SELECT 1')).rejects.toThrow();
    client.release(true);
    expect(uncaught).toEqual([]);
    // The pool goes on with a new session.
    expect((await pool.query<{ one: number }>('SELECT 1 AS one')).rows[0]?.one).toBe(1);
  } finally {
    process.off('uncaughtException', onUncaught);
    await admin.end();
    await pool.end();
  }
});
