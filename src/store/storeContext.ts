import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import { describeIssues } from './decodeStoreText.js';
import type { StoreLimits } from './Store.js';
import { StoreInvalidRecordError } from './StoreError.js';
import type { StoreData } from './storeSchema.js';

/** What every repository is built on; the memory and file stores differ only in `mutate`'s persistence. */
export interface StoreContext {
  /** The current document (read it afresh: collections may be replaced when pruned). */
  data(): StoreData;
  /** Now, as an ISO string. */
  now(): string;
  nowMs(): number;
  newId(prefix: string): string;
  readonly limits: StoreLimits;
  /**
   * Applies `change` to the document synchronously, then persists. `change` must check
   * everything before it modifies anything: if it throws, nothing is changed or written.
   */
  mutate<T>(change: (data: StoreData) => T): Promise<T>;
  /** Throws STORE_CLOSED after close(). */
  assertOpen(): void;
}

/** Short random ids: `run_3f9c0a1be2d45c67`. */
export function randomId(prefix: string): string {
  return `${prefix}_${randomBytes(8).toString('hex')}`;
}

/**
 * Validates a record against the schema it will be loaded with and freezes it, so that no
 * write can produce a file the next start-up would refuse, and no caller can change a stored
 * record behind the store's back.
 */
export function checkRecord<T>(schema: z.ZodType<T>, value: unknown, kind: string): T {
  const result = schema.safeParse(value);
  if (!result.success) throw new StoreInvalidRecordError(kind, describeIssues(result.error));
  return deepFreeze(result.data);
}

export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/** Removes the oldest `excess` items matching `prunable`, keeping order; returns a new array. */
export function dropOldest<T>(items: readonly T[], excess: number, prunable: (item: T) => boolean): T[] {
  if (excess <= 0) return [...items];
  let left = excess;
  return items.filter((item) => {
    if (left > 0 && prunable(item)) {
      left--;
      return false;
    }
    return true;
  });
}
