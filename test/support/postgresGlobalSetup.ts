/**
 * Jest global setup: one embedded PostgreSQL for the whole run, started when a test file first
 * asks for it (a run without database tests starts none). Test files reach it through
 * `test/support/postgres.ts`, which asks the broker this setup serves at
 * `PIVOTBOT_TEST_POSTGRES_BROKER` (the workers inherit the variable) for the server's URL; each file
 * still makes its own fresh databases. `postgresGlobalTeardown.ts` stops both. A run given
 * `PIVOTBOT_TEST_POSTGRES_URL` uses that server and needs no broker.
 */
import { createServer, type Server } from 'node:http';
import { type Running, startEmbeddedPostgres } from './postgres.js';

export interface SharedPostgres {
  broker: Server;
  server?: Promise<Running>;
}

/** Where the teardown finds what this setup started (both run in jest's main process). */
export const SHARED_KEY = '__pivotbotSharedPostgres';

export default async function postgresGlobalSetup(): Promise<void> {
  const external = process.env.PIVOTBOT_TEST_POSTGRES_URL;
  if (external !== undefined && external !== '') return;
  const shared: SharedPostgres = { broker: createServer() };
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
  // jest's own workers must not keep the run alive: the broker only answers them.
  shared.broker.unref();
  const address = shared.broker.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  process.env.PIVOTBOT_TEST_POSTGRES_BROKER = `http://127.0.0.1:${port}/`;
  (globalThis as Record<string, unknown>)[SHARED_KEY] = shared;
}
