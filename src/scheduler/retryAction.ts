import { PivotbotError } from '../core/index.js';
import type { RetryPolicy } from './ScheduleSpec.js';

export type RetryDecision = { action: 'retry'; delayMs: number } | { action: 'give-up'; reason: string };

/**
 * What to do after try number `attempt` (1-based) of a slot failed with `error`: try again after
 * the policy's backoff, or give up (the caller then posts one failure notice). A `PivotbotError`
 * says itself whether it is `retryable`; anything else (a Slack SDK error, a bug) is tried again,
 * since the attempts bound it anyway.
 *
 * @example retryAction(new ReportingHttpError(…503…), 1, { attempts: 3, backoffMs: 120_000 })
 * // { action: 'retry', delayMs: 120_000 }
 */
export function retryAction(error: unknown, attempt: number, retry: RetryPolicy): RetryDecision {
  if (error instanceof PivotbotError && !error.retryable) {
    return { action: 'give-up', reason: `${error.code} cannot succeed by trying again` };
  }
  if (attempt >= retry.attempts) {
    return { action: 'give-up', reason: `${retry.attempts} attempt(s) failed` };
  }
  return { action: 'retry', delayMs: retry.backoffMs };
}
