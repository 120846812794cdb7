import type { Store } from './Store.js';

/** What `/healthz` says about the store: its kind and, for PostgreSQL, whether the database answers. */
export interface StoreHealth {
  kind: 'memory' | 'file' | 'postgres';
  reachable?: boolean;
  schemaVersion?: number;
}

/**
 * The store's part of a health check. Never includes the location: a database URL may carry a
 * password.
 *
 * @example const body = { ok: true, store: await storeHealth(store) };
 */
export async function storeHealth(store: Store): Promise<StoreHealth> {
  const probe = (store as Partial<{ health(): Promise<{ reachable: boolean; schemaVersion?: number }> }>).health;
  if (typeof probe === 'function') {
    const { reachable, schemaVersion } = await probe.call(store);
    return { kind: 'postgres', reachable, ...(schemaVersion === undefined ? {} : { schemaVersion }) };
  }
  return { kind: store.location === 'memory' ? 'memory' : 'file' };
}
