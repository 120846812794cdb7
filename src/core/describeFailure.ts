import { randomBytes } from 'node:crypto';
import { ErrorCode } from './errorCodes.js';
import { INTERNAL_FAILURE_MESSAGE, PivotbotError, UserInputError } from './errors.js';
import type { Logger } from './logger.js';

/** What a person is told about a failure; the rest is in the log line with the same `ref`. */
export interface UserFailure {
  /** Written for the person: their mistake, or what failed in their terms plus the reference. */
  text: string;
  code: ErrorCode;
  /** Short id on both the log line and `text`, so support finds one from the other; none for a user's own mistake. */
  ref?: string;
  retryable: boolean;
  suggestions: readonly string[];
}

export interface DescribeFailureOptions {
  logger: Logger;
  /** The log line's message, e.g. `command failed`. */
  what: string;
  /** Fields for the log line (user, report, job…), never secrets. */
  context?: Record<string, unknown>;
  /** Reference ids; tests pin them. Default: 6 random hex digits. */
  newRef?: () => string;
}

/**
 * Decides what a user sees about a failure and logs it. A user's own mistake (`UserInputError`) is
 * told as is and logged at info. Anything else gets a reference id: an error with text written for
 * users shows that text, anything else (a bug, an unexplained internal error) shows only
 * "Something went wrong on pivotbot's side"; the whole error (code, class, cause) is logged with the
 * same reference, so the internal message, paths and upstream text stay in the log.
 *
 * @example const failure = describeFailure(error, { logger, what: 'command failed', context: { userId } });
 *          await respond(errorMessage({ userMessage: failure.text, code: failure.code }));
 */
export function describeFailure(error: unknown, options: DescribeFailureOptions): UserFailure {
  const { logger, what } = options;
  const context = options.context ?? {};
  if (error instanceof UserInputError) {
    logger.info({ ...context, code: error.code }, `${what}: refused`);
    return { text: error.userMessage, code: error.code, retryable: false, suggestions: error.suggestions };
  }
  const ref = (options.newRef ?? newErrorRef)();
  const known = error instanceof PivotbotError ? error : undefined;
  if (known?.explained) {
    logger.warn({ ...context, err: known, ref }, what);
    return {
      text: `${withoutFinalStop(known.userMessage)} (ref ${ref}).`,
      code: known.code,
      ref,
      retryable: known.retryable,
      suggestions: [],
    };
  }
  logger.error({ ...context, err: error, ref }, `${what} unexpectedly`);
  return {
    text: `${withoutFinalStop(INTERNAL_FAILURE_MESSAGE)} (ref ${ref}). It has been logged; if it keeps happening, give an admin this reference.`,
    code: known?.code ?? ErrorCode.Internal,
    ref,
    retryable: known?.retryable ?? false,
    suggestions: [],
  };
}

/** A short id for one failure: enough to find its log line among a day's, too short to mean anything. */
export function newErrorRef(): string {
  return randomBytes(3).toString('hex');
}

function withoutFinalStop(text: string): string {
  return text.replace(/[.!]\s*$/, '');
}

/**
 * The text a failure may show users wherever it is kept for them (a progress message, a job's or
 * run's stored error that `/pivot status` and `history` print): an error's `userMessage`, never its
 * internal message.
 *
 * @example await updateProgress(deps, channel, progress, { status: 'FAILED', error: userMessageOf(error) });
 */
export function userMessageOf(error: unknown): string {
  return error instanceof PivotbotError ? error.userMessage : INTERNAL_FAILURE_MESSAGE;
}
