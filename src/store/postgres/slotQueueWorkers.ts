import type { JobAttempt, JobWithMetadata, PgBoss } from 'pg-boss';
import type { Logger } from '../../core/index.js';
import type { QueuedSlot, SlotQueue } from '../SlotQueue.js';
import { holdJob } from './holdJob.js';

type Handler = Parameters<SlotQueue['work']>[1];
type Outcome = 'complete' | { failed: string };

export interface SlotQueueWorkersOptions {
  boss: Pick<PgBoss, 'fetch' | 'complete' | 'fail' | 'touch'>;
  /** The pg-boss queue's name. */
  queue: string;
  /** The queue's job heartbeat: how long a running job stays with a replica that stopped renewing it. */
  heartbeatMs: number;
  /** How often idle workers ask for jobs. */
  pollMs: number;
  logger: Logger;
  location: string;
}

/** This replica's workers of the slot queue. */
export interface SlotQueueWorkers {
  work: SlotQueue['work'];
  nudge(): void;
  stop(graceMs: number): Promise<void>;
  /** Stops polling and records the outcomes the database missed (once more). */
  close(): Promise<void>;
}

/**
 * The workers of one replica: they fetch up to `concurrency` jobs, run each under its heartbeat
 * (`holdJob`), and settle each job's outcome fenced to its attempt; an outcome the database did
 * not take (an outage) is owed and retried every poll. Stopping gives running handlers their
 * grace, then aborts them: pg-boss fails their jobs and another replica takes them.
 *
 * @example const workers = createSlotQueueWorkers({ boss, queue: 'pivotbot-slot', heartbeatMs, pollMs: 1000, logger, location });
 */
export function createSlotQueueWorkers(options: SlotQueueWorkersOptions): SlotQueueWorkers {
  const { boss, queue, heartbeatMs, pollMs, logger, location } = options;
  const running = new Map<string, Promise<void>>();
  /** Jobs whose handler ended but whose outcome the database has not taken yet (an outage): retried each poll. */
  const owed = new Map<string, { attempt: JobAttempt; outcome: Outcome }>();
  const abort = new AbortController();
  let wake: (() => void) | undefined;
  let polling: Promise<void> | undefined;
  let stopped = false;

  const settle = async (attempt: JobAttempt, outcome: Outcome): Promise<void> => {
    try {
      // Fenced to the attempt: once the job was handed to another replica, this changes nothing.
      const answer = (
        outcome === 'complete'
          ? await boss.complete(queue, [attempt])
          : await boss.fail(queue, [attempt], { message: outcome.failed })
      ) as { affected?: number };
      owed.delete(attempt.id);
      if (answer.affected === 0) {
        logger.warn(
          { job: attempt.id, handoffs: attempt.retryCount },
          'outcome of a scheduled step refused: the queue had handed it to another replica',
        );
      }
    } catch (error) {
      if (!owed.has(attempt.id))
        logger.warn({ err: error, job: attempt.id }, 'job outcome not recorded in the queue yet; retrying');
      owed.set(attempt.id, { attempt, outcome });
    }
  };
  const settleOwed = async (): Promise<void> => {
    for (const { attempt, outcome } of [...owed.values()]) await settle(attempt, outcome);
  };

  const runJob = async (job: JobWithMetadata<QueuedSlot>, handle: Handler): Promise<void> => {
    const held = holdJob(boss, queue, job, heartbeatMs, logger);
    // pg-boss's expiry is the last bound: the step is stopped a minute before it, so it never runs twice at once.
    const fence = AbortSignal.any([
      abort.signal,
      held.signal,
      AbortSignal.timeout(Math.max(1_000, (job.expireInSeconds - 60) * 1000)),
    ]);
    let outcome: Outcome = 'complete';
    try {
      await handle(job.data, { handoffs: job.retryCount, signal: fence });
    } catch (error) {
      outcome = { failed: error instanceof Error ? error.message : String(error) };
    } finally {
      held.release();
    }
    await settle(held.attempt, outcome);
  };

  const handBack = async (jobs: ReadonlyArray<JobWithMetadata<QueuedSlot>>): Promise<void> => {
    logger.info({ jobs: jobs.length }, 'scheduled steps taken while stopping; handed back to the queue');
    for (const job of jobs)
      await settle({ id: job.id, retryCount: job.retryCount }, { failed: 'the replica was stopping' });
  };

  const poll = async (concurrency: number, handle: Handler): Promise<void> => {
    while (!stopped) {
      await settleOwed();
      const free = concurrency - running.size;
      let jobs: Array<JobWithMetadata<QueuedSlot>> = [];
      if (free > 0 && !stopped) {
        try {
          jobs = await boss.fetch<QueuedSlot>(queue, { batchSize: free, includeMetadata: true });
        } catch (error) {
          logger.warn({ err: error, store: location }, 'could not take jobs from the queue; retrying');
        }
      }
      if (stopped && jobs.length > 0) {
        // Taken while this replica was stopping (the fetch was under way): handed straight back, not
        // started, so a replica told to stop begins no new step.
        await handBack(jobs);
        break;
      }
      for (const job of jobs) {
        const done = runJob(job, handle)
          .catch((error: unknown) => logger.error({ err: error, job: job.id }, 'queued job failed unexpectedly'))
          .finally(() => {
            running.delete(job.id);
            wake?.();
          });
        running.set(job.id, done);
      }
      if (jobs.length > 0 && running.size < concurrency) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pollMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = undefined;
    }
  };

  /** Resolves when every running handler ended, or after `ms`. */
  const runningFor = async (ms: number): Promise<void> => {
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
    });
    await Promise.race([Promise.all(running.values()), bound]);
    clearTimeout(timer);
  };

  return {
    async work(concurrency, handle) {
      polling = poll(Math.max(1, concurrency), handle);
    },

    nudge() {
      wake?.();
    },

    async stop(graceMs) {
      if (stopped) return;
      stopped = true;
      wake?.();
      await polling;
      if (running.size > 0) await runningFor(graceMs);
      if (running.size > 0) {
        // Handed back: the handlers end their runs, pg-boss fails the jobs and retries them elsewhere.
        // A handler that ignores the abort is not waited for long (its heartbeat then lapses instead).
        abort.abort();
        await runningFor(1_000);
      }
    },

    async close() {
      stopped = true;
      wake?.();
      await polling;
      // Outcomes the database missed: once more (else the jobs are handed over once their heartbeats lapse).
      await settleOwed();
    },
  };
}
