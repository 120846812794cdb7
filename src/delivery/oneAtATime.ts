/** The lock of an alert rule's deliveries: one at a time in this process, and across replicas. */
import { isReplicaStore, type Store } from '../store/index.js';

/**
 * One delivery per rule at a time, in this process and across replicas: start-up's delivery of
 * what is owed and a slot of the same rule would otherwise both post the same reply.
 */
const running = new Map<string, Promise<unknown>>();
export async function oneAtATime<T>(store: Store, key: string, work: () => Promise<T>): Promise<T> {
  // Across replicas too: two of them would otherwise evaluate successive slots of one rule at once
  // (the queue hands them to different workers), and both post a parent that is missing.
  // A holder frozen longer than a job heartbeat has had its slot handed over: go ahead then.
  const across = isReplicaStore(store) ? store : undefined;
  const guarded = across
    ? () => across.leases.exclusive(`pivotbot:alert:${key}`, across.queue.heartbeatMs, work)
    : work;
  const before = running.get(key) ?? Promise.resolve();
  const mine = before.catch(() => undefined).then(guarded);
  running.set(key, mine);
  try {
    return await mine;
  } finally {
    if (running.get(key) === mine) running.delete(key);
  }
}
