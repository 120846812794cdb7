/** Reading messages back from Slack: the paging arguments and the answer, as the gateway returns them. */
import type { HistoryMessage, HistoryOptions, MessageMetadata } from './SlackGateway.js';

/** The paging arguments that conversations.history and conversations.replies share. */
export function pageArgs(options: HistoryOptions) {
  return {
    ...(options.oldest !== undefined ? { oldest: options.oldest } : {}),
    ...(options.latest !== undefined ? { latest: options.latest } : {}),
    ...(options.inclusive !== undefined ? { inclusive: options.inclusive } : {}),
    ...(options.limit !== undefined ? { limit: options.limit } : {}),
    ...(options.includeAllMetadata ? { include_all_metadata: true } : {}),
  };
}

/**
 * Whether a message read from a channel's history is a top-level post (a digest, an alert parent, a
 * progress message) rather than a reply. Slack gives a parent that has replies a `thread_ts` equal to
 * its own `ts`; only a reply carries another (one broadcast to the channel shows in its history), so
 * "no thread_ts" alone would miss every parent that already has a reply. Every reader that recognises
 * its own top-level post in history by metadata goes through this one rule.
 *
 * @example messages.filter(isTopLevel) // the parents and plain posts, without broadcast replies
 */
export function isTopLevel(message: Pick<HistoryMessage, 'ts' | 'threadTs'>): boolean {
  return message.threadTs === undefined || message.threadTs === message.ts;
}

/** The cursor of the page after this one, if Slack says there is one. */
export function nextCursorOf(result: unknown): string | undefined {
  const cursor = (result as { response_metadata?: { next_cursor?: unknown } }).response_metadata?.next_cursor;
  return typeof cursor === 'string' && cursor !== '' ? cursor : undefined;
}

/** One page of messages as the gateway returns them. */
export function messagesOf(result: unknown): HistoryMessage[] {
  return ((result as { messages?: Array<Record<string, unknown>> }).messages ?? []).map(toHistoryMessage);
}

function toHistoryMessage(raw: Record<string, unknown>): HistoryMessage {
  const message: HistoryMessage = { ts: String(raw.ts ?? ''), text: String(raw.text ?? '') };
  if (typeof raw.thread_ts === 'string') message.threadTs = raw.thread_ts;
  if (typeof raw.user === 'string') message.user = raw.user;
  if (typeof raw.bot_id === 'string') message.botId = raw.bot_id;
  const metadata = raw.metadata as Partial<MessageMetadata> | undefined;
  if (metadata && typeof metadata.event_type === 'string') {
    message.metadata = { event_type: metadata.event_type, event_payload: metadata.event_payload ?? {} };
  }
  if (Array.isArray(raw.blocks) && raw.blocks.length > 0) message.blocks = raw.blocks as unknown[];
  if (Array.isArray(raw.files)) {
    message.files = (raw.files as Array<{ id?: unknown; name?: unknown }>).map((f) => ({
      id: String(f.id ?? ''),
      ...(typeof f.name === 'string' ? { name: f.name } : {}),
    }));
  }
  return message;
}

/** Reads up to `options.pages` pages, stopping after one with a message `options.until` accepts. */
export async function readPages(
  options: HistoryOptions,
  readPage: (cursor: string | undefined) => Promise<unknown>,
): Promise<HistoryMessage[]> {
  const messages: HistoryMessage[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < (options.pages ?? 1); page++) {
    const result = await readPage(cursor);
    const read = messagesOf(result);
    messages.push(...read);
    cursor = nextCursorOf(result);
    if (!cursor || (options.until && read.some(options.until))) break;
  }
  return messages;
}
