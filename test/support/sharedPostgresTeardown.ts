/** Jest global teardown: stops the run's embedded PostgreSQL (if a file started it) and its broker. */
import type { SharedPostgres } from './sharedPostgres.js';

/** `SHARED_POSTGRES_KEY` of `sharedPostgres.ts`: jest loads this file outside its module mapping, so it imports no file of ours. */
const SHARED_POSTGRES_KEY = '__pivotbotSharedPostgres';

export default async function sharedPostgresTeardown(): Promise<void> {
  const shared = (globalThis as Record<string, unknown>)[SHARED_POSTGRES_KEY] as SharedPostgres | undefined;
  if (shared === undefined) return;
  delete (globalThis as Record<string, unknown>)[SHARED_POSTGRES_KEY];
  delete process.env.PIVOTBOT_TEST_POSTGRES_BROKER;
  await new Promise<void>((resolve) => shared.broker.close(() => resolve()));
  const server = await shared.server?.catch(() => undefined);
  await server?.stop();
}
