/**
 * What pivotbot needs from Slack's Web API, as one small interface (`SlackGateway`) and the
 * shapes it speaks; `WebApiGateway.ts` implements it over @slack/web-api.
 */
import type { MessageMetadata } from '@slack/types';
import type { HomeView, ModalView, SlackMessage } from '../render/index.js';
import type { Lane } from './RatePacer.js';

export { SlackDeliveryError, toDeliveryError, unreachableChannel } from './SlackDeliveryError.js';
/** Slack message metadata: how a digest or alert finds its own earlier posts in a channel's history. */
export type { MessageMetadata };
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

/** A message read back from a channel's history. */
export interface HistoryMessage {
  ts: string;
  text: string;
  threadTs?: string;
  /** Who posted it: a user id, and a bot id for an app's message. */
  user?: string;
  botId?: string;
  /** Present when asked for with `includeAllMetadata` and the message carries some. */
  metadata?: MessageMetadata;
  /** The message's blocks as Slack keeps them (what an update that keeps them starts from). */
  blocks?: unknown[];
  /** Files shared with the message (an upload into a thread is such a message). */
  files?: Array<{ id: string; name?: string }>;
}

/**
 * Per call: `signal` cancels the wait for a turn under the rate limits (or a 429's Retry-After); a
 * request already sent to Slack is let finish, so a post that may have landed is never abandoned
 * half-way (the caller checks the channel's history instead).
 */
export interface CallOptions {
  signal?: AbortSignal;
}

export interface HistoryOptions extends CallOptions {
  /** Only messages after this ts (Slack: exclusive unless `inclusive`). */
  oldest?: string;
  /** Only messages before this ts. */
  latest?: string;
  inclusive?: boolean;
  /** Messages per page (Slack's default 100, at most 999). */
  limit?: number;
  includeAllMetadata?: boolean;
  /** Pages to read at most, following Slack's cursor (default 1). */
  pages?: number;
  /** Stops reading pages after the one holding a message this accepts. */
  until?: (message: HistoryMessage) => boolean;
}

/**
 * What `conversations.info` says of a channel the bot can see (scopes `channels:read`,
 * `groups:read`). A private channel the bot is not in is not seen at all: Slack answers
 * `channel_not_found`, which the gateway throws.
 */
export interface ChannelInfo {
  id: string;
  name?: string;
  /** Whether the bot is in it: posting, reading its history and sharing files need that. */
  isMember: boolean;
  isPrivate: boolean;
  isArchived: boolean;
}

/** An opened or updated view: its id and the hash a later update passes. */
export interface OpenedView {
  id: string;
  hash: string;
}

/** What one Web API method cost: requests sent, 429s received (each honoured), ms spent waiting. */
export interface MethodStats {
  calls: number;
  rateLimited: number;
  waitedMs: number;
}

/**
 * Everything pivotbot sends to Slack, behind one small interface so the command logic stays free
 * of the SDK. Every method throws `SlackDeliveryError` on failure. Calls are paced to Slack's rate
 * limits (src/slackapi/rateLimits.ts); `withLane('scheduled')` gives the same gateway for digests and
 * alerts, served after interactive answers.
 */
export interface SlackGateway {
  /** Posts a message; resolves to its `ts` and the channel's id (Slack resolves `#name` to it). */
  post(
    channel: string,
    message: SlackMessage,
    options?: CallOptions & { threadTs?: string; metadata?: MessageMetadata },
  ): Promise<Posted>;
  update(
    channel: string,
    ts: string,
    message: SlackMessage,
    options?: CallOptions & { metadata?: MessageMetadata },
  ): Promise<void>;
  /** Posts a message only `user` sees, in the channel (or, with `threadTs`, in that thread). */
  ephemeral(
    channel: string,
    user: string,
    message: SlackMessage,
    options?: CallOptions & { threadTs?: string },
  ): Promise<void>;
  /** Answers through a slash command's or action's response_url (works without channel membership). */
  respond(
    responseUrl: string,
    message: SlackMessage,
    options?: CallOptions & { inChannel?: boolean; replaceOriginal?: boolean },
  ): Promise<void>;
  /** Uploads files into a channel (and thread); resolves to their ids. */
  upload(
    channel: string,
    files: readonly UploadFile[],
    options?: CallOptions & { threadTs?: string; comment?: string },
  ): Promise<string[]>;
  /** Uploads a file shared nowhere, for image blocks that reference it by id. */
  uploadPrivate(file: UploadFile, options?: CallOptions): Promise<string>;
  publishHome(userId: string, view: HomeView, options?: CallOptions): Promise<void>;
  /** Opens a modal for a trigger_id (valid 3 s after the click or command); resolves to the view's id and hash. */
  viewsOpen(triggerId: string, view: ModalView, options?: CallOptions): Promise<OpenedView>;
  /** Replaces an open modal; with `hash`, Slack refuses (`hash_conflict`) when the view changed since. */
  viewsUpdate(viewId: string, view: ModalView, options?: CallOptions & { hash?: string }): Promise<OpenedView>;
  /** A channel's recent top-level messages, newest first (`pages` pages, default one). */
  history(channel: string, options?: HistoryOptions): Promise<HistoryMessage[]>;
  /** A thread: its parent and replies, oldest first (`pages` pages, default one; `conversations.replies`). */
  replies(channel: string, threadTs: string, options?: HistoryOptions): Promise<HistoryMessage[]>;
  /** A channel's id: itself, or for a `#name` the id Slack has for it (`channel_not_found` if none). */
  channelId?(channel: string, options?: CallOptions): Promise<string>;
  /**
   * What Slack says of a channel (`conversations.info`): whether the bot is in it, private,
   * archived. Throws `channel_not_found` for a private channel the bot is not in; a DM needs
   * `im:read`, which the app does not ask for (`missing_scope`).
   */
  channelInfo?(channel: string, options?: CallOptions): Promise<ChannelInfo>;
  /** The user's IANA time zone from their Slack profile (`users.info`), if Slack says. */
  userTimeZone?(userId: string, options?: CallOptions): Promise<string | undefined>;
  /**
   * The id of the bot's direct message with `userId` (`conversations.open`, scope `im:write`),
   * opened if it was not: where a personal watch's incidents go.
   */
  openDm?(userId: string, options?: CallOptions): Promise<string>;
  /** The same gateway (same pacing, same counters) whose calls wait in `lane`. */
  withLane(lane: Lane): SlackGateway;
}
