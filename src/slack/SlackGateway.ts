import bolt from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import type { SlackConfig } from '../config/index.js';
import { type Logger, PivotbotError } from '../core/index.js';
import type { SlackMessage } from '../render/index.js';
import { boltLogger } from './boltLogger.js';
import { slackApiUrlOption } from './slackApiUrl.js';

const { webApi } = bolt;

/** A Slack call failed; `userMessage` says what a person can do about it. */
export class SlackDeliveryError extends PivotbotError {
  /** Slack's error string (`not_in_channel`, `ratelimited`, `http_503`…). */
  readonly slackError: string;

  constructor(method: string, slackError: string, options: { retryable?: boolean; cause?: unknown } = {}) {
    super(`SLACK_${slackError.toUpperCase()}`, `Slack ${method} failed: ${slackError}`, {
      userMessage: userMessageFor(slackError),
      retryable: options.retryable ?? false,
      cause: options.cause,
      details: { method, slackError },
    });
    this.slackError = slackError;
  }
}

function userMessageFor(error: string): string {
  switch (error) {
    case 'not_in_channel':
      return "I'm not a member of this channel yet. Invite me with `/invite @pivotbot` and try again.";
    case 'channel_not_found':
      return "I can't find that channel; for a private channel, invite me first with `/invite @pivotbot`.";
    case 'is_archived':
      return 'That channel is archived.';
    case 'invalid_auth':
    case 'not_authed':
    case 'token_revoked':
    case 'account_inactive':
      return "pivotbot's Slack token is not valid any more; a workspace admin needs to reinstall the app.";
    case 'missing_scope':
      return 'pivotbot lacks a Slack permission for this; a workspace admin needs to reinstall the app from manifest.yml.';
    case 'ratelimited':
      return 'Slack is rate-limiting pivotbot right now; try again in a minute.';
    default:
      return `Slack refused the message (${error}); try again in a minute.`;
  }
}

/** Where a posted message landed. */
export interface Posted {
  ts: string;
  /** The channel's id, also when it was given by name. */
  channel: string;
}

/** A file to put in a channel or thread. */
export interface UploadFile {
  filename: string;
  data: Buffer;
  title?: string;
  altText?: string;
}

/**
 * Everything pivotbot sends to Slack, behind one small interface so the command logic stays free
 * of the SDK. Every method throws `SlackDeliveryError` on failure.
 */
export interface SlackGateway {
  /** Posts a message; resolves to its `ts` and the channel's id (Slack resolves `#name` to it). */
  post(channel: string, message: SlackMessage, options?: { threadTs?: string }): Promise<Posted>;
  update(channel: string, ts: string, message: SlackMessage): Promise<void>;
  ephemeral(channel: string, user: string, message: SlackMessage): Promise<void>;
  /** Answers through a slash command's or action's response_url (works without channel membership). */
  respond(
    responseUrl: string,
    message: SlackMessage,
    options?: { inChannel?: boolean; replaceOriginal?: boolean },
  ): Promise<void>;
  /** Uploads files into a channel (and thread) with files.uploadV2; resolves to their ids. */
  upload(
    channel: string,
    files: readonly UploadFile[],
    options?: { threadTs?: string; comment?: string },
  ): Promise<string[]>;
  /** Uploads a file shared nowhere, for image blocks that reference it by id. */
  uploadPrivate(file: UploadFile): Promise<string>;
  publishHome(userId: string, view: { type: 'home'; blocks: unknown[] }): Promise<void>;
}

/** The gateway over @slack/web-api's WebClient. */
export class WebApiGateway implements SlackGateway {
  constructor(
    private readonly client: WebClient,
    private readonly logger: Logger,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  async post(channel: string, message: SlackMessage, options: { threadTs?: string } = {}): Promise<Posted> {
    const result = await this.call('chat.postMessage', () =>
      this.client.chat.postMessage({
        channel,
        text: message.text,
        blocks: message.blocks as never,
        unfurl_links: false,
        ...(options.threadTs ? { thread_ts: options.threadTs } : {}),
      }),
    );
    return { ts: String(result.ts ?? ''), channel: String(result.channel ?? channel) };
  }

  async update(channel: string, ts: string, message: SlackMessage): Promise<void> {
    await this.call('chat.update', () =>
      this.client.chat.update({ channel, ts, text: message.text, blocks: message.blocks as never }),
    );
  }

  async ephemeral(channel: string, user: string, message: SlackMessage): Promise<void> {
    await this.call('chat.postEphemeral', () =>
      this.client.chat.postEphemeral({ channel, user, text: message.text, blocks: message.blocks as never }),
    );
  }

  async respond(
    responseUrl: string,
    message: SlackMessage,
    options: { inChannel?: boolean; replaceOriginal?: boolean } = {},
  ): Promise<void> {
    const body = {
      text: message.text,
      blocks: message.blocks,
      response_type: options.inChannel ? 'in_channel' : 'ephemeral',
      ...(options.replaceOriginal !== undefined ? { replace_original: options.replaceOriginal } : {}),
    };
    let response: Response;
    try {
      response = await this.fetchImpl(responseUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(10_000),
      });
    } catch (error) {
      throw new SlackDeliveryError('response_url', 'request_failed', { retryable: true, cause: error });
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new SlackDeliveryError('response_url', `http_${response.status}`, { retryable: response.status >= 500 });
    }
    await response.body?.cancel();
  }

  async upload(
    channel: string,
    files: readonly UploadFile[],
    options: { threadTs?: string; comment?: string } = {},
  ): Promise<string[]> {
    const result = (await this.call('files.uploadV2', () =>
      this.client.filesUploadV2({
        channel_id: channel,
        ...(options.threadTs ? { thread_ts: options.threadTs } : {}),
        ...(options.comment ? { initial_comment: options.comment } : {}),
        file_uploads: files.map((f) => ({
          file: f.data,
          filename: f.filename,
          ...(f.title ? { title: f.title } : {}),
          ...(f.altText ? { alt_text: f.altText } : {}),
        })),
      } as never),
    )) as { files?: Array<{ files?: Array<{ id?: string }> }> };
    return (result.files ?? []).flatMap((f) => (f.files ?? []).map((x) => String(x.id ?? '')));
  }

  async uploadPrivate(file: UploadFile): Promise<string> {
    const ticket = await this.call('files.getUploadURLExternal', () =>
      this.client.files.getUploadURLExternal({
        filename: file.filename,
        length: file.data.length,
        ...(file.altText ? { alt_txt: file.altText } : {}),
      }),
    );
    const uploadUrl = String(ticket.upload_url ?? '');
    const fileId = String(ticket.file_id ?? '');
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(file.data)]), file.filename);
    let response: Response;
    try {
      response = await this.fetchImpl(uploadUrl, { method: 'POST', body: form, signal: AbortSignal.timeout(30_000) });
    } catch (error) {
      throw new SlackDeliveryError('upload', 'request_failed', { retryable: true, cause: error });
    }
    await response.body?.cancel();
    if (!response.ok)
      throw new SlackDeliveryError('upload', `http_${response.status}`, { retryable: response.status >= 500 });
    await this.call('files.completeUploadExternal', () =>
      this.client.files.completeUploadExternal({ files: [{ id: fileId, title: file.title ?? file.filename }] }),
    );
    return fileId;
  }

  async publishHome(userId: string, view: { type: 'home'; blocks: unknown[] }): Promise<void> {
    await this.call('views.publish', () => this.client.views.publish({ user_id: userId, view: view as never }));
  }

  /** Runs a Web API call, turning the SDK's errors into `SlackDeliveryError`. */
  private async call<T>(method: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      const mapped = toDeliveryError(method, error);
      const level = mapped.slackError === 'invalid_auth' || mapped.slackError === 'missing_scope' ? 'error' : 'warn';
      this.logger[level]({ method, slackError: mapped.slackError }, 'Slack call failed');
      throw mapped;
    }
  }
}

/** Web API retries: bounded (4 within a minute), unlike the SDK's 30-minute default; 429s honour Retry-After. */
export const SLACK_RETRY = { retries: 4, factor: 2, minTimeout: 500, maxTimeout: 10_000, maxRetryTime: 60_000 };

/**
 * The gateway over a Web API client with the bot token: bounded retries (`SLACK_RETRY` unless
 * `options.retry`), 429s waited out rather than refused, and the SDK's own log lines (when
 * `options.secrets` is given) in our logger, scrubbed. The Slack app and `pivotbot run --post`
 * both use it.
 *
 * @example const slack = slackGatewayFor(config.slack, logger); await slack.post('C123', message);
 */
export function slackGatewayFor(
  slack: SlackConfig,
  logger: Logger,
  options: { retry?: typeof SLACK_RETRY; secrets?: readonly string[] } = {},
): WebApiGateway {
  const client = new webApi.WebClient(slack.botToken, {
    ...(options.secrets ? { logger: boltLogger(logger, options.secrets) } : {}),
    ...slackApiUrlOption(slack.apiUrl),
    retryConfig: options.retry ?? SLACK_RETRY,
    rejectRateLimitedCalls: false,
    timeout: 30_000,
  });
  return new WebApiGateway(client, logger);
}

/** Maps what @slack/web-api throws to a typed error. */
export function toDeliveryError(method: string, error: unknown): SlackDeliveryError {
  if (error instanceof SlackDeliveryError) return error;
  if (error instanceof webApi.WebAPIPlatformError)
    return new SlackDeliveryError(method, error.data.error, { cause: error });
  if (error instanceof webApi.WebAPIRateLimitedError)
    return new SlackDeliveryError(method, 'ratelimited', { retryable: true, cause: error });
  if (error instanceof webApi.WebAPIHTTPError) {
    return new SlackDeliveryError(method, `http_${error.statusCode}`, {
      retryable: error.statusCode >= 500,
      cause: error,
    });
  }
  if (error instanceof webApi.WebAPIRequestError)
    return new SlackDeliveryError(method, 'request_failed', { retryable: true, cause: error });
  const code = (error as { data?: { error?: unknown } } | null)?.data?.error;
  if (typeof code === 'string') return new SlackDeliveryError(method, code, { cause: error });
  return new SlackDeliveryError(method, 'unknown_error', { cause: error });
}
