import { ErrorCode } from './errorCodes.js';

/**
 * The one error hierarchy. Every failure a user, an upstream or an operator can cause is a
 * `PivotbotError` with a stable `code`, a `userMessage` (the only text that may reach Slack),
 * `retryable`, and the underlying `cause`.
 */
export interface PivotbotErrorOptions {
  /**
   * Text written for a Slack user: what failed in their terms and what they can do. Never holds a
   * secret, a path or an upstream's raw text. Without it users see `INTERNAL_FAILURE_MESSAGE` with a
   * reference to the log line (see describeFailure), never the internal message.
   */
  userMessage?: string;
  /** True when trying the same thing again later may succeed. */
  retryable?: boolean;
  cause?: unknown;
  /** Machine-readable specifics (field names, statuses); never secrets. */
  details?: Record<string, unknown>;
}

/** What a user is told about a failure that has no text written for them. */
export const INTERNAL_FAILURE_MESSAGE = 'Something went wrong on pivotbot’s side.';

export class PivotbotError extends Error {
  /** From the one list (`ErrorCode`); stable: stored in run records and named in docs. */
  readonly code: ErrorCode;
  /** The only text that may reach Slack; `INTERNAL_FAILURE_MESSAGE` unless one was written for users. */
  readonly userMessage: string;
  /** True when `userMessage` was written for users, false when it is the generic text. */
  readonly explained: boolean;
  readonly retryable: boolean;
  readonly details: Record<string, unknown>;

  constructor(code: ErrorCode, message: string, options: PivotbotErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.explained = options.userMessage !== undefined;
    this.userMessage = options.userMessage ?? INTERNAL_FAILURE_MESSAGE;
    this.retryable = options.retryable ?? false;
    this.details = options.details ?? {};
  }
}

/** Configuration (environment, flags) is missing or wrong; start-up stops with this message. */
export class ConfigError extends PivotbotError {
  /** Each problem names its variable, e.g. `PORT: "abc" is not a port number (1-65535)`. */
  readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    const message =
      problems.length === 1
        ? `Invalid configuration: ${problems[0]}`
        : `Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`;
    super(ErrorCode.ConfigInvalid, message);
    this.problems = problems;
  }
}

/**
 * A person asked for something that does not exist or is not allowed (unknown metric, bad range…).
 * Its message is written for that person, so it is also the `userMessage` unless one is given.
 */
export class UserInputError extends PivotbotError {
  readonly suggestions: readonly string[];

  constructor(
    code: ErrorCode,
    message: string,
    options: PivotbotErrorOptions & { suggestions?: readonly string[] } = {},
  ) {
    super(code, message, { ...options, userMessage: options.userMessage ?? message });
    this.suggestions = options.suggestions ?? [];
  }
}

/** Something that cannot happen happened: a bug, never a user's fault. */
export class InvariantError extends PivotbotError {
  constructor(message: string) {
    super(ErrorCode.Invariant, message);
  }
}

/** Asserts what cannot happen; use typed errors for anything users, upstreams or operators cause. */
export function invariant(condition: unknown, message: string): asserts condition {
  if (!condition) throw new InvariantError(message);
}

/** Narrows anything thrown to an Error, so callers can log `.message` safely. */
export function toError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}
