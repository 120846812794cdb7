import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { App as BoltApp } from '@slack/bolt';
import bolt from '@slack/bolt';
import type { SlackConfig } from '../config/index.js';
import { type Logger, toError } from '../core/index.js';
import { ACTION_IDS, RANGE_ACTION_PATTERN, type ReportActionValue } from '../render/index.js';
import type { LoadedReports } from '../reports/index.js';
import type { Store } from '../store/index.js';
import { boltLogger } from './boltLogger.js';
import { RecentKeys } from './dedupe.js';
import { homeView } from './homeView.js';
import { noticeMessage } from './infoMessages.js';
import type { PivotCommands } from './PivotCommands.js';
import { SLACK_RETRY, type SlackGateway, WebApiGateway } from './SlackGateway.js';

const { App } = bolt;

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
}

export interface RunningSlackApp {
  app: BoltApp;
  gateway: WebApiGateway;
  /** The HTTP port (HTTP mode), or undefined in Socket Mode. */
  port: number | undefined;
  /** Waits for in-flight work (up to `graceMs`) and stops the receiver. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * The Bolt app: `/pivot`, buttons and App Home, over HTTP (`/slack/events`, signatures verified,
 * `GET /healthz`) or Socket Mode when an app token is configured. Handlers only acknowledge,
 * de-duplicate and hand the text to `PivotCommands`.
 *
 * @example const running = await startSlackApp({ slack: config.slack, port: config.port, commands, home, logger, secrets });
 */
export async function startSlackApp(options: SlackAppOptions): Promise<RunningSlackApp> {
  const { slack, logger } = options;
  const socketMode = slack.appToken !== undefined;
  const inFlight = new Set<Promise<unknown>>();
  const track = (work: Promise<unknown>) => {
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work));
  };
  const app = new App({
    token: slack.botToken,
    logger: boltLogger(logger, options.secrets),
    ...(socketMode
      ? { socketMode: true, appToken: slack.appToken as string }
      : {
          signingSecret: slack.signingSecret as string,
          port: options.port,
          customRoutes: [
            {
              path: '/healthz',
              method: ['GET'],
              handler: (_req, res) => {
                res.writeHead(200, { 'content-type': 'application/json' });
                res.end(JSON.stringify({ ok: true, inFlight: inFlight.size }));
              },
            },
          ],
        }),
    clientOptions: {
      ...(slack.apiUrl ? { slackApiUrl: slack.apiUrl.endsWith('/') ? slack.apiUrl : `${slack.apiUrl}/` } : {}),
      retryConfig: { ...SLACK_RETRY, ...options.retry },
      rejectRateLimitedCalls: false,
      timeout: 30_000,
    },
  });
  const gateway = new WebApiGateway(app.client, logger);
  const commands = options.commands(gateway);
  const recent = new RecentKeys();

  app.command('/pivot', async ({ command, ack }) => {
    await ack();
    const key = command.trigger_id || `${command.user_id}:${command.text}:${command.response_url}`;
    if (recent.checkAndRemember(`cmd:${key}`)) {
      logger.info({ userId: command.user_id }, 'repeated slash command ignored');
      return;
    }
    track(
      commands.execute(command.text ?? '', {
        userId: command.user_id,
        channelId: command.channel_id,
        responseUrl: command.response_url,
        ...(command.trigger_id ? { triggerId: command.trigger_id } : {}),
      }),
    );
  });

  const reportAction = new RegExp(
    `^(${ACTION_IDS.rerun}|${ACTION_IDS.csv}|${RANGE_ACTION_PATTERN.source.slice(1)}.+)$`,
  );
  app.action(reportAction, async ({ ack, body, action }) => {
    await ack();
    if (body.type !== 'block_actions') return;
    const button = action as { action_id: string; value?: string };
    if (recent.checkAndRemember(`act:${body.trigger_id}:${button.action_id}`)) return;
    const channelId = body.channel?.id ?? body.container?.channel_id;
    const responseUrl = body.response_url;
    if (!channelId || !responseUrl) return;
    const ctx = { userId: body.user.id, channelId, responseUrl, triggerId: body.trigger_id };
    const value = parseActionValue(button.value);
    if (!value) {
      track(
        gateway.respond(
          responseUrl,
          noticeMessage('That button is from an older pivotbot version; run the command again.'),
        ),
      );
      return;
    }
    const range = button.action_id.startsWith(ACTION_IDS.rangePrefix)
      ? button.action_id.slice(ACTION_IDS.rangePrefix.length)
      : value.range;
    const csv = button.action_id === ACTION_IDS.csv;
    const threadTs = csv ? body.message?.ts : undefined;
    track(
      commands.button(
        {
          reportId: value.reportId,
          ...(value.query !== undefined ? { query: value.query } : {}),
          ...(range ? { range } : {}),
          csv,
        },
        { ...ctx, ...(threadTs ? { threadTs } : {}) },
      ),
    );
  });

  app.action(new RegExp(`^(${ACTION_IDS.alertAck}|${ACTION_IDS.alertSnooze})$`), async ({ ack, body }) => {
    await ack();
    const responseUrl = (body as { response_url?: string }).response_url;
    if (responseUrl) {
      track(
        gateway.respond(
          responseUrl,
          noticeMessage('Acknowledging and snoozing alerts arrives with alert evaluation; nothing was changed.'),
        ),
      );
    }
  });

  app.event('app_home_opened', async ({ event }) => {
    if (event.tab !== 'home') return;
    track(
      (async () => {
        const { store, loadReports, timezone, sandbox } = options.home;
        const view = homeView({
          reports: await loadReports(),
          subscriptions: store.subscriptions.list(),
          incidents: store.incidents.listOpen(),
          timezone,
          sandbox,
        });
        await gateway.publishHome(event.user, view);
      })().catch((error: unknown) => logger.warn({ err: error }, 'App Home could not be published')),
    );
  });

  app.error(async (error) => {
    logger.error({ err: toError(error) }, 'Slack listener failed');
  });

  const started = (socketMode ? await app.start() : await app.start(options.port)) as unknown;
  const port = socketMode ? undefined : ((started as Server).address() as AddressInfo).port;
  logger.info({ mode: socketMode ? 'socket' : 'http', port }, 'pivotbot is listening to Slack');
  return {
    app,
    gateway,
    port,
    async stop(graceMs = 10_000) {
      await app.stop();
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
