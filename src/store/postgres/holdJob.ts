import type { JobAttempt, JobWithMetadata, PgBoss } from 'pg-boss';
import type { Logger } from '../../core/index.js';

/** This replica's hold on one running job of the slot queue. */
export interface JobHold {
  /** The job's attempt as pg-boss handed it out: outcomes and renewals are fenced to it. */
  attempt: JobAttempt;
  /** Aborted when the hold is gone or may soon be: the step stops before it reaches Slack. */
  signal: AbortSignal;
  /** Stops renewing (the step ended). */
  release(): void;
}

/**
 * Keeps pg-boss's heartbeat of one running job: renews it every third of `heartbeatMs` (`touch`,
 * fenced to the attempt), and aborts the hold's `signal` once the heartbeat went unrenewed for two
 * thirds of the interval, or a renewal finds the attempt no longer this replica's.
 *
 * @example const held = holdJob(boss, 'pivotbot-slot', job, 30_000, logger); try { … } finally { held.release(); }
 */
export function holdJob(
  boss: Pick<PgBoss, 'touch'>,
  queue: string,
  job: JobWithMetadata<unknown>,
  heartbeatMs: number,
  logger: Logger,
): JobHold {
  const attempt: JobAttempt = { id: job.id, retryCount: job.retryCount };
  const lost = new AbortController();
  // pg-boss wrote the heartbeat when it handed the job out, no earlier than this.
  let renewedAt = Date.now();
  let renewing = false;
  let failing = false;
  const lapseAfterMs = (heartbeatMs * 2) / 3;
  const tick = () => {
    if (lost.signal.aborted) return;
    // Checked before the write too: a write that hangs, or a process that was frozen, must not hide the lapse.
    if (Date.now() - renewedAt > lapseAfterMs) {
      logger.warn(
        { job: job.id, handoffs: job.retryCount },
        'heartbeat of a scheduled step lapsed; the step is stopped before it reaches Slack',
      );
      lost.abort(new Error('the heartbeat of this scheduled step lapsed'));
      return;
    }
    if (renewing) return;
    renewing = true;
    const sentAt = Date.now();
    boss
      .touch(queue, [attempt])
      .then((answer) => {
        const { settled } = answer as { settled?: string[] };
        if (settled !== undefined && !settled.includes(job.id)) {
          if (!lost.signal.aborted) {
            logger.warn(
              { job: job.id, handoffs: job.retryCount },
              'scheduled step taken over by another replica; stopped here',
            );
            lost.abort(new Error('the queue handed this scheduled step to another replica'));
          }
          return;
        }
        renewedAt = sentAt;
        failing = false;
      })
      .catch((error: unknown) => {
        if (!failing) logger.warn({ err: error, job: job.id }, 'heartbeat of a scheduled step not written; retrying');
        failing = true;
      })
      .finally(() => {
        renewing = false;
      });
  };
  const timer = setInterval(tick, Math.max(100, Math.floor(heartbeatMs / 3)));
  return {
    attempt,
    signal: lost.signal,
    release: () => clearInterval(timer),
  };
}
