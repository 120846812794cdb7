import type { SlackConfig } from '../../config/index.js';
import { ConfigError, type Logger, toError } from '../../core/index.js';
import type { BotMetrics } from '../../metrics/index.js';
import type { RateLimitSettings, SlackGateway } from '../../slackapi/index.js';
import { SLACK_RETRY, slackGatewayFor, verifySlackToken, type WebApiGateway } from '../../slackapi/index.js';
import { isReplicaStore, storeHealth } from '../../store/index.js';
import {
  type BotIdentity,
  defaultReceiverEntry,
  type ReceiverSettings,
  type ReceiverSink,
  receiverLogSinks,
  type StartedReceiver,
  startReceiver,
  startThreadedReceiver,
} from '../receiver/index.js';
import type { HomeDeps } from './appHome.js';
import type { PivotCommands } from './PivotCommands.js';
import { slackRouter } from './router.js';

export interface SlackAppOptions {
  slack: SlackConfig;
  port: number;
  /** Builds the command handler once the gateway to Slack exists. */
  commands: (gateway: SlackGateway) => PivotCommands;
  /** For App Home. */
  home: HomeDeps;
  logger: Logger;
  secrets: readonly string[];
  /** Web API retries: bounded, unlike the SDK's 30-minute default. */
  retry?: { retries: number; minTimeout: number; maxTimeout: number; maxRetryTime: number };
  /** The rate limits the gateway paces to (default Slack's, per minute; tests shorten the window). */
  rateLimits?: RateLimitSettings;
  /**
   * The compiled receiver-thread entry (`receiverThread.js`); `false` receives in this thread. By
   * default the entry beside this module, or this thread when running from the TypeScript sources.
   */
  receiverThread?: URL | false;
  /** Served as `GET /metrics`; the receiver's ack times and the gateway's calls are recorded in it. */
  metrics?: BotMetrics;
}

export interface RunningSlackApp {
  gateway: WebApiGateway;
  /** The HTTP port (HTTP mode), or undefined in Socket Mode. */
  port: number | undefined;
  /** Stops the receiver, then waits for in-flight work (up to `graceMs`). */
  stop(graceMs?: number): Promise<void>;
}

/**
 * The Slack app: `/pivot`, buttons and App Home, over HTTP (`/slack/events`, signatures verified,
 * `GET /healthz`) or Socket Mode when an app token is configured. The receiver (its own thread by
 * default) acknowledges and hands each input here, to the router (`router.ts`), which runs it once
 * with its handler; this thread owns every Web API call.
 *
 * @example const running = await startSlackApp({ slack: config.slack, port: config.port, commands, home, logger, secrets });
 */
export async function startSlackApp(options: SlackAppOptions): Promise<RunningSlackApp> {
  const { slack, logger } = options;
  const identity = await verifySlackToken(slack, logger);
  const inFlight = new Set<Promise<unknown>>();
  const track = (work: Promise<unknown>) => {
    const settled = work.catch((error: unknown) => logger.warn({ err: toError(error) }, 'Slack work failed'));
    inFlight.add(settled);
    void settled.finally(() => inFlight.delete(settled));
  };
  const retry = { ...SLACK_RETRY, ...options.retry };
  const gateway = slackGatewayFor(slack, logger, {
    retry,
    secrets: options.secrets,
    ...(options.rateLimits ? { rateLimits: options.rateLimits } : {}),
    ...(options.metrics ? { metrics: options.metrics } : {}),
  });
  const commands = options.commands(gateway);
  const bot: BotIdentity = {
    ...(identity.botUserId ? { botUserId: identity.botUserId } : {}),
    ...(identity.botId ? { botId: identity.botId } : {}),
  };
  // Several replicas on one PostgreSQL database (a `ReplicaStore`): the database decides which of
  // them saw a request first.
  const store = options.home.store;
  const shared = isReplicaStore(store) ? store.leases : undefined;
  const router = slackRouter({
    commands,
    gateway,
    home: options.home,
    logger,
    track,
    bot,
    ...(shared ? { shared } : {}),
  });

  const settings: ReceiverSettings = {
    botToken: slack.botToken,
    ...(identity.botUserId ? { botUserId: identity.botUserId } : {}),
    ...(identity.botId ? { botId: identity.botId } : {}),
    ...(slack.signingSecret ? { signingSecret: slack.signingSecret } : {}),
    ...(slack.appToken ? { appToken: slack.appToken } : {}),
    ...(slack.apiUrl ? { apiUrl: slack.apiUrl } : {}),
    port: options.port,
    secrets: options.secrets,
    logLevel: logger.level,
  };
  const entry = options.receiverThread === undefined ? defaultReceiverEntry() : options.receiverThread || undefined;
  const sink = {
    event: router.event,
    // Answered in the ack: checked here (pure compile, one store write for a saved query).
    submit: router.submit,
    ...receiverLogSinks(logger),
    health: async () => ({
      inFlight: inFlight.size,
      receiver: entry ? 'thread' : 'inline',
      store: await storeHealth(options.home.store),
    }),
    ...metricsSink(options.metrics),
  };
  const receiver: StartedReceiver = await (entry
    ? startThreadedReceiver(entry, settings, sink, logger)
    : startReceiver(settings, sink)
  ).catch((error: unknown) => {
    throw receiverStartError(error, slack);
  });
  logger.info(
    { mode: slack.appToken ? 'socket' : 'http', port: receiver.port, receiverThread: entry !== undefined },
    'pivotbot is listening to Slack',
  );
  return {
    gateway,
    port: receiver.port,
    async stop(graceMs = 10_000) {
      await receiver.stop();
      let timer: NodeJS.Timeout | undefined;
      const grace = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, graceMs);
      });
      try {
        await Promise.race([Promise.allSettled([...inFlight]), grace]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

/** The receiver's ack times recorded in `metrics`, and `GET /metrics` answered from it. */
function metricsSink(metrics: BotMetrics | undefined): Pick<ReceiverSink, 'ack' | 'metrics'> {
  if (!metrics) return {};
  return {
    ack: (kind, seconds) => metrics.slack.ackSeconds.observe({ kind }, seconds),
    metrics: () => metrics.exposition(),
  };
}

/** Slack's answers to apps.connections.open that mean the app-level token is no good. */
const BAD_APP_TOKEN = /\b(invalid_auth|not_authed|not_allowed_token_type|token_revoked|account_inactive)\b/;

/** A receiver that could not start, as an error an operator can act on. */
function receiverStartError(error: unknown, slack: SlackConfig): Error {
  const message = toError(error).message;
  const refused = slack.appToken ? BAD_APP_TOKEN.exec(message) : null;
  if (refused) {
    return new ConfigError([
      `SLACK_APP_TOKEN: Slack refused the app-level token (${refused[1]}); create one with the connections:write scope under Basic Information → App-Level Tokens`,
    ]);
  }
  return toError(error);
}
