/** Serialises and coalesces writes of a whole document. */
export interface WriteQueue {
  /**
   * Asks for the current state to be written; resolves once a write that started after this
   * call has succeeded, rejects with that write's error. Writes never overlap: calls made while
   * one is running share the next one.
   */
  commit(): Promise<void>;
  /** True when the in-memory state holds changes no successful write has persisted yet. */
  readonly dirty: boolean;
  /** Resolves when no write is running or queued. */
  idle(): Promise<void>;
}

interface Waiter {
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * @param write persists the document as it is when called (serialising synchronously).
 * @example const queue = createWriteQueue(() => document.write());
 */
export function createWriteQueue(write: () => Promise<void>): WriteQueue {
  let waiting: Waiter[] = [];
  let running: Promise<void> | undefined;
  let dirty = false;

  async function drain(): Promise<void> {
    // Let the callers of this tick join the first write.
    await Promise.resolve();
    while (waiting.length > 0) {
      const batch = waiting;
      waiting = [];
      dirty = false;
      try {
        await write();
        for (const waiter of batch) waiter.resolve();
      } catch (error) {
        dirty = true;
        for (const waiter of batch) waiter.reject(error);
      }
    }
  }

  return {
    commit() {
      dirty = true;
      const done = new Promise<void>((resolve, reject) => waiting.push({ resolve, reject }));
      if (running === undefined) {
        running = drain().finally(() => {
          running = undefined;
        });
      }
      return done;
    },
    get dirty() {
      return dirty;
    },
    async idle() {
      while (running !== undefined) await running;
    },
  };
}
