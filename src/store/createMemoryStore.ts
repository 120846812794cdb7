import { type Logger, silentLogger } from '../core/index.js';
import { createStore } from './createStore.js';
import { createMemoryDocument } from './lowDocument.js';
import type { Store, StoreLimits } from './Store.js';
import { emptyStoreData, type StoreData } from './storeSchema.js';

export interface MemoryStoreOptions {
  clock?: () => Date;
  limits?: Partial<StoreLimits>;
  logger?: Logger;
  /** Starting contents (validated shape, current version); empty by default. */
  data?: StoreData;
}

/**
 * A store that keeps everything in memory and persists nowhere: the same repositories as the
 * file store, for unit tests and for callers that need no durability.
 *
 * @example const store = createMemoryStore({ clock: () => new Date('2026-01-05T09:00:00Z') });
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): Store {
  return createStore({
    document: createMemoryDocument(options.data === undefined ? emptyStoreData() : structuredClone(options.data)),
    location: 'memory',
    logger: options.logger ?? silentLogger(),
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    ...(options.limits === undefined ? {} : { limits: options.limits }),
  });
}
