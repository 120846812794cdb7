/**
 * Channel ids by `#name`. Report files may name their channels (`#ua-daily`); chat.postMessage
 * takes a name, but conversations.history, conversations.replies, chat.update and file shares take
 * only ids. A name is learnt from a post's answer or looked up in `conversations.list` (one walk
 * at a time, shared by every caller waiting for a name), and kept. A name no walk found is not
 * looked for again for `RELIST_AFTER_MS`: conversations.list is Tier 2 (20 a minute), and a
 * workspace with thousands of channels takes several pages per walk.
 */
import { SlackDeliveryError } from './SlackDeliveryError.js';
import type { ChannelInfo } from './SlackGateway.js';

/** One page of `conversations.list`: its channels, and the next page's cursor (none on the last). */
export interface ChannelPage {
  channels: ReadonlyArray<{ id?: string; name?: string }>;
  nextCursor?: string;
}

/** How long after a walk a name it did not find fails without walking again. */
export const RELIST_AFTER_MS = 5 * 60_000;

export type ListChannelPage = (cursor: string | undefined, signal: AbortSignal | undefined) => Promise<ChannelPage>;

export class ChannelDirectory {
  private readonly ids = new Map<string, string>();
  private listing: Promise<void> | undefined;
  private walkedAt: number | undefined;

  constructor(
    private readonly listPage: ListChannelPage,
    private readonly now: () => number = Date.now,
  ) {}

  /** Records the id Slack answered for a channel posted to by name. */
  learn(channel: string, id: string): void {
    if (channel.startsWith('#') && !id.startsWith('#')) this.ids.set(channel.slice(1), id);
  }

  /** The id of a channel when it is one or its name is known, without asking Slack. */
  known(channel: string): string | undefined {
    return channel.startsWith('#') ? this.ids.get(channel.slice(1)) : channel;
  }

  /**
   * The channel's id: itself when it is one; for a `#name`, the id kept or found by walking
   * `conversations.list`. An unknown name (a typo, a channel renamed or archived, a private
   * channel the bot is not in) fails as `channel_not_found`.
   *
   * @example await directory.idOf('#ua-daily') // 'C0123ABCD'
   */
  async idOf(channel: string, signal?: AbortSignal): Promise<string> {
    if (!channel.startsWith('#')) return channel;
    const name = channel.slice(1);
    const known = this.ids.get(name);
    if (known) return known;
    const fresh = this.walkedAt !== undefined && this.now() - this.walkedAt < RELIST_AFTER_MS;
    if (!fresh) {
      this.listing ??= this.walk(signal).finally(() => {
        this.listing = undefined;
      });
      await this.listing;
    }
    const found = this.ids.get(name);
    if (!found) throw unknownChannelError(channel, new SlackDeliveryError('conversations.list', 'channel_not_found'));
    return found;
  }

  private async walk(signal: AbortSignal | undefined): Promise<void> {
    let cursor: string | undefined;
    do {
      const page = await this.listPage(cursor, signal);
      for (const c of page.channels) if (c.id && c.name) this.ids.set(c.name, c.id);
      cursor = page.nextCursor || undefined;
    } while (cursor);
    this.walkedAt = this.now();
  }
}

/**
 * Slack's `channel_not_found` for a channel given by name, with what to do about it: a report
 * file's `#name` stops working when the channel is renamed (a common complaint about digest
 * tools), its id does not. Any other error is returned as it is.
 */
export function unknownChannelError(channel: string, error: unknown): unknown {
  if (!channel.startsWith('#') || !(error instanceof SlackDeliveryError) || error.slackError !== 'channel_not_found')
    return error;
  return new SlackDeliveryError(String(error.details?.method ?? 'chat.postMessage'), 'channel_not_found', {
    cause: error,
    userMessage: `I can't see a channel named ${channel}: renamed, archived, or private without me? Write the channel's id in the report file instead (it never changes: channel details → About), or invite me with \`/invite @pivotbot\`.`,
  });
}

/** `conversations.info`'s channel object as `ChannelInfo` (`id` when Slack's answer lacks one). */
export function channelInfoOf(
  channel: { id?: string; name?: string; is_member?: boolean; is_private?: boolean; is_archived?: boolean } | undefined,
  id: string,
): ChannelInfo {
  return {
    id: channel?.id ?? id,
    ...(channel?.name ? { name: channel.name } : {}),
    isMember: channel?.is_member === true,
    isPrivate: channel?.is_private === true,
    isArchived: channel?.is_archived === true,
  };
}
