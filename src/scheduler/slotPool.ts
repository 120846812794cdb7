/**
 * A bounded pool: at most `size` tasks at once, the rest wait in order. Digest runs get their own,
 * so a 9:00 burst queues here and never takes the slots of interactive `/pivot` work.
 */
export interface SlotPool {
  run<T>(task: () => Promise<T>): Promise<T>;
  /** Tasks running now. */
  readonly active: number;
  /** Tasks waiting for a place. */
  readonly waiting: number;
  /** Drops every waiting task (they reject with `reason`); running ones continue. */
  clear(reason: Error): void;
}

/** @example const pool = createSlotPool(4); await pool.run(() => post(digest)); */
export function createSlotPool(size: number): SlotPool {
  const limit = Math.max(1, Math.floor(size));
  let active = 0;
  const queue: Array<{ start: () => void; reject: (error: Error) => void }> = [];

  const release = () => {
    active--;
    const next = queue.shift();
    if (next) {
      active++;
      next.start();
    }
  };

  return {
    run<T>(task: () => Promise<T>): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        const start = () => {
          task().then(resolve, reject).finally(release);
        };
        if (active < limit) {
          active++;
          start();
        } else queue.push({ start, reject });
      });
    },
    get active() {
      return active;
    },
    get waiting() {
      return queue.length;
    },
    clear(reason: Error) {
      for (const waiting of queue.splice(0)) waiting.reject(reason);
    },
  };
}
