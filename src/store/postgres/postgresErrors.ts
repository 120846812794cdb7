import { ErrorCode } from '../../core/index.js';
import { StoreError } from '../StoreError.js';

/** The store's database cannot be reached or answered with an error; retrying later may work. */
export class StoreUnavailableError extends StoreError {
  constructor(location: string, cause: unknown) {
    const code = typeof cause === 'object' && cause !== null ? (cause as { code?: unknown }).code : undefined;
    super(
      ErrorCode.StoreUnavailable,
      `The store database ${location} is unavailable${typeof code === 'string' ? ` (${code})` : ''}: ${
        cause instanceof Error ? cause.message : String(cause)
      }`,
      {
        userMessage: 'pivotbot’s database is temporarily unavailable; please try again shortly.',
        retryable: true,
        cause,
        details: typeof code === 'string' ? { location, code } : { location },
      },
    );
  }
}
