/**
 * The part of the Slack app that faces Slack: a Bolt app whose listeners only verify (Bolt checks
 * signatures), acknowledge, and hand a plain `SlackEvent` to a sink. It runs in its own thread in
 * production (`receiverThread.ts`), so an acknowledgement never waits behind a report being
 * queried, drawn or uploaded; everything after the ack happens where the sink sends it.
 *
 * Only Bolt, the action ids and the logger adapter are imported here: the thread starts fast and
 * holds no report, chart or store code.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import bolt from '@slack/bolt';
import { ACTION_IDS, ALERT_ACTION_PATTERN, MODAL_ACTION_PATTERN, RANGE_ACTION_PATTERN } from '../../render/index.js';
import { type BoltLogSink, boltLoggerFor, slackApiUrlOption } from '../api/index.js';
import { AckTimes } from './ackTimes.js';
import { type ConversationMessage, conversationMessageOf } from './conversationEvents.js';

const { App } = bolt;

/** What the receiver hands on, after the ack: plain data, so it can cross a thread boundary. */
export type SlackEvent =
  | {
      type: 'command';
      text: string;
      userId: string;
      channelId: string;
      responseUrl: string;
      triggerId?: string;
    }
  | {
      type: 'reportAction';
      actionId: string;
      value?: string;
      userId: string;
      channelId?: string;
      responseUrl?: string;
      triggerId: string;
      /** The ts of the message holding the button. */
      messageTs?: string;
      /** The thread that message is a reply in, if it is one. */
      threadTs?: string;
    }
  | {
      type: 'alertAction';
      /** `alert_ack`, `alert_snooze_1h` … (`ALERT_ACTION_PATTERN`). */
      actionId: string;
      value?: string;
      userId: string;
      channelId?: string;
      responseUrl?: string;
      triggerId: string;
      messageTs?: string;
    }
  | {
      /** A "Schedule this" (or, with `watch`, "Watch this") click on an ad-hoc result. */
      type: 'scheduleThis';
      watch?: boolean;
      value?: string;
      userId: string;
      channelId?: string;
      responseUrl?: string;
      triggerId: string;
    }
  | {
      /** A field of one of pivotbot's modals changed (`dispatch_action`). */
      type: 'modalAction';
      actionId: string;
      userId: string;
      viewId: string;
      /** The view's hash: an update with it is refused when a newer one landed first. */
      hash: string;
      callbackId: string;
      privateMetadata: string;
      /** The view's `state.values` as Slack sent them. */
      values: unknown;
    }
  | { type: 'homeOpened'; userId: string }
  | {
      /** A watch's Remove button (`/pivot alerts` or App Home), after Slack's confirm dialog. */
      type: 'unwatchClick';
      value?: string;
      userId: string;
      responseUrl?: string;
      triggerId: string;
      /** Clicked in App Home: the tab is published again once the watch is removed. */
      fromHome: boolean;
    }
  | ({
      /** A mention, a DM, or a reply in one of the bot's threads (`conversationEvents.ts` chose it). */
      type: 'message';
      /** Slack's X-Slack-Retry-Num when this delivery is a retry. */
      retryNum?: number;
    } & ConversationMessage);

/** A modal submitted (`view_submission`): plain data, answered by the bot thread within the ack. */
export interface ViewSubmission {
  callbackId: string;
  userId: string;
  viewId: string;
  triggerId: string;
  privateMetadata: string;
  values: unknown;
}

/** The ack of a submission: nothing (the modal closes) or errors by block id (the modal shows them). */
export interface ViewAnswer {
  errors?: Record<string, string>;
}

/** Everything the receiver needs, as plain data (it is handed to a worker thread as is). */
export interface ReceiverSettings {
  botToken: string;
  signingSecret?: string;
  /** Socket Mode when set. */
  appToken?: string;
  apiUrl?: string;
  port: number;
  /** The bot's identity from the start-up `auth.test`, when Slack answered it. */
  botUserId?: string;
  botId?: string;
  /** Values scrubbed from the SDK's log lines. */
  secrets: readonly string[];
  /** The bot's log level (pino's names): Bolt's lines below it are dropped in the receiver. */
  logLevel: string;
}

/** Where the receiver sends what it acknowledged, its log lines, and health checks. */
export interface ReceiverSink {
  event(event: SlackEvent): void;
  /** Checks a modal submission (and starts what it asks for); its answer goes into the ack. */
  submit(submission: ViewSubmission): Promise<ViewAnswer>;
  log: BoltLogSink;
  /**
   * An error the receiver caught (a listener's, a modal submission's), whole: logged with its
   * class, code and cause, as the bot logs its own.
   */
  error(what: string, error: unknown): void;
  /** The body of `GET /healthz`; rejects (→ 503) when the bot cannot answer. */
  health(): Promise<Record<string, unknown>>;
}

export interface StartedReceiver {
  /** The HTTP port, or undefined in Socket Mode. */
  port: number | undefined;
  stop(): Promise<void>;
}

/**
 * How long a submission waits for the bot thread's verdict: Slack closes the request at 3 s, and
 * the answer must leave before that.
 */
export const SUBMIT_ANSWER_MS = 2_500;

/** The ack when the bot thread did not answer in time: an error under the modal's first input. */
function busyAnswer(view: { blocks?: ReadonlyArray<{ type?: string; block_id?: string }> }): ViewAnswer {
  const first = view.blocks?.find((b) => b.type === 'input' && b.block_id)?.block_id;
  return first ? { errors: { [first]: 'pivotbot is busy; press the button again in a moment.' } } : {};
}

const REPORT_ACTION = new RegExp(
  `^(${ACTION_IDS.rerun}|${ACTION_IDS.csv}|${ACTION_IDS.explain}|${RANGE_ACTION_PATTERN.source.slice(1)}.+)$`,
);

/**
 * Starts Bolt over HTTP (`POST /slack/events`, `GET /healthz`) or Socket Mode, with listeners that
 * acknowledge first and then pass the event to `sink`.
 *
 * @example const receiver = await startReceiver(settings, { event: handle, log, health });
 */
export async function startReceiver(settings: ReceiverSettings, sink: ReceiverSink): Promise<StartedReceiver> {
  const socketMode = settings.appToken !== undefined;
  const ackTimes = new AckTimes();
  const authorization = {
    botToken: settings.botToken,
    ...(settings.botUserId ? { botUserId: settings.botUserId } : {}),
    ...(settings.botId ? { botId: settings.botId } : {}),
  };
  const app = new App({
    // The token was checked once at start-up; Bolt's default would call auth.test on the first
    // event and make that ack wait for Slack.
    authorize: async () => authorization,
    logger: boltLoggerFor(sink.log, settings.secrets, settings.logLevel),
    // pivotbot keeps no per-conversation state in Bolt; its default store costs each event an Error.
    convoStore: false,
    ...(socketMode
      ? {
          socketMode: true,
          appToken: settings.appToken as string,
          // Socket Mode opens its connection with its own Web API client (apps.connections.open).
          installerOptions: { clientOptions: slackApiUrlOption(settings.apiUrl) },
        }
      : {
          signingSecret: settings.signingSecret as string,
          port: settings.port,
          customRoutes: [
            {
              path: '/healthz',
              method: ['GET'],
              handler: (_req, res) => {
                sink.health().then(
                  (body) => {
                    res.writeHead(200, { 'content-type': 'application/json' });
                    res.end(JSON.stringify({ ok: true, ...body, acks: ackTimes.summary() }));
                  },
                  (error: unknown) => {
                    res.writeHead(503, { 'content-type': 'application/json' });
                    res.end(JSON.stringify({ ok: false, error: (error as Error).message }));
                  },
                );
              },
            },
          ],
        }),
  });

  app.command('/pivot', async ({ command, ack }) => {
    await ack();
    sink.event({
      type: 'command',
      text: command.text ?? '',
      userId: command.user_id,
      channelId: command.channel_id,
      responseUrl: command.response_url,
      ...(command.trigger_id ? { triggerId: command.trigger_id } : {}),
    });
  });

  // Result buttons and alert buttons carry the same facts; only the event's type differs.
  for (const [pattern, type] of [
    [REPORT_ACTION, 'reportAction'],
    [ALERT_ACTION_PATTERN, 'alertAction'],
  ] as const) {
    app.action(pattern, async ({ ack, body, action }) => {
      await ack();
      if (body.type !== 'block_actions') return;
      const button = action as { action_id: string; value?: string };
      const channelId = body.channel?.id ?? body.container?.channel_id;
      sink.event({
        type,
        actionId: button.action_id,
        ...(button.value !== undefined ? { value: button.value } : {}),
        userId: body.user.id,
        ...(channelId ? { channelId } : {}),
        ...(body.response_url ? { responseUrl: body.response_url } : {}),
        triggerId: body.trigger_id,
        ...(body.message?.ts ? { messageTs: body.message.ts } : {}),
        ...(type === 'reportAction' && body.message?.thread_ts ? { threadTs: String(body.message.thread_ts) } : {}),
      });
    });
  }

  app.action(new RegExp(`^(${ACTION_IDS.scheduleThis}|${ACTION_IDS.watchThis})$`), async ({ ack, body, action }) => {
    await ack();
    if (body.type !== 'block_actions') return;
    const button = action as { value?: string; action_id: string };
    const channelId = body.channel?.id ?? body.container?.channel_id;
    sink.event({
      type: 'scheduleThis',
      ...(button.action_id === ACTION_IDS.watchThis ? { watch: true } : {}),
      ...(button.value !== undefined ? { value: button.value } : {}),
      userId: body.user.id,
      ...(channelId ? { channelId } : {}),
      ...(body.response_url ? { responseUrl: body.response_url } : {}),
      triggerId: body.trigger_id,
    });
  });

  app.action(ACTION_IDS.unwatch, async ({ ack, body, action }) => {
    await ack();
    if (body.type !== 'block_actions') return;
    const button = action as { value?: string };
    sink.event({
      type: 'unwatchClick',
      ...(button.value !== undefined ? { value: button.value } : {}),
      userId: body.user.id,
      ...(body.response_url ? { responseUrl: body.response_url } : {}),
      triggerId: body.trigger_id,
      fromHome: body.view?.type === 'home',
    });
  });

  // A field of an open modal changed: the bot thread redraws the view (views.update).
  app.action(MODAL_ACTION_PATTERN, async ({ ack, body, action }) => {
    await ack();
    if (body.type !== 'block_actions' || !body.view) return;
    sink.event({
      type: 'modalAction',
      actionId: (action as { action_id: string }).action_id,
      userId: body.user.id,
      viewId: body.view.id,
      hash: body.view.hash,
      callbackId: body.view.callback_id,
      privateMetadata: body.view.private_metadata,
      values: body.view.state?.values ?? {},
    });
  });

  // A submission is answered in its ack: the modal shows the errors, or closes.
  app.view({ type: 'view_submission', callback_id: /^pivot_/ }, async ({ ack, body, view }) => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<ViewAnswer>((resolve) => {
      timer = setTimeout(() => resolve(busyAnswer(view as never)), SUBMIT_ANSWER_MS);
    });
    const answer = await Promise.race([
      sink
        .submit({
          callbackId: view.callback_id,
          userId: body.user.id,
          viewId: view.id,
          triggerId: (body as { trigger_id?: string }).trigger_id ?? '',
          privateMetadata: view.private_metadata,
          values: view.state?.values ?? {},
        })
        .catch((error: unknown) => {
          sink.error('modal submission failed', error);
          return busyAnswer(view as never);
        }),
      late,
    ]).finally(() => clearTimeout(timer));
    await ack(answer.errors ? { response_action: 'errors', errors: answer.errors } : undefined);
  });

  app.event('app_home_opened', async ({ event }) => {
    if (event.tab === 'home') sink.event({ type: 'homeOpened', userId: event.user });
  });

  // Mentions, DMs and replies in the bot's threads; everything else is dropped unread here.
  const bot = {
    ...(settings.botUserId ? { botUserId: settings.botUserId } : {}),
    ...(settings.botId ? { botId: settings.botId } : {}),
  };
  for (const name of ['app_mention', 'message'] as const) {
    app.event(name, async ({ event, context }) => {
      const message = conversationMessageOf(event, bot);
      if (!message) return;
      sink.event({
        type: 'message',
        ...message,
        ...(context.retryNum !== undefined ? { retryNum: context.retryNum } : {}),
      });
    });
  }

  app.error(async (error) => {
    sink.error('Slack listener failed', error);
  });

  const started = (socketMode ? await app.start() : await app.start(settings.port)) as unknown;
  if (!socketMode) {
    (started as Server).prependListener('request', (req, res) => {
      if (!req.url?.startsWith('/slack/events')) return;
      const arrived = performance.now();
      res.once('finish', () => ackTimes.record(performance.now() - arrived));
    });
  }
  return {
    port: socketMode ? undefined : ((started as Server).address() as AddressInfo).port,
    stop: () => app.stop().then(() => undefined),
  };
}
