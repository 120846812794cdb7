/**
 * The `SlackGateway` over @slack/web-api's WebClient: every call paced to Slack's rate limits,
 * 429s waited out per method, `#name` channels turned into ids where Slack takes only ids.
 */

import type { WebClient } from '@slack/web-api';
import webApi from '@slack/web-api';
import type { Logger } from '../core/index.js';
import type { BotMetrics } from '../metrics/index.js';
import type { HomeView, ModalView, SlackMessage } from '../render/index.js';
import { ChannelDirectory, type ChannelPage, channelInfoOf, unknownChannelError } from './ChannelDirectory.js';
import { type UploadDeps, uploadFiles, uploadPrivateFile } from './filesUpload.js';
import { pageArgs, readPages } from './historyMessages.js';
import { drain, withTimeout } from './httpCalls.js';
import { type Lane, RatePacer } from './RatePacer.js';
import { SlackDeliveryError, toDeliveryError } from './SlackDeliveryError.js';
import type {
  CallOptions,
  ChannelInfo,
  HistoryMessage,
  HistoryOptions,
  MessageMetadata,
  MethodStats,
  OpenedView,
  Posted,
  SlackGateway,
  UploadFile,
} from './SlackGateway.js';

/** How long a call may wait for its turn before it fails as rate-limited, per lane. */
export const MAX_WAIT_MS: Record<Lane, number> = { interactive: 60_000, scheduled: 15 * 60_000 };

/** The longest wait for a `views.open` turn: Slack's trigger_id expires 3 s after the click. */
export const TRIGGER_WAIT_MS = 2_000;

/** 429s retried per call after waiting out Retry-After; then the call fails as `ratelimited`. */
export const MAX_RATE_LIMITED_RETRIES = 8;

/** What the lanes of one gateway share. */
interface Shared {
  pacer: RatePacer;
  stats: Map<string, MethodStats>;
  maxWaitMs: Record<Lane, number>;
  /** Channel ids by `#name`, learnt from posts and `conversations.list`. */
  channels: ChannelDirectory;
  /** Calls by method and outcome, 429s, and time waited for a turn. */
  metrics?: BotMetrics['slack'] | undefined;
  /** The client of `chat.postMessage`: it does not send again a post that may have landed. */
  posts: WebClient;
}

/** The gateway over @slack/web-api's WebClient. */
export class WebApiGateway implements SlackGateway {
  private readonly shared: Shared;
  private readonly lane: Lane;

  constructor(
    private readonly client: WebClient,
    private readonly logger: Logger,
    private readonly fetchImpl: typeof fetch = fetch,
    pacing: {
      pacer?: RatePacer;
      lane?: Lane;
      maxWaitMs?: Partial<Record<Lane, number>>;
      shared?: Shared;
      metrics?: BotMetrics;
      /** The client for posts (default `client`): see `slackGatewayFor`. */
      posts?: WebClient;
    } = {},
  ) {
    this.shared = pacing.shared ?? {
      pacer: pacing.pacer ?? new RatePacer(),
      stats: new Map(),
      maxWaitMs: { ...MAX_WAIT_MS, ...pacing.maxWaitMs },
      channels: new ChannelDirectory((cursor, signal) => this.listChannels(cursor, signal)),
      metrics: pacing.metrics?.slack,
      posts: pacing.posts ?? client,
    };
    this.lane = pacing.lane ?? 'interactive';
  }

  withLane(lane: Lane): WebApiGateway {
    return new WebApiGateway(this.client, this.logger, this.fetchImpl, { shared: this.shared, lane });
  }

  /** Per Web API method: requests sent, 429s received and honoured, ms waited for a turn. */
  stats(): Record<string, MethodStats> {
    return Object.fromEntries([...this.shared.stats].map(([method, s]) => [method, { ...s }]));
  }

  /** Calls waiting for their turn under the rate limits. */
  get queued(): number {
    return this.shared.pacer.queued;
  }

  /** Fails every call still waiting for its turn (shutdown). */
  close(): void {
    this.shared.pacer.close();
  }

  async post(
    channel: string,
    message: SlackMessage,
    options: CallOptions & { threadTs?: string; metadata?: MessageMetadata } = {},
  ): Promise<Posted> {
    const result = await this.call(
      'chat.postMessage',
      () =>
        this.shared.posts.chat.postMessage({
          channel,
          text: message.text,
          blocks: message.blocks,
          unfurl_links: false,
          ...(options.threadTs ? { thread_ts: options.threadTs } : {}),
          ...(options.metadata ? { metadata: options.metadata } : {}),
        }),
      // Paced per channel by id when it is known, so `#ua-daily` and its id share one budget.
      { channel: this.shared.channels.known(channel) ?? channel, signal: options.signal },
    ).catch((error: unknown) => {
      throw unknownChannelError(channel, error);
    });
    const id = String(result.channel ?? channel);
    this.shared.channels.learn(channel, id);
    return { ts: String(result.ts ?? ''), channel: id };
  }

  async update(
    channel: string,
    ts: string,
    message: SlackMessage,
    options: CallOptions & { metadata?: MessageMetadata } = {},
  ): Promise<void> {
    const id = await this.channelId(channel, options);
    await this.call(
      'chat.update',
      () =>
        this.client.chat.update({
          channel: id,
          ts,
          text: message.text,
          blocks: message.blocks,
          ...(options.metadata ? { metadata: options.metadata } : {}),
        }),
      { signal: options.signal },
    );
  }

  async ephemeral(
    channel: string,
    user: string,
    message: SlackMessage,
    options: CallOptions & { threadTs?: string } = {},
  ): Promise<void> {
    const thread = options.threadTs ? { thread_ts: options.threadTs } : {};
    await this.call(
      'chat.postEphemeral',
      () => this.client.chat.postEphemeral({ channel, user, text: message.text, blocks: message.blocks, ...thread }),
      { signal: options.signal },
    );
  }

  /** Not a Web API method: response_url has its own allowance (5 uses in 30 minutes), so no pacing. */
  async respond(
    responseUrl: string,
    message: SlackMessage,
    options: CallOptions & { inChannel?: boolean; replaceOriginal?: boolean } = {},
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
        signal: withTimeout(10_000, options.signal),
      });
    } catch (error) {
      throw new SlackDeliveryError('response_url', 'request_failed', { retryable: true, cause: error });
    }
    if (!response.ok) {
      await drain(response);
      throw new SlackDeliveryError('response_url', `http_${response.status}`, { retryable: response.status >= 500 });
    }
    await drain(response);
  }

  /** The files-upload-v2 flow, each of its Web API calls paced (see `filesUpload.ts`). */
  async upload(
    channel: string,
    files: readonly UploadFile[],
    options: CallOptions & { threadTs?: string; comment?: string } = {},
  ): Promise<string[]> {
    const channelId = await this.channelId(channel, options);
    return uploadFiles(this.uploadDeps(), channelId, files, options);
  }

  uploadPrivate(file: UploadFile, options: CallOptions = {}): Promise<string> {
    return uploadPrivateFile(this.uploadDeps(), file, options.signal);
  }

  private uploadDeps(): UploadDeps {
    return {
      client: this.client,
      fetchImpl: this.fetchImpl,
      call: (method, run, where) => this.call(method, run, where),
    };
  }

  async publishHome(userId: string, view: HomeView, options: CallOptions = {}): Promise<void> {
    await this.call('views.publish', () => this.client.views.publish({ user_id: userId, view }), {
      signal: options.signal,
    });
  }

  async viewsOpen(triggerId: string, view: ModalView, options: CallOptions = {}): Promise<OpenedView> {
    const result = await this.call(
      'views.open',
      () => this.client.views.open({ trigger_id: triggerId, view }),
      // A trigger_id lives 3 s: waiting longer for a turn under the rate limits is futile.
      { signal: options.signal, maxWaitMs: TRIGGER_WAIT_MS },
    );
    return { id: result.view?.id ?? '', hash: result.view?.hash ?? '' };
  }

  async viewsUpdate(
    viewId: string,
    view: ModalView,
    options: CallOptions & { hash?: string } = {},
  ): Promise<OpenedView> {
    const result = await this.call(
      'views.update',
      () =>
        this.client.views.update({
          view_id: viewId,
          view,
          ...(options.hash ? { hash: options.hash } : {}),
        }),
      { signal: options.signal },
    );
    return { id: result.view?.id ?? viewId, hash: result.view?.hash ?? '' };
  }

  async history(channel: string, options: HistoryOptions = {}): Promise<HistoryMessage[]> {
    const id = await this.channelId(channel, options);
    return readPages(options, (cursor) =>
      this.call(
        'conversations.history',
        () => this.client.conversations.history({ channel: id, ...pageArgs(options), ...(cursor ? { cursor } : {}) }),
        { signal: options.signal },
      ),
    );
  }

  async replies(channel: string, threadTs: string, options: HistoryOptions = {}): Promise<HistoryMessage[]> {
    const id = await this.channelId(channel, options);
    return readPages(options, (cursor) =>
      this.call(
        'conversations.replies',
        () =>
          this.client.conversations.replies({
            channel: id,
            ts: threadTs,
            ...pageArgs(options),
            ...(cursor ? { cursor } : {}),
          }),
        { signal: options.signal },
      ),
    );
  }

  async userTimeZone(userId: string, options: CallOptions = {}): Promise<string | undefined> {
    const result = await this.call('users.info', () => this.client.users.info({ user: userId }), {
      signal: options.signal,
    });
    return typeof result.user?.tz === 'string' ? result.user.tz : undefined;
  }

  async channelInfo(channel: string, options: CallOptions = {}): Promise<ChannelInfo> {
    const id = await this.channelId(channel, options);
    const { signal } = options;
    const result = await this.call('conversations.info', () => this.client.conversations.info({ channel: id }), {
      signal,
    });
    return channelInfoOf(result.channel, id);
  }

  async openDm(userId: string, options: CallOptions = {}): Promise<string> {
    const result = await this.call('conversations.open', () => this.client.conversations.open({ users: userId }), {
      signal: options.signal,
    });
    const id = result.channel?.id;
    if (typeof id !== 'string' || id === '') {
      throw new SlackDeliveryError('conversations.open', 'channel_not_found');
    }
    return id;
  }

  /** A channel's id: itself, or for a `#name` the id Slack has for it (see `ChannelDirectory`). */
  channelId(channel: string, options: CallOptions = {}): Promise<string> {
    return this.shared.channels.idOf(channel, options.signal);
  }

  /** One page of `conversations.list`: the public and private channels the bot can see. */
  private async listChannels(cursor: string | undefined, signal: AbortSignal | undefined): Promise<ChannelPage> {
    const page = await this.call(
      'conversations.list',
      () =>
        this.client.conversations.list({
          types: 'public_channel,private_channel',
          exclude_archived: true,
          limit: 1000,
          ...(cursor ? { cursor } : {}),
        }),
      { signal },
    );
    const next = page.response_metadata?.next_cursor;
    return { channels: page.channels ?? [], ...(next ? { nextCursor: next } : {}) };
  }

  /**
   * Runs a Web API call when the rate limits allow it; on 429 waits out Retry-After (that method,
   * and that channel for chat.postMessage, pause for everyone) and tries again, up to
   * `MAX_RATE_LIMITED_RETRIES` times. Turns the SDK's errors into `SlackDeliveryError`.
   */
  private async call<T>(
    method: string,
    run: () => Promise<T>,
    where: { channel?: string; signal?: AbortSignal | undefined; maxWaitMs?: number },
  ): Promise<T> {
    const stats = this.statsOf(method);
    const { metrics } = this.shared;
    const deadline = this.shared.pacer.now() + Math.min(this.shared.maxWaitMs[this.lane], where.maxWaitMs ?? Infinity);
    for (let attempt = 0; ; attempt++) {
      try {
        const waitedMs = await this.shared.pacer.acquire(method, {
          channel: where.channel,
          lane: this.lane,
          signal: where.signal,
          maxWaitMs: Math.max(0, deadline - this.shared.pacer.now()),
        });
        stats.waitedMs += waitedMs;
        if (waitedMs > 0) metrics?.rateLimitWait.inc({ method }, waitedMs / 1000);
        stats.calls++;
        const result = await run();
        metrics?.calls.inc({ method, outcome: 'ok' });
        return result;
      } catch (error) {
        if (error instanceof webApi.WebAPIRateLimitedError) {
          stats.rateLimited++;
          metrics?.rateLimited.inc({ method });
          this.shared.pacer.penalize(method, where.channel, error.retryAfter * 1000);
          if (attempt < MAX_RATE_LIMITED_RETRIES) {
            this.logger.info(
              { method, retryAfterSeconds: error.retryAfter, attempt: attempt + 1 },
              'Slack answered 429',
            );
            continue;
          }
        }
        const mapped = toDeliveryError(method, error);
        // Slack's error words are a bounded vocabulary; anything else is counted as `other`.
        metrics?.calls.inc({
          method,
          outcome: /^[a-z0-9_]{1,40}$/.test(mapped.slackError) ? mapped.slackError : 'other',
        });
        const level = mapped.slackError === 'invalid_auth' || mapped.slackError === 'missing_scope' ? 'error' : 'warn';
        this.logger[level]({ method, slackError: mapped.slackError }, 'Slack call failed');
        throw mapped;
      }
    }
  }

  private statsOf(method: string): MethodStats {
    let stats = this.shared.stats.get(method);
    if (!stats) {
      stats = { calls: 0, rateLimited: 0, waitedMs: 0 };
      this.shared.stats.set(method, stats);
    }
    return stats;
  }
}
