import { ErrorCode, PivotbotError, type PivotbotErrorOptions, UserInputError } from '../core/index.js';

/** Base of every failure talking to the Reporting Service. */
export class ReportingError extends PivotbotError {}

/** The service answered with an HTTP status we cannot use: `POST /v1/graphql answered 503`. */
export class ReportingHttpError extends ReportingError {
  readonly status: number;
  readonly serverMessage: string | undefined;

  constructor(method: string, url: string, status: number, serverMessage?: string, options: PivotbotErrorOptions = {}) {
    const where = `${method} ${pathOf(url)}`;
    super(ErrorCode.ReportingHttp, `${where} answered ${status}${serverMessage ? `: ${serverMessage}` : ''}`, {
      retryable: status >= 500 || status === 429,
      userMessage:
        status >= 500 || status === 429
          ? 'The Reporting Service is having trouble right now; try again in a few minutes.'
          : `The Reporting Service refused the request (HTTP ${status}).`,
      ...options,
      details: { status, url: pathOf(url), ...options.details },
    });
    this.status = status;
    this.serverMessage = serverMessage;
  }
}

/** The token endpoint refused or failed: wrong credentials, bad request, outage. */
export class ReportingAuthError extends ReportingError {
  readonly status: number | undefined;

  constructor(message: string, status?: number, options: PivotbotErrorOptions = {}) {
    super(ErrorCode.ReportingAuth, message, {
      retryable: status === undefined || status >= 500,
      userMessage:
        status !== undefined && status < 500
          ? 'pivotbot could not sign in to the Reporting Service; an admin should check REPORTING_CLIENT_ID and REPORTING_CLIENT_SECRET.'
          : 'pivotbot could not reach the Reporting Service sign-in; try again in a few minutes.',
      ...options,
    });
    this.status = status;
  }
}

/**
 * The wording of GraphQL's own request validation (graphql-js, and graphql-core which mirrors it):
 * the request itself is wrong, and sending it again cannot help.
 */
const REQUEST_INVALID =
  /^(Syntax Error|Cannot query field|Unknown (argument|type|directive|fragment)|Field "[^"]*" (argument|of type)|Variable "\$|Argument "|Expected (type|value)|Enum "|(Int|Float|String|Boolean|ID) cannot represent)/;

/**
 * The GraphQL layer answered `errors[]`. The server's messages are kept verbatim in `messages` and
 * the message (for the log); users get a sentence of ours, since the server's text may be a
 * database's (the sandbox passes DuckDB's through). The real service gives these errors no codes
 * (reporting-service-facts: "branch on status and message"), and a server-side failure (an internal
 * error, a query timeout) comes back this way too: so it is retryable, unless every message is
 * GraphQL's own validation of the request.
 */
export class ReportingGraphQLError extends ReportingError {
  readonly messages: readonly string[];

  constructor(operation: string, messages: readonly string[], options: PivotbotErrorOptions = {}) {
    const joined = messages.join('; ');
    super(ErrorCode.ReportingGraphQL, `${operation} failed: ${joined}`, {
      userMessage: `The Reporting Service could not answer this ${operation}; the details are in pivotbot's log.`,
      retryable: !messages.every((m) => REQUEST_INVALID.test(m)),
      ...options,
    });
    this.messages = messages;
  }
}

/** The service answered something that is not what the protocol promises: non-JSON, truncated, wrong shape. */
export class ReportingResponseError extends ReportingError {
  constructor(message: string, options: PivotbotErrorOptions = {}) {
    super(ErrorCode.ReportingBadResponse, message, {
      retryable: true,
      userMessage: 'The Reporting Service sent an unreadable answer; try again in a few minutes.',
      ...options,
    });
  }
}

/** A call took longer than its timeout. */
export class ReportingTimeoutError extends ReportingError {
  constructor(what: string, timeoutMs: number, options: PivotbotErrorOptions = {}) {
    super(ErrorCode.ReportingTimeout, `${what} timed out after ${timeoutMs} ms`, {
      retryable: true,
      userMessage: 'The Reporting Service took too long to answer; try a shorter range or run it async.',
      ...options,
    });
  }
}

/** The connection failed before any answer: refused, reset, DNS. */
export class ReportingNetworkError extends ReportingError {
  constructor(what: string, cause: unknown) {
    const reason = cause instanceof Error ? (causeMessage(cause) ?? cause.message) : String(cause);
    super(ErrorCode.ReportingNetwork, `${what} failed: ${reason}`, {
      retryable: true,
      cause,
      userMessage: 'pivotbot could not reach the Reporting Service; try again in a few minutes.',
    });
  }
}

/**
 * An async pivot ended in FAILED (the service gives no reason). Retryable: a later attempt makes a
 * new job (this one is over, so no duplicate), as a digest's schedule.retry does.
 */
export class AsyncPivotFailedError extends ReportingError {
  constructor(pivotId: string) {
    super(ErrorCode.AsyncPivotFailed, `async pivot ${pivotId} ended in FAILED`, {
      retryable: true,
      userMessage: `The report job ${pivotId} failed on the Reporting Service. Run it again; if it keeps failing, shorten the range.`,
      details: { pivotId },
    });
  }
}

/** A request is invalid against the catalog (unknown metric, forbidden combination…); nothing was sent. */
export class PivotValidationError extends UserInputError {
  /** Where in the request: `metrics[2]`, `filter.countryCode`, `dimensions[0].args.granularity`. */
  readonly path: string;

  constructor(path: string, message: string, suggestions: readonly string[] = []) {
    super(ErrorCode.PivotInvalid, message, { suggestions, details: { path } });
    this.path = path;
  }
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}

function causeMessage(error: Error): string | undefined {
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof Error) return cause.message;
  return undefined;
}
