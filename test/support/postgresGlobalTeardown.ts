/** Jest global teardown: stops the run's embedded PostgreSQL (if a file started it) and its broker. */
import { SHARED_KEY, type SharedPostgres } from './postgresGlobalSetup.js';

export default async function postgresGlobalTeardown(): Promise<void> {
  const shared = (globalThis as Record<string, unknown>)[SHARED_KEY] as SharedPostgres | undefined;
  if (shared === undefined) return;
  delete (globalThis as Record<string, unknown>)[SHARED_KEY];
  await new Promise<void>((resolve) => shared.broker.close(() => resolve()));
  const server = await shared.server?.catch(() => undefined);
  await server?.stop();
}
