import type { GraphQLClient } from 'graphql-request';
import { CancelledError, type Logger, sleep } from '../core/index.js';
import type { BotMetrics } from '../metrics/index.js';
import {
  ReportingAuthError,
  ReportingError,
  ReportingGraphQLError,
  ReportingHttpError,
  ReportingNetworkError,
  ReportingResponseError,
  ReportingTimeoutError,
} from './errors.js';
import { parseJsonLossless } from './losslessJson.js';
import { DEFAULT_RETRY_POLICY, failureAction, type RetryPolicy } from './retryPolicy.js';
import { serverMessage, type TokenCache } from './tokenCache.js';

export interface TransportOptions {
  graphqlUrl: string;
  tokens: TokenCache;
  fetch?: typeof fetch;
  /** Timeout of one HTTP attempt. */
  timeoutMs?: number;
  retry?: RetryPolicy;
  random?: () => number;
  /** Waits between retries; must reject when `signal` aborts (the default, core's `sleep`, does). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  logger?: Logger;
  /** Counts each attempt by operation and outcome, its time, and the retries. */
  metrics?: BotMetrics;
}

export interface ExecuteOptions {
  /** Name used in errors and logs: `pivot`, `createAsyncPivot`… */
  operation: string;
  /** Queries are idempotent and retried; `createAsyncPivot` is not (each call makes a new job). */
  idempotent: boolean;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** false: a timed-out attempt is not retried (the caller's own deadline set `timeoutMs`). */
  retryTimeout?: boolean;
}

/**
 * Sends GraphQL documents with graphql-request: bearer token from the cache, a timeout on every
 * attempt, one token re-mint on 401, backoff with jitter on retryable failures of idempotent
 * operations, and every failure turned into a typed `ReportingError`.
 */
/**
 * graphql-request (and the graphql it loads, about 5 MiB of heap), imported by the first request:
 * the chart process imports this folder for the metric catalog and never sends one.
 */
let graphqlRequest: typeof import('graphql-request') | undefined;
async function loadGraphqlRequest(): Promise<typeof import('graphql-request')> {
  graphqlRequest ??= await import('graphql-request');
  return graphqlRequest;
}

export class GraphQLTransport {
  private client: GraphQLClient | undefined;
  private readonly policy: RetryPolicy;
  private readonly random: () => number;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;

  constructor(private readonly options: TransportOptions) {
    this.policy = options.retry ?? DEFAULT_RETRY_POLICY;
    this.random = options.random ?? Math.random;
    this.sleep = options.sleep ?? ((ms, signal) => sleep(ms, signal, 'retry backoff'));
  }

  private async graphqlClient(): Promise<GraphQLClient> {
    if (this.client === undefined) {
      const { GraphQLClient } = await loadGraphqlRequest();
      this.client ??= new GraphQLClient(this.options.graphqlUrl, {
        ...(this.options.fetch ? { fetch: this.options.fetch } : {}),
        jsonSerializer: { parse: parseJsonLossless, stringify: stringifyWithBigInt },
      });
    }
    return this.client;
  }

  /** Runs `document` and returns its `data`; throws a `ReportingError` on any failure. */
  async execute<T>(document: string, variables: Record<string, unknown>, options: ExecuteOptions): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.attemptWithReauth<T>(document, variables, options);
      } catch (error) {
        const action = failureAction(error, attempt, options.idempotent, this.policy, this.random);
        const timeoutFinal = options.retryTimeout === false && error instanceof ReportingTimeoutError;
        if (!action.retry || options.signal?.aborted || timeoutFinal) throw error;
        this.options.metrics?.reporting.retries.inc({ operation: options.operation });
        this.options.logger?.warn(
          { operation: options.operation, attempt: attempt + 1, delayMs: action.delayMs, err: error },
          'reporting call failed; retrying',
        );
        // Shutdown does not wait for a backoff: the wait rejects with CancelledError.
        await this.sleep(action.delayMs, options.signal);
      }
    }
  }

  /**
   * One attempt; a 401 or 403 re-mints the token once and repeats the request once (the real
   * service's answer to an expired token is not documented: "handle any 401, and probably 403, by
   * re-minting once", reporting-service-facts).
   */
  private async attemptWithReauth<T>(document: string, variables: Record<string, unknown>, options: ExecuteOptions) {
    const token = await this.options.tokens.get(options.signal);
    try {
      return await this.attempt<T>(document, variables, token, options);
    } catch (error) {
      if (!(error instanceof ReportingHttpError) || (error.status !== 401 && error.status !== 403)) throw error;
      this.options.logger?.info(
        { operation: options.operation, status: error.status },
        'reporting token refused; minting a new one',
      );
      this.options.tokens.invalidate(token);
      const fresh = await this.options.tokens.get(options.signal);
      return await this.attempt<T>(document, variables, fresh, options);
    }
  }

  /** `send`, timed and counted by its outcome when there are metrics. */
  private async attempt<T>(
    document: string,
    variables: Record<string, unknown>,
    token: string,
    options: ExecuteOptions,
  ): Promise<T> {
    const metrics = this.options.metrics?.reporting;
    if (!metrics) return this.send<T>(document, variables, token, options);
    const { operation } = options;
    const stop = metrics.requestSeconds.startTimer({ operation });
    try {
      const data = await this.send<T>(document, variables, token, options);
      metrics.requests.inc({ operation, outcome: 'ok' });
      return data;
    } catch (error) {
      metrics.requests.inc({ operation, outcome: requestOutcome(error) });
      throw error;
    } finally {
      stop();
    }
  }

  private async send<T>(
    document: string,
    variables: Record<string, unknown>,
    token: string,
    options: ExecuteOptions,
  ): Promise<T> {
    const timeoutMs = options.timeoutMs ?? this.options.timeoutMs ?? 60_000;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    const onAbort = () => controller.abort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    // A signal aborted before this attempt fires no event: abort at once instead of waiting the timeout.
    if (options.signal?.aborted) controller.abort();
    const where = `POST ${new URL(this.options.graphqlUrl).pathname}`;
    try {
      const client = await this.graphqlClient();
      const response = await client.rawRequest<T>({
        query: document,
        variables,
        requestHeaders: { authorization: `Bearer ${token}` },
        signal: controller.signal,
      });
      if (response.data === null || typeof response.data !== 'object') {
        throw new ReportingResponseError(`${where} (${options.operation}) answered without data`);
      }
      return response.data;
    } catch (error) {
      if (error instanceof ReportingError) throw error;
      if (controller.signal.aborted) {
        // Cancelled is no timeout: callers that fall back to an async job on a timeout must not on shutdown.
        if (options.signal?.aborted) throw new CancelledError(`${where} (${options.operation})`);
        throw new ReportingTimeoutError(`${where} (${options.operation})`, timeoutMs);
      }
      throw toReportingError(error, where, options.operation, this.options.graphqlUrl);
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    }
  }
}

/**
 * A failed attempt's `outcome` label: a few bounded words (`http_5xx`, `timeout`…), never the
 * server's message.
 *
 * @example requestOutcome(new ReportingTimeoutError('POST /v1/graphql (pivot)', 1000)); // 'timeout'
 */
export function requestOutcome(error: unknown): string {
  if (error instanceof CancelledError) return 'cancelled';
  if (error instanceof ReportingHttpError) {
    if (error.status === 429) return 'http_429';
    return error.status >= 500 ? 'http_5xx' : 'http_4xx';
  }
  if (error instanceof ReportingAuthError) return 'auth';
  if (error instanceof ReportingGraphQLError) return 'graphql';
  if (error instanceof ReportingTimeoutError) return 'timeout';
  if (error instanceof ReportingNetworkError) return 'network';
  if (error instanceof ReportingResponseError) return 'response';
  return 'error';
}

/** Maps what graphql-request and fetch throw to our typed errors. */
function toReportingError(error: unknown, where: string, operation: string, url: string): ReportingError {
  // A ClientError can only come from graphql-request once it is loaded.
  if (graphqlRequest !== undefined && error instanceof graphqlRequest.ClientError) {
    const { status, errors, body } = error.response as {
      status: number;
      errors?: Array<{ message?: unknown }>;
      body?: string;
    };
    const messages = (errors ?? []).map((e) => (typeof e.message === 'string' ? e.message : JSON.stringify(e)));
    if (status >= 200 && status < 300) {
      if (messages.length > 0) return new ReportingGraphQLError(operation, messages);
      return new ReportingResponseError(`${where} (${operation}) answered an unreadable body`);
    }
    const message = messages.length > 0 ? messages.join('; ') : bodyMessage(body);
    // A 404 here is the endpoint itself missing (the CSV download's 404 is another matter).
    return new ReportingHttpError(
      'POST',
      url,
      status,
      message,
      status === 404
        ? {
            userMessage:
              'The Reporting Service has nothing at the configured address (HTTP 404); an admin should check REPORTING_GRAPHQL_URL, which ends in /v1/graphql.',
          }
        : {},
    );
  }
  if (error instanceof SyntaxError) {
    return new ReportingResponseError(`${where} (${operation}) answered a body that is not valid JSON (truncated?)`, {
      cause: error,
    });
  }
  if (error instanceof TypeError) return new ReportingNetworkError(`${where} (${operation})`, error);
  if (error instanceof Error && /GraphQL|response|Invalid execution result/i.test(error.message)) {
    return new ReportingResponseError(`${where} (${operation}) answered an unexpected body: ${error.message}`, {
      cause: error,
    });
  }
  return new ReportingNetworkError(`${where} (${operation})`, error);
}

function bodyMessage(body: string | undefined): string | undefined {
  if (!body) return undefined;
  try {
    return serverMessage(JSON.parse(body));
  } catch {
    return body.length <= 200 ? body.trim() : undefined;
  }
}

function stringifyWithBigInt(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
}
