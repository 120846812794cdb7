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
import bolt, { type CustomRoute } from '@slack/bolt';
import { slackApiUrlOption } from '../../slackapi/index.js';
import { type AckKind, AckTimes, ackKindOf, ackRequests } from './ackTimes.js';
import { listen } from './boltListeners.js';
import { type BoltLogSink, boltLoggerFor } from './boltLogger.js';
import type { ConversationMessage } from './conversationEvents.js';
import { serveRoutes } from './routeServer.js';
import type { TypedText } from './typedText.js';

const { App } = bolt;

/**
 * What the receiver hands on, after the ack: plain data, so it can cross a thread boundary. One
 * kind per kind of Slack input; what each one means (which button, which modal) is the app's
 * router's to decide (`src/slack/app/router.ts`).
 */
export type SlackEvent =
  | ({
      /** `/pivot <text>`: the text decoded from Slack's wire format both ways (`typedText.ts`). */
      type: 'command';
      userId: string;
      channelId: string;
      responseUrl: string;
      triggerId?: string;
    } & TypedText)
  | SlackAction
  | { type: 'homeOpened'; userId: string }
  | ({
      /** A mention, a DM, or a reply in one of the bot's threads (`conversationEvents.ts` chose it). */
      type: 'message';
      /** Slack's X-Slack-Retry-Num when this delivery is a retry. */
      retryNum?: number;
    } & ConversationMessage);

/** A button clicked or a modal's field changed (`block_actions`). */
export interface SlackAction {
  type: 'action';
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
  /** The view the action happened in: a modal or App Home. */
  view?: ActionView;
}

/** The view of an action (`body.view`), as plain data. */
export interface ActionView {
  /** `modal` or `home`. */
  type: string;
  id: string;
  /** The view's hash: an update with it is refused when a newer one landed first. */
  hash: string;
  callbackId: string;
  privateMetadata: string;
  /** The view's `state.values` as Slack sent them. */
  values: unknown;
}

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
  /** One acknowledgement (HTTP mode) and the seconds it took here, for the bot's metrics. */
  ack?(kind: AckKind, seconds: number): void;
  /** The body of `GET /metrics` (Prometheus' text format); rejects (→ 503) when the bot cannot answer. */
  metrics?(): Promise<{ contentType: string; text: string }>;
}

export interface StartedReceiver {
  /**
   * The HTTP port: Slack's and `/healthz`'s in HTTP mode; in Socket Mode `/healthz`'s alone (a
   * platform's web process must bind `PORT`), undefined only when the receiver serves no HTTP.
   */
  port: number | undefined;
  stop(): Promise<void>;
}

/**
 * Starts Bolt over HTTP (`POST /slack/events`, `GET /healthz`) or Socket Mode, with listeners
 * (`boltListeners.ts`) that acknowledge first and then pass the event to `sink`.
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
          customRoutes: [healthRoute(sink, ackTimes), metricsRoute(sink)],
        }),
  });

  // The ack metrics' kind: read from the body Bolt parsed, for the request being handled.
  app.use(async ({ body, next }) => {
    const request = ackRequests.getStore();
    if (request) request.kind = ackKindOf(body);
    await next();
  });
  listen(app, sink, {
    ...(settings.botUserId ? { botUserId: settings.botUserId } : {}),
    ...(settings.botId ? { botId: settings.botId } : {}),
  });

  const started = (socketMode ? await app.start() : await app.start(settings.port)) as unknown;
  if (!socketMode) {
    (started as Server).prependListener('request', (req, res) => {
      if (!req.url?.startsWith('/slack/events')) return;
      const arrived = performance.now();
      // Bolt's handler runs after this listener, in the same call: it and its middleware see `request`.
      const request: { kind: AckKind } = { kind: 'other' };
      ackRequests.enterWith(request);
      res.once('finish', () => {
        const ms = performance.now() - arrived;
        ackTimes.record(ms);
        sink.ack?.(request.kind, ms / 1000);
      });
    });
  }
  if (socketMode) {
    // Slack needs no port here, but a platform running the bot as its web process expects PORT bound.
    const routes = await serveRoutes(settings.port, [healthRoute(sink, ackTimes), metricsRoute(sink)]).catch(
      async (error: unknown) => {
        await app.stop();
        throw error;
      },
    );
    return {
      port: routes.port,
      stop: async () => {
        await routes.stop();
        await app.stop();
      },
    };
  }
  return {
    port: ((started as Server).address() as AddressInfo).port,
    stop: () => app.stop().then(() => undefined),
  };
}

/** `GET /metrics`: the bot's metrics in Prometheus' text format (503 when the bot cannot answer). */
function metricsRoute(sink: ReceiverSink): CustomRoute {
  return {
    path: '/metrics',
    method: ['GET'],
    handler: (_req, res) => {
      if (!sink.metrics) {
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end('no metrics\n');
        return;
      }
      sink.metrics().then(
        ({ contentType, text }) => {
          res.writeHead(200, { 'content-type': contentType });
          res.end(text);
        },
        (error: unknown) => {
          res.writeHead(503, { 'content-type': 'text/plain' });
          res.end(`${(error as Error).message}\n`);
        },
      );
    },
  };
}

/** `GET /healthz`: the bot's answer (503 when it has none) with the ack times measured here. */
function healthRoute(sink: ReceiverSink, ackTimes: AckTimes): CustomRoute {
  return {
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
  };
}
