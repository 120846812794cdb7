import { ErrorCode } from './errorCodes.js';
import { INTERNAL_FAILURE_MESSAGE, PivotbotError } from './errors.js';

/**
 * A failure as a run, job or evaluation record keeps it: what `/pivot history`, `/pivot status`
 * and App Home show. The code is always one of ours; the message is text written for users.
 */
export interface StoredFailure {
  code: ErrorCode;
  message: string;
}

/**
 * The one way a failure becomes a stored error. Our errors keep their code and `userMessage`;
 * anything else (a bug, `ENOENT` from the file system, PostgreSQL's `23505`, an SDK's own error)
 * is stored as `INTERNAL` with the generic text, never its own code or message: its class, code
 * and cause belong in the log line the caller writes with the whole error.
 *
 * @example await store.runs.finish(run.id, { status: 'failed', error: storedError(error) });
 */
export function storedError(error: unknown): StoredFailure {
  if (error instanceof PivotbotError) return { code: error.code, message: error.userMessage };
  return { code: ErrorCode.Internal, message: INTERNAL_FAILURE_MESSAGE };
}
