import { PivotbotError } from '../core/index.js';

export interface RetryPolicy {
  /** Further attempts after the first (0 disables retries). */
  retries: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { retries: 3, baseDelayMs: 250, maxDelayMs: 5_000 };

/**
 * Exponential backoff with full jitter: a delay drawn from [0, min(max, base·2^attempt)).
 *
 * @example backoffDelay(2, DEFAULT_RETRY_POLICY, Math.random) // somewhere in [0, 1000)
 */
export function backoffDelay(attempt: number, policy: RetryPolicy, random: () => number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.floor(random() * ceiling);
}

/**
 * What to do after a failed attempt: retry after a delay, or give up. Only idempotent operations
 * retry, and only on errors marked retryable (network, timeout, 5xx, unreadable body).
 */
export function failureAction(
  error: unknown,
  attempt: number,
  idempotent: boolean,
  policy: RetryPolicy,
  random: () => number,
): { retry: true; delayMs: number } | { retry: false } {
  const retryable = error instanceof PivotbotError && error.retryable;
  if (!idempotent || !retryable || attempt >= policy.retries) return { retry: false };
  return { retry: true, delayMs: backoffDelay(attempt, policy, random) };
}
