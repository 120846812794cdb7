/**
 * The one error hierarchy. Every failure a user, an upstream or an operator can cause is a
 * `PivotbotError` with a stable `code`, a `userMessage` (the only text that may reach Slack),
 * `retryable`, and the underlying `cause`.
 */
export interface PivotbotErrorOptions {
  /** Text safe to show a Slack user; defaults to the message. Never holds a secret. */
  userMessage?: string;
  /** True when trying the same thing again later may succeed. */
  retryable?: boolean;
  cause?: unknown;
  /** Machine-readable specifics (field names, statuses); never secrets. */
  details?: Record<string, unknown>;
}

export class PivotbotError extends Error {
  readonly code: string;
  readonly userMessage: string;
  readonly retryable: boolean;
  readonly details: Record<string, unknown>;

  constructor(code: string, message: string, options: PivotbotErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.userMessage = options.userMessage ?? message;
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
    super('CONFIG_INVALID', message);
    this.problems = problems;
  }
}

/** A person asked for something that does not exist or is not allowed (unknown metric, bad range…). */
export class UserInputError extends PivotbotError {
  readonly suggestions: readonly string[];

  constructor(code: string, message: string, options: PivotbotErrorOptions & { suggestions?: readonly string[] } = {}) {
    super(code, message, options);
    this.suggestions = options.suggestions ?? [];
  }
}

/** Something that cannot happen happened: a bug, never a user's fault. */
export class InvariantError extends PivotbotError {
  constructor(message: string) {
    super('INVARIANT', message, { userMessage: 'pivotbot hit an internal error; it has been logged.' });
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
