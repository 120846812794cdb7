/**
 * What several replicas on one database share besides the store (PostgreSQL opened with
 * `replica`): leases on the work each holds, and the queue that carries scheduled slots. A store
 * that has them is a `ReplicaStore`; `isReplicaStore` tells which a caller has.
 */
import type { SlotQueue } from './SlotQueue.js';
import type { Store } from './Store.js';

/**
 * What a lease covers, by its id: a run (manual command) or an async job this replica works on.
 * (Scheduled steps are jobs of the slot queue, kept by pg-boss's own job heartbeats.)
 */
export type LeaseKind = 'run' | 'job';

/**
 * Leases for several replicas on one database. Each process keeps one row in
 * `pivotbot_replicas` alive (its heartbeat, every `leaseMs / 3`); each run and job it starts
 * gets a row in `pivotbot_leases` naming it. Work whose holder's row expired (the process died,
 * or lost the database for longer than the lease) is an orphan: exactly one replica adopts it
 * (`adopt`, decided by the database) and finishes it under the same run key. One heartbeat per
 * process, not one per run, so 1,000 runs in flight cost one UPDATE every `leaseMs / 3`.
 */
export interface ReplicaLeases {
  /** This process's name in the lease tables. */
  readonly owner: string;
  readonly leaseMs: number;
  /**
   * Records that this process holds `id` (after its claim). Never throws: a write that fails is
   * retried with each heartbeat (until then the work counts as orphaned once `leaseMs` old).
   */
  hold(kind: LeaseKind, id: string): Promise<void>;
  /** Forgets the lease of finished work. Never throws. */
  release(kind: LeaseKind, id: string): Promise<void>;
  /**
   * Ids of unfinished runs (scheduled and manual) or active jobs whose lease
   * expired: no live holder, or no lease recorded and started more than a lease ago.
   */
  orphans(kind: LeaseKind): Promise<string[]>;
  /** Takes the lease of an orphan for this process: true for exactly one caller while its holder stays dead. */
  adopt(kind: LeaseKind, id: string): Promise<boolean>;
  /**
   * Records a Slack request key (a trigger id) for `ttlMs`: true for the first replica to see it,
   * false for a repeat within the TTL (Slack's retry landing on another replica). Throws when the
   * database does not answer.
   */
  firstSeen(key: string, ttlMs: number): Promise<boolean>;
  /**
   * True when this process's heartbeat was written within the last third of a lease, else renews
   * it now and says whether that worked. Work is taken only with a current heartbeat: after a
   * database outage longer than the lease, the others see this process as stopped until its
   * heartbeat is written again, and would take over what it starts meanwhile.
   */
  fresh(): Promise<boolean>;
  /**
   * Runs `work` while this process holds the database-wide lock `key` (a PostgreSQL advisory lock
   * on a session of its own, released when the work ends or the process dies): one replica at a
   * time, e.g. for one alert rule's evaluations, which two replicas would otherwise run at once for
   * successive slots and both post a missing parent. While another replica holds it, waits up to
   * `waitMs`, then goes ahead (logged): a holder stalled that long has had its work handed over,
   * and its late steps are refused by the queue's fence.
   */
  exclusive<T>(key: string, waitMs: number, work: () => Promise<T>): Promise<T>;
  /** Renews this process's heartbeat now (also done on a timer). False when the database did not answer. */
  heartbeat(): Promise<boolean>;
  /** Stops the heartbeat and removes this process's row: what it still held is adopted at once by the others. */
  close(): Promise<void>;
}

/** A store shared by several replicas: the `Store`, its replica's leases, and the slot queue. */
export interface ReplicaStore extends Store {
  /** This process's heartbeat and the leases of its work (async jobs and manual runs). */
  readonly leases: ReplicaLeases;
  /** The job queue (pg-boss) that carries scheduled slots between the replicas. */
  readonly queue: SlotQueue;
}

/**
 * Whether `store` is one of several replicas on one database (else it is this process's alone).
 *
 * @example if (isReplicaStore(store)) adoptOrphans(store.leases); else await resumeJobs(deps);
 */
export function isReplicaStore(store: Store): store is ReplicaStore {
  return 'leases' in store && store.leases !== undefined && 'queue' in store && store.queue !== undefined;
}
