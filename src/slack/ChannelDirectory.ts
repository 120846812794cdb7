/**
 * Channel ids by `#name`. Report files may name their channels (`#ua-daily`); chat.postMessage
 * takes a name, but conversations.history, conversations.replies, chat.update and file shares take
 * only ids. A name is learnt from a post's answer or looked up in `conversations.list` (one walk
 * at a time, shared by every caller waiting for a name), and kept.
 */
import { SlackDeliveryError } from './SlackDeliveryError.js';

/** One page of `conversations.list`: its channels, and the next page's cursor (none on the last). */
export interface ChannelPage {
  channels: ReadonlyArray<{ id?: string; name?: string }>;
  nextCursor?: string;
}

export type ListChannelPage = (cursor: string | undefined, signal: AbortSignal | undefined) => Promise<ChannelPage>;

export class ChannelDirectory {
  private readonly ids = new Map<string, string>();
  private listing: Promise<void> | undefined;

  constructor(private readonly listPage: ListChannelPage) {}

  /** Records the id Slack answered for a channel posted to by name. */
  learn(channel: string, id: string): void {
    if (channel.startsWith('#') && !id.startsWith('#')) this.ids.set(channel.slice(1), id);
  }

  /**
   * The channel's id: itself when it is one; for a `#name`, the id kept or found by walking
   * `conversations.list`. An unknown name fails as `channel_not_found`.
   *
   * @example await directory.idOf('#ua-daily') // 'C0123ABCD'
   */
  async idOf(channel: string, signal?: AbortSignal): Promise<string> {
    if (!channel.startsWith('#')) return channel;
    const name = channel.slice(1);
    const known = this.ids.get(name);
    if (known) return known;
    this.listing ??= this.walk(signal).finally(() => {
      this.listing = undefined;
    });
    await this.listing;
    const found = this.ids.get(name);
    if (!found) throw new SlackDeliveryError('conversations.list', 'channel_not_found');
    return found;
  }

  private async walk(signal: AbortSignal | undefined): Promise<void> {
    let cursor: string | undefined;
    do {
      const page = await this.listPage(cursor, signal);
      for (const c of page.channels) if (c.id && c.name) this.ids.set(c.name, c.id);
      cursor = page.nextCursor || undefined;
    } while (cursor);
  }
}
