import { createHmac } from 'node:crypto';
import { encodeAsSlack, type SlackSurface } from './slackWireFormat.js';

/**
 * Text exactly as Slack sends it, passed on as is. Anything else a test sends as a command's or a
 * message's text is what a person typed, and goes through `encodeAsSlack` first: Slack never hands
 * an app the typed text, so a test cannot pass on text Slack would never send.
 */
export interface WireText {
  readonly wire: string;
}

/** Typed text (encoded as Slack would) or wire text (sent as is). */
export type SlackText = string | WireText;

/** Wire text given whole, e.g. to send Slack markup a test built itself. */
export function asWire(wire: string): WireText {
  return { wire };
}

/**
 * Typed words around Slack markup: the literal parts are typed text (encoded), the interpolated
 * parts are wire markup kept as is (`channelMention`, `userMention`… of slackWireFormat.ts).
 *
 * @example wire`subscribe daily-kpi ${channelMention('C0GROWTH1', 'growth')} at 09:00`
 * // { wire: 'subscribe daily-kpi <#C0GROWTH1|growth> at 09:00' }
 */
export function wire(strings: TemplateStringsArray, ...markup: string[]): WireText {
  return {
    wire: strings.reduce(
      (out, part, i) => out + encodeAsSlack(part, { surface: 'slash' }) + (i < markup.length ? markup[i] : ''),
      '',
    ),
  };
}

/** What Slack sends for `text`: typed text encoded (`surface`, smart quotes as asked), wire text as is. */
export function wireTextOf(text: SlackText, options: { surface: SlackSurface; smartQuotes?: boolean }): string {
  return typeof text === 'string' ? encodeAsSlack(text, options) : text.wire;
}

export interface SignedRequestOptions {
  signingSecret: string;
  /** Seconds since the epoch; defaults to now. */
  timestamp?: number;
  retryNum?: number;
}

/** Signs a body the way Slack does: `v0=` + HMAC-SHA256 of `v0:{timestamp}:{body}`. */
export function slackSignature(signingSecret: string, timestamp: number, body: string): string {
  return `v0=${createHmac('sha256', signingSecret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
}

/**
 * The headers Slack sends with a body: its type (a form unless `contentType` says otherwise), the
 * timestamp, the signature, and on a retry `X-Slack-Retry-Num`.
 */
export function signedHeaders(
  body: string,
  options: SignedRequestOptions & { contentType?: string },
): Record<string, string> {
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  const headers: Record<string, string> = {
    'content-type': options.contentType ?? 'application/x-www-form-urlencoded',
    'x-slack-request-timestamp': String(timestamp),
    'x-slack-signature': slackSignature(options.signingSecret, timestamp, body),
  };
  if (options.retryNum !== undefined) {
    headers['x-slack-retry-num'] = String(options.retryNum);
    headers['x-slack-retry-reason'] = 'http_timeout';
  }
  return headers;
}

/** POSTs a form body to the bot as Slack would, signed; returns the HTTP response. */
export async function postSigned(url: string, body: string, options: SignedRequestOptions): Promise<Response> {
  const response = await fetch(url, { method: 'POST', headers: signedHeaders(body, options), body });
  // Read to its end at once, so a test never leaves a Response unread.
  const text = await response.text();
  return new Response(response.status === 204 || response.status === 304 ? null : text, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

export interface SlashCommand {
  /** What the person typed (encoded as Slack does, with should_escape) or wire text. */
  text: SlackText;
  /** The person's keyboard curls quotes (macOS, iOS). */
  smartQuotes?: boolean;
  userId?: string;
  channelId?: string;
  responseUrl: string;
  triggerId?: string;
}

/** The form body of a `/pivot` slash command, its text in Slack's wire format. */
export function slashCommandBody(command: SlashCommand): string {
  return new URLSearchParams({
    token: 'deprecated-verification-token',
    team_id: 'T_TEST',
    team_domain: 'test',
    channel_id: command.channelId ?? 'C0GENERAL1',
    channel_name: 'general',
    user_id: command.userId ?? 'U_ALICE',
    user_name: 'alice',
    command: '/pivot',
    text: wireTextOf(command.text, { surface: 'slash', ...(command.smartQuotes ? { smartQuotes: true } : {}) }),
    api_app_id: 'A_PIVOT',
    response_url: command.responseUrl,
    trigger_id: command.triggerId ?? `trigger-${Math.random().toString(36).slice(2)}`,
  }).toString();
}

/** A button click. */
export interface BlockAction {
  actionId: string;
  value: string;
  userId?: string;
  channelId?: string;
  messageTs?: string;
  /** The clicked message is a reply in this thread. */
  threadTs?: string;
  responseUrl: string;
  /** Clicked in App Home: Slack sends the home view instead of a message, and no response_url. */
  home?: boolean;
}

/** The form body of a block_actions payload (a button click). */
export function blockActionBody(action: BlockAction): string {
  return new URLSearchParams({ payload: JSON.stringify(blockActionPayload(action)) }).toString();
}

/** The block_actions payload of a button click, as Slack sends it (Socket Mode carries it as is). */
export function blockActionPayload(action: BlockAction): Record<string, unknown> {
  if (action.home) {
    return {
      type: 'block_actions',
      team: { id: 'T_TEST', domain: 'test' },
      user: { id: action.userId ?? 'U_ALICE', username: 'alice', team_id: 'T_TEST' },
      api_app_id: 'A_PIVOT',
      token: 'deprecated-verification-token',
      container: { type: 'view', view_id: 'V1' },
      trigger_id: `trigger-${Math.random().toString(36).slice(2)}`,
      view: { id: 'V1', type: 'home', hash: 'h1', callback_id: '', private_metadata: '', state: { values: {} } },
      actions: [
        {
          action_id: action.actionId,
          block_id: 'b',
          type: 'button',
          value: action.value,
          action_ts: String(Date.now() / 1000),
        },
      ],
    };
  }
  return {
    type: 'block_actions',
    team: { id: 'T_TEST', domain: 'test' },
    user: { id: action.userId ?? 'U_ALICE', username: 'alice', team_id: 'T_TEST' },
    api_app_id: 'A_PIVOT',
    token: 'deprecated-verification-token',
    container: {
      type: 'message',
      message_ts: action.messageTs ?? '1700000000.000001',
      channel_id: action.channelId ?? 'C0GENERAL1',
    },
    trigger_id: `trigger-${Math.random().toString(36).slice(2)}`,
    channel: { id: action.channelId ?? 'C0GENERAL1', name: 'general' },
    message: {
      ts: action.messageTs ?? '1700000000.000001',
      text: '',
      ...(action.threadTs ? { thread_ts: action.threadTs } : {}),
    },
    response_url: action.responseUrl,
    actions: [
      {
        action_id: action.actionId,
        block_id: 'b',
        type: 'button',
        value: action.value,
        action_ts: String(Date.now() / 1000),
      },
    ],
  };
}

/** An open modal as Slack describes it in interaction payloads. */
export interface ModalPayloadView {
  id: string;
  hash: string;
  callbackId: string;
  privateMetadata: string;
  /** `state.values`: block id → action id → the element's state. */
  values: Record<string, Record<string, unknown>>;
  blocks?: unknown[];
}

function viewPayload(view: ModalPayloadView): Record<string, unknown> {
  return {
    id: view.id,
    team_id: 'T_TEST',
    type: 'modal',
    callback_id: view.callbackId,
    private_metadata: view.privateMetadata,
    hash: view.hash,
    blocks: view.blocks ?? [],
    state: { values: view.values },
    title: { type: 'plain_text', text: 'pivotbot' },
    app_id: 'A_PIVOT',
    bot_id: 'B_BOT',
  };
}

/** The form body of a block_actions payload from an input of an open modal (`dispatch_action`). */
export function modalActionBody(action: {
  actionId: string;
  blockId: string;
  userId?: string;
  view: ModalPayloadView;
}): string {
  const payload = {
    type: 'block_actions',
    team: { id: 'T_TEST', domain: 'test' },
    user: { id: action.userId ?? 'U_ALICE', username: 'alice', team_id: 'T_TEST' },
    api_app_id: 'A_PIVOT',
    token: 'deprecated-verification-token',
    container: { type: 'view', view_id: action.view.id },
    trigger_id: `trigger-${Math.random().toString(36).slice(2)}`,
    view: viewPayload(action.view),
    actions: [
      {
        action_id: action.actionId,
        block_id: action.blockId,
        type: 'multi_static_select',
        action_ts: String(Date.now() / 1000),
      },
    ],
  };
  return new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
}

/** The form body of a view_submission payload (a modal's submit button). */
export function viewSubmissionBody(submission: { userId?: string; view: ModalPayloadView }): string {
  const payload = {
    type: 'view_submission',
    team: { id: 'T_TEST', domain: 'test' },
    user: { id: submission.userId ?? 'U_ALICE', username: 'alice', team_id: 'T_TEST' },
    api_app_id: 'A_PIVOT',
    token: 'deprecated-verification-token',
    trigger_id: `trigger-${Math.random().toString(36).slice(2)}`,
    view: viewPayload(submission.view),
    response_urls: [],
  };
  return new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
}
