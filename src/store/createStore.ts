import type { Logger } from '../core/index.js';
import { createWriteQueue } from './createWriteQueue.js';
import { createIncidentsRepository } from './incidentsRepository.js';
import { createJobsRepository } from './jobsRepository.js';
import type { StoreDocument } from './lowDocument.js';
import { createRunsRepository } from './runsRepository.js';
import { DEFAULT_STORE_LIMITS, type Store, type StoreLimits } from './Store.js';
import { StoreClosedError } from './StoreError.js';
import { createSchedulesRepository } from './schedulesRepository.js';
import { deepFreeze, randomId, type StoreContext } from './storeContext.js';
import { createSubscriptionsRepository } from './subscriptionsRepository.js';

export interface CreateStoreOptions {
  document: StoreDocument;
  /** `memory` or the file path, for messages. */
  location: string;
  logger: Logger;
  clock?: () => Date;
  limits?: Partial<StoreLimits>;
  /** Runs last in close(), e.g. to release the file lock. */
  onClose?: () => Promise<void>;
}

/**
 * Builds the repositories over a document. Shared by `openStore` (file) and
 * `createMemoryStore` (memory): they differ only in how the document persists.
 */
export function createStore(options: CreateStoreOptions): Store {
  const { document, location, logger } = options;
  const clock = options.clock ?? (() => new Date());
  const queue = createWriteQueue(() => document.write());
  let closed = false;

  // Records are frozen (the collections stay mutable): a caller cannot change one behind our back.
  for (const records of Object.values(document.data)) {
    if (Array.isArray(records)) for (const record of records) deepFreeze(record);
  }

  const assertOpen = (): void => {
    if (closed) throw new StoreClosedError(location);
  };

  const ctx: StoreContext = {
    data: () => document.data,
    now: () => clock().toISOString(),
    nowMs: () => clock().getTime(),
    newId: randomId,
    limits: { ...DEFAULT_STORE_LIMITS, ...options.limits },
    async mutate(change) {
      assertOpen();
      const result = change(document.data);
      await queue.commit();
      return result;
    },
    assertOpen,
  };

  return {
    jobs: createJobsRepository(ctx),
    subscriptions: createSubscriptionsRepository(ctx),
    runs: createRunsRepository(ctx),
    incidents: createIncidentsRepository(ctx),
    schedules: createSchedulesRepository(ctx),
    location,

    async flush() {
      assertOpen();
      await queue.idle();
      if (queue.dirty) await queue.commit();
    },

    async close() {
      if (closed) return;
      closed = true;
      let failure: unknown;
      try {
        await queue.idle();
        if (queue.dirty) await queue.commit();
      } catch (error) {
        failure = error;
        logger.error({ err: error, store: location }, 'store closed with changes that could not be written');
      }
      await options.onClose?.();
      if (failure !== undefined) throw failure;
    },
  };
}
