/**
 * What several replicas on one database share to run scheduled work: a job queue (pg-boss on
 * PostgreSQL, `src/store/postgres/startSlotQueue.ts`). The scheduler still decides which slots are
 * due; the queue carries each due slot to whichever replica takes it, keeps it with that replica while its heartbeat for it is renewed,
 * hands it to another when the replica dies or stops, and holds retries and data waits until their
 * time on any replica.
 */

/** One step of a slot's work: its first attempt, a retry, or a check for late data. */
export interface QueuedSlot {
  /** The schedule (`ScheduleSpec.id`) that planned the slot. */
  scheduleId: string;
  /** The slot's instant, ISO UTC. */
  slot: string;
  /** Planned after its time (caught up): the digest says "Late". */
  late: boolean;
  /** Attempts so far after failures: 1 on the first. */
  tries: number;
  /** How long the slot has waited for late data. */
  waitedMs: number;
  /** The run a data wait keeps claimed, continued by the next step instead of claiming anew. */
  heldRunId?: string;
}

/** What the queue tells the handler about a job it hands out. */
export interface QueuedDelivery {
  /** How many times this job was handed out before and not finished (its replica died, stopped, or its heartbeat lapsed). */
  handoffs: number;
  /** Aborted before the job's heartbeat lapses, so another replica never runs the same step at once. */
  signal: AbortSignal;
}

export interface SlotQueue {
  /** How long a running job stays with a replica whose heartbeat for it stopped, before the queue gives it to another. */
  readonly heartbeatMs: number;
  /**
   * Queues one step; `key` names it across replicas: a second send of the same key while the first
   * is queued, running or recently done is dropped (false).
   */
  send(job: QueuedSlot, options: { key: string; startAfter?: Date }): Promise<boolean>;
  /**
   * Starts `concurrency` workers in this process. The handler resolving completes the job; throwing
   * hands it back to the queue for another delivery.
   */
  work(concurrency: number, handle: (job: QueuedSlot, delivery: QueuedDelivery) => Promise<void>): Promise<void>;
  /** Wakes this process's workers (after a send): no wait for the next poll. */
  nudge(): void;
  /** Stops taking jobs; gives running handlers `graceMs`, then hands their jobs back to the queue. */
  stop(graceMs: number): Promise<void>;
  /**
   * The jobs in the queue across all replicas: ready or waiting for their time (`queued`, with the
   * `deferred` among them), and running (`active`). Read by the bot's `/metrics`.
   */
  depth?(): Promise<{ queued: number; active: number; deferred: number }>;
}
