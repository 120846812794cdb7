/** The one way to build a `WebApiGateway`: a WebClient with the bot token, and the pacing it needs. */
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
}

/**
 * The gateway over a Web API client with the bot token: calls paced to Slack's rate limits
 * (`rateLimits.ts`), 429s counted and waited out per method (Retry-After) by the gateway rather
 * than by the SDK, which would pause every call, interactive ones too; 5xx and network errors
 * retried by the SDK, bounded (`SLACK_RETRY` unless `options.retry`); and the SDK's own log lines
 * (when `options.secrets` is given) in our logger, scrubbed. The Slack app and `pivotbot run
 * --post` both use it.
 *
 * @example const slack = slackGatewayFor(config.slack, logger); await slack.post('C123', message);
 */
export function slackGatewayFor(slack: SlackConfig, logger: Logger, options: GatewayOptions = {}): WebApiGateway {
  const client = new webApi.WebClient(slack.botToken, {
    ...(options.secrets ? { logger: webClientLogger(logger, options.secrets) } : {}),
    ...slackApiUrlOption(slack.apiUrl),
    retryConfig: options.retry ?? SLACK_RETRY,
    rejectRateLimitedCalls: true,
    timeout: 30_000,
  });
  const pacer = new RatePacer(options.rateLimits ?? SLACK_RATE_SETTINGS, options.clock ? { clock: options.clock } : {});
  return new WebApiGateway(client, logger, fetch, {
    pacer,
    ...(options.maxWaitMs ? { maxWaitMs: options.maxWaitMs } : {}),
    ...(options.metrics ? { metrics: options.metrics } : {}),
  });
}
