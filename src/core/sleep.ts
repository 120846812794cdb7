import { PivotbotError } from './errors.js';

/** A wait or a call was stopped by its AbortSignal (shutdown), not by a failure or a timeout. */
export class CancelledError extends PivotbotError {
  constructor(what: string) {
    super('CANCELLED', `${what} cancelled`, {
      userMessage: 'pivotbot is restarting, so this stopped; run it again in a minute.',
      retryable: true,
    });
  }
}

/**
 * Waits `ms`, or rejects with `CancelledError` as soon as `signal` aborts (at once when it already
 * has), so shutdown never waits for a backoff or a poll interval. The timer is always cleared.
 *
 * @example await sleep(backoffMs, options.signal, 'retry backoff of pivot');
 */
export function sleep(ms: number, signal?: AbortSignal, what = 'wait'): Promise<void> {
  if (signal?.aborted) return Promise.reject(new CancelledError(what));
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(new CancelledError(what));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
