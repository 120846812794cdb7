import { ErrorCode } from './errorCodes.js';
import { PivotbotError } from './errors.js';

/** A wait or a call was stopped by its AbortSignal (shutdown), not by a failure or a timeout. */
export class CancelledError extends PivotbotError {
  constructor(what: string) {
    super(ErrorCode.Cancelled, `${what} cancelled`, {
      userMessage: 'pivotbot is restarting, so this stopped; run it again in a minute.',
      retryable: true,
    });
  }
}

/**
 * Resolves as `promise` does, or rejects with `CancelledError` as soon as `signal` aborts; the work
 * behind `promise` goes on (others may share it), only this caller stops waiting.
 *
 * @example const token = await untilAborted(tokens.mintOnce(), signal, 'token request');
 */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined, what = 'wait'): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) {
    // Nobody here waits for it any more: its failure must not become an unhandled rejection.
    promise.catch(() => undefined);
    return Promise.reject(new CancelledError(what));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new CancelledError(what));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
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
