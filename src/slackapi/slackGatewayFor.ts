/** The one way to build a `WebApiGateway`: a WebClient with the bot token, and the pacing it needs. */
import type { RetryOptions } from '@slack/web-api';
import webApi from '@slack/web-api';
import type { SlackConfig } from '../config/index.js';
import type { Logger } from '../core/index.js';
import type { BotMetrics } from '../metrics/index.js';
import { type Lane, type PacerClock, RatePacer } from './RatePacer.js';
import { type RateLimitSettings, SLACK_RATE_SETTINGS } from './rateLimits.js';
import { slackApiUrlOption } from './slackApiUrl.js';
import { WebApiGateway } from './WebApiGateway.js';
import { webClientLogger } from './webClientLogger.js';

/** Web API retries of 5xx and network errors: bounded (4 within a minute), unlike the SDK's 30-minute default. */
export const SLACK_RETRY = { retries: 4, factor: 2, minTimeout: 500, maxTimeout: 10_000, maxRetryTime: 60_000 };

/** How long the SDK waits for Slack's answer to one request. */
export const SLACK_TIMEOUT_MS = 30_000;

/** Connection errors before anything was sent: Slack cannot have acted on the request. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT']);

/**
 * Whether a failed Web API request may have reached Slack without its answer reaching us: it timed
 * out (a process frozen past the timeout times out on waking), or its connection broke after it
 * was sent. Slack answering an error (5xx, 429), or a connection refused, is not such a case.
 */
export function mayHaveReachedSlack(error: unknown): boolean {
  if (!(error instanceof webApi.WebAPIRequestError)) return false;
  const cause = (error.original as { cause?: { code?: unknown } }).cause;
  const code = typeof cause?.code === 'string' ? cause.code : undefined;
  return code === undefined || !NOT_SENT.has(code);
}

export interface GatewayOptions {
  retry?: typeof SLACK_RETRY;
  secrets?: readonly string[];
  /** The rate limits to pace to (default: Slack's, per minute); tests shorten the window. */
  rateLimits?: RateLimitSettings;
  /** How long a call may wait for its turn, per lane (default `MAX_WAIT_MS`). */
  maxWaitMs?: Partial<Record<Lane, number>>;
  clock?: PacerClock;
  /** Counts calls by method and outcome, 429s and the time waited for a turn. */
  metrics?: BotMetrics;
  /** How long a request waits for Slack's answer (default `SLACK_TIMEOUT_MS`; tests shorten it). */
  timeoutMs?: number;
}

/**
 * The gateway over a Web API client with the bot token: calls paced to Slack's rate limits
 * (`rateLimits.ts`), 429s counted and waited out per method (Retry-After) by the gateway rather
 * than by the SDK, which would pause every call, interactive ones too; 5xx and network errors
 * retried by the SDK, bounded (`SLACK_RETRY` unless `options.retry`), except a post whose request
 * may have reached Slack unanswered (`mayHaveReachedSlack`): sent again it could post twice, so it
 * fails and its caller's next attempt checks the channel first; and the SDK's own log lines (when
 * `options.secrets` is given) in our logger, scrubbed. The Slack app and `pivotbot run --post`
 * both use it.
 *
 * @example const slack = slackGatewayFor(config.slack, logger); await slack.post('C123', message);
 */
export function slackGatewayFor(slack: SlackConfig, logger: Logger, options: GatewayOptions = {}): WebApiGateway {
  const retry = options.retry ?? SLACK_RETRY;
  const clientFor = (retryConfig: RetryOptions) =>
    new webApi.WebClient(slack.botToken, {
      ...(options.secrets ? { logger: webClientLogger(logger, options.secrets) } : {}),
      ...slackApiUrlOption(slack.apiUrl),
      retryConfig,
      rejectRateLimitedCalls: true,
      timeout: options.timeoutMs ?? SLACK_TIMEOUT_MS,
    });
  // The SDK hands its retry options to p-retry, whose onFailedAttempt may end the retries by throwing.
  const postRetry: RetryOptions & { onFailedAttempt(error: Error): void } = {
    ...retry,
    onFailedAttempt(error) {
      if (mayHaveReachedSlack(error)) throw error;
    },
  };
  const pacer = new RatePacer(options.rateLimits ?? SLACK_RATE_SETTINGS, options.clock ? { clock: options.clock } : {});
  return new WebApiGateway(clientFor(retry), logger, fetch, {
    posts: clientFor(postRetry),
    pacer,
    ...(options.maxWaitMs ? { maxWaitMs: options.maxWaitMs } : {}),
    ...(options.metrics ? { metrics: options.metrics } : {}),
  });
}
