import type { SlackConfig } from '../../config/index.js';
import { ConfigError, type Logger, toError } from '../../core/index.js';
import { ACTION_IDS, type ReportActionValue } from '../../render/index.js';
import type { LoadedReports } from '../../reports/index.js';
import { isReplicaStore, type Store, storeHealth } from '../../store/index.js';
import type { RateLimitSettings, SlackGateway } from '../api/index.js';
import { boltLogSink, SLACK_RETRY, slackGatewayFor, verifySlackToken, type WebApiGateway } from '../api/index.js';
import type { BotIdentity } from '../receiver/index.js';
import {
  defaultReceiverEntry,
  type ReceiverSettings,
  RecentKeys,
  type SlackEvent,
  type StartedReceiver,
  startReceiver,
  startThreadedReceiver,
  type ViewSubmission,
} from '../receiver/index.js';
import { alertAction } from './alertActions.js';
import { converse } from './Conversation.js';
import type { PivotCommands } from './PivotCommands.js';
import { homeView, recentRuns } from './screens/homeView.js';
import { noticeMessage } from './screens/infoMessages.js';
import { scheduleOverview } from './screens/scheduleMessages.js';
import { unwatchName } from './screens/watchesSection.js';

export interface SlackAppOptions {
  slack: SlackConfig;
  port: number;
  /** Builds the command handler once the gateway to Slack exists. */
  commands: (gateway: SlackGateway) => PivotCommands;
  /** For App Home. */
  home: { store: Store; loadReports: () => Promise<LoadedReports>; timezone: string; sandbox: boolean };
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
 * default) acknowledges and hands each event here; this thread de-duplicates it and passes it to
 * `PivotCommands`, and owns every Web API call.
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
  });
  const commands = options.commands(gateway);
  const bot: BotIdentity = {
    ...(identity.botUserId ? { botUserId: identity.botUserId } : {}),
    ...(identity.botId ? { botId: identity.botId } : {}),
  };
  const handle = acrossReplicas(eventHandler({ commands, gateway, home: options.home, logger, track, bot }), {
    store: options.home.store,
    logger,
    track,
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
    event: handle,
    // Answered in the ack: checked here (pure compile, one store write for a saved query).
    submit: (submission: ViewSubmission) => commands.modals.submit(submission, track),
    log: boltLogSink(logger),
    health: async () => ({
      inFlight: inFlight.size,
      receiver: entry ? 'thread' : 'inline',
      store: await storeHealth(options.home.store),
    }),
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

/** The key a repeat of this request carries (as `eventHandler` checks it), or undefined for requests that are not de-duplicated. */
function repeatKey(event: SlackEvent): string | undefined {
  switch (event.type) {
    case 'command':
      return `cmd:${event.triggerId || `${event.userId}:${event.text}:${event.responseUrl}`}`;
    case 'reportAction':
    case 'alertAction':
      return `act:${event.triggerId}:${event.actionId}`;
    case 'scheduleThis':
      return `act:${event.triggerId}:${event.watch ? 'watch' : 'schedule'}`;
    case 'unwatchClick':
      return `act:${event.triggerId}:unwatch`;
    case 'message':
      // A retry, and the message event Slack sends beside an app_mention, share channel and ts.
      return `msg:${event.channelId}:${event.ts}`;
    default:
      return undefined;
  }
}

/**
 * Several replicas on one PostgreSQL database (a `ReplicaStore`): Slack's retry of a request
 * may reach another replica than the first delivery, so the database decides what was seen
 * (`RecentKeys.seenBefore`) before the handler runs. One process: the handler as it is.
 */
function acrossReplicas(
  handle: (event: SlackEvent) => void,
  deps: { store: Store; logger: Logger; track: (work: Promise<unknown>) => void },
): (event: SlackEvent) => void {
  if (!isReplicaStore(deps.store)) return handle;
  const seen = new RecentKeys(undefined, undefined, undefined, deps.store.leases);
  return (event) => {
    const key = repeatKey(event);
    if (key === undefined) return handle(event);
    deps.track(
      seen.seenBefore(key).then((repeat) => {
        if (repeat) deps.logger.info({ type: event.type }, 'repeated Slack request ignored');
        else handle(event);
      }),
    );
  };
}

interface HandlerDeps {
  commands: PivotCommands;
  gateway: SlackGateway;
  home: SlackAppOptions['home'];
  logger: Logger;
  track: (work: Promise<unknown>) => void;
  bot: BotIdentity;
}

/**
 * What happens after an acknowledgement: a request Slack delivered twice (a retry, a double
 * click) is dropped, the rest goes to `PivotCommands` or App Home. Never throws.
 */
function eventHandler({ commands, gateway, home, logger, track, bot }: HandlerDeps): (event: SlackEvent) => void {
  const recent = new RecentKeys();
  return (event) => {
    switch (event.type) {
      case 'command': {
        const key = event.triggerId || `${event.userId}:${event.text}:${event.responseUrl}`;
        if (recent.checkAndRemember(`cmd:${key}`)) {
          logger.info({ userId: event.userId }, 'repeated slash command ignored');
          return;
        }
        track(
          commands.execute(event.text, {
            userId: event.userId,
            channelId: event.channelId,
            responseUrl: event.responseUrl,
            ...(event.triggerId ? { triggerId: event.triggerId } : {}),
          }),
        );
        return;
      }
      case 'reportAction': {
        if (recent.checkAndRemember(`act:${event.triggerId}:${event.actionId}`)) {
          logger.info({ userId: event.userId, actionId: event.actionId }, 'repeated button click ignored');
          return;
        }
        const { channelId, responseUrl } = event;
        if (!channelId || !responseUrl) {
          // Nowhere to post the result (or its errors): the clicker hears so wherever Slack allows.
          logger.warn(
            { userId: event.userId, actionId: event.actionId, channelId, hasResponseUrl: responseUrl !== undefined },
            'button click without a channel or response URL: not run',
          );
          const note = noticeMessage(
            'I could not tell which channel that button is in, so nothing ran; run the command again in the channel.',
          );
          track(
            responseUrl
              ? gateway.respond(responseUrl, note)
              : channelId
                ? gateway.ephemeral(channelId, event.userId, note)
                : gateway.post(event.userId, note),
          );
          return;
        }
        const value = parseActionValue(event.value);
        if (!value) {
          track(
            gateway.respond(
              responseUrl,
              noticeMessage('That button is from an older pivotbot version; run the command again.'),
            ),
          );
          return;
        }
        if (event.actionId === ACTION_IDS.explain) {
          // The explanation goes into the answer's thread (or the thread the answer is in).
          track(
            commands.explainClick(
              {
                reportId: value.reportId,
                ...(value.query !== undefined ? { query: value.query } : {}),
                ...(value.range ? { range: value.range } : {}),
              },
              {
                userId: event.userId,
                channelId,
                responseUrl,
                triggerId: event.triggerId,
                ...((event.threadTs ?? event.messageTs) ? { threadTs: event.threadTs ?? event.messageTs } : {}),
              },
            ),
          );
          return;
        }
        const range = event.actionId.startsWith(ACTION_IDS.rangePrefix)
          ? event.actionId.slice(ACTION_IDS.rangePrefix.length)
          : value.range;
        const csv = event.actionId === ACTION_IDS.csv;
        // A result that is itself a reply (an async run's, in its progress thread): the CSV goes
        // into that thread, never under the reply (Slack: "never use a reply's ts").
        const threadTs = csv ? (event.threadTs ?? event.messageTs) : undefined;
        track(
          commands.button(
            {
              reportId: value.reportId,
              ...(value.query !== undefined ? { query: value.query } : {}),
              ...(range ? { range } : {}),
              csv,
            },
            {
              userId: event.userId,
              channelId,
              responseUrl,
              triggerId: event.triggerId,
              ...(threadTs ? { threadTs } : {}),
            },
          ),
        );
        return;
      }
      case 'scheduleThis':
        if (recent.checkAndRemember(`act:${event.triggerId}:${event.watch ? 'watch' : 'schedule'}`)) return;
        track(event.watch ? commands.modals.watchThis(event) : commands.modals.scheduleThis(event));
        return;
      case 'modalAction':
        track(commands.modals.update(event));
        return;
      case 'alertAction':
        if (recent.checkAndRemember(`act:${event.triggerId}:${event.actionId}`)) return;
        track(
          alertAction(event, {
            slack: gateway,
            store: home.store,
            loadReports: home.loadReports,
            logger,
            clock: () => new Date(),
            defaultTimeZone: home.timezone,
          }),
        );
        return;
      case 'message': {
        const { type: _type, retryNum, ...message } = event;
        if (recent.checkAndRemember(`msg:${message.channelId}:${message.ts}`)) {
          logger.info({ channel: message.channelId, retryNum }, 'repeated Slack message ignored');
          return;
        }
        track(converse(message, { commands, slack: gateway, logger, bot }));
        return;
      }
      case 'unwatchClick':
        if (recent.checkAndRemember(`act:${event.triggerId}:unwatch`)) return;
        track(
          commands
            .unwatchClick({
              name: unwatchName(event.value),
              userId: event.userId,
              ...(event.responseUrl ? { responseUrl: event.responseUrl } : {}),
            })
            .then(() => (event.fromHome ? publishHome(event.userId) : undefined)),
        );
        return;
      case 'homeOpened':
        track(publishHome(event.userId));
        return;
    }
  };

  /** App Home for one user (the watches' Remove buttons only for admins). Never throws. */
  async function publishHome(userId: string): Promise<void> {
    try {
      const reports = await home.loadReports();
      const view = homeView({
        reports,
        schedules: scheduleOverview({
          reports,
          subscriptions: home.store.subscriptions.list(),
          runs: home.store.runs,
          timezone: home.timezone,
          now: new Date(),
        }),
        alerts: await commands.alertsMessage(userId),
        timezone: home.timezone,
        sandbox: home.sandbox,
        recentRuns: recentRuns(home.store.runs, reports, home.store.subscriptions.list()),
        incidents: home.store.incidents,
      });
      await gateway.publishHome(userId, view);
    } catch (error) {
      logger.warn({ err: error }, 'App Home could not be published');
    }
  }
}

/** A button's value: `{ reportId, range?, query? }` as JSON; undefined when unreadable. */
export function parseActionValue(raw: string | undefined): (ReportActionValue & { query?: string }) | undefined {
  if (!raw) return undefined;
  try {
    const value = JSON.parse(raw) as Record<string, unknown>;
    if (typeof value.reportId !== 'string') return undefined;
    return {
      reportId: value.reportId,
      ...(typeof value.range === 'string' ? { range: value.range } : {}),
      ...(typeof value.query === 'string' ? { query: value.query } : {}),
    };
  } catch {
    return undefined;
  }
}
