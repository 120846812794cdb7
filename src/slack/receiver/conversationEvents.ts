/**
 * Which of the messages Slack sends the bot it may read: replies in threads it started, direct
 * messages to it, and mentions of it. Everything else (other people's channel messages, edits,
 * joins, any bot's messages, its own) is dropped here, in the receiver, before it goes anywhere:
 * pivotbot neither keeps nor logs a message it was not asked.
 */

/** A message pivotbot answers, as plain data (it crosses the receiver thread's boundary). */
export interface ConversationMessage {
  /** How it reached the bot: a mention, a DM, a reply in one of the bot's threads. */
  source: 'mention' | 'dm' | 'thread';
  /** The text with the mention of the bot taken out. */
  text: string;
  userId: string;
  channelId: string;
  ts: string;
  /** The thread it was posted in, when it is a reply. */
  threadTs?: string;
}

/** The bot's own identity, from the start-up `auth.test` (either may be unknown). */
export interface BotIdentity {
  botUserId?: string;
  botId?: string;
}

/** The fields of a `message` or `app_mention` event this module reads. */
interface RawMessageEvent {
  type?: unknown;
  subtype?: unknown;
  bot_id?: unknown;
  user?: unknown;
  text?: unknown;
  channel?: unknown;
  channel_type?: unknown;
  ts?: unknown;
  thread_ts?: unknown;
  parent_user_id?: unknown;
}

/**
 * The message the bot should answer, or undefined for one it must not read. A channel message
 * that mentions the bot is left to its `app_mention` event (Slack sends both), so it is answered
 * once even before the de-duplication by channel and ts.
 *
 * @example conversationMessageOf({ type: 'message', channel_type: 'im', user: 'U1', text: 'cpi', channel: 'D1', ts: '1.1' }, { botUserId: 'UBOT' })
 * // { source: 'dm', text: 'cpi', userId: 'U1', channelId: 'D1', ts: '1.1' }
 */
export function conversationMessageOf(event: unknown, bot: BotIdentity): ConversationMessage | undefined {
  const raw = (event ?? {}) as RawMessageEvent;
  if (raw.type !== 'message' && raw.type !== 'app_mention') return undefined;
  // Edits, deletions, joins, bot posts, file comments: never a question. A reply also sent to
  // the channel (thread_broadcast) is still a reply.
  if (raw.subtype !== undefined && raw.subtype !== null && raw.subtype !== 'thread_broadcast') return undefined;
  if (raw.bot_id !== undefined && raw.bot_id !== null) return undefined;
  const { user, channel, ts } = raw;
  if (typeof user !== 'string' || typeof channel !== 'string' || typeof ts !== 'string') return undefined;
  if (bot.botUserId !== undefined && user === bot.botUserId) return undefined;
  const text = typeof raw.text === 'string' ? raw.text : '';
  const threadTs = typeof raw.thread_ts === 'string' && raw.thread_ts !== ts ? raw.thread_ts : undefined;
  const base = { userId: user, channelId: channel, ts, ...(threadTs ? { threadTs } : {}) };
  if (raw.type === 'app_mention') return { source: 'mention', text: withoutMention(text, bot), ...base };
  if (raw.channel_type === 'im') return { source: 'dm', text: withoutMention(text, bot), ...base };
  // A channel message: only a reply in a thread the bot started, and not one that mentions it.
  if (threadTs === undefined) return undefined;
  if (bot.botUserId !== undefined && mentions(text, bot.botUserId)) return undefined;
  const parent = typeof raw.parent_user_id === 'string' ? raw.parent_user_id : undefined;
  // Without the bot's identity the parent is checked when the thread is read (its bot_id).
  if (bot.botUserId !== undefined && parent !== bot.botUserId) return undefined;
  return { source: 'thread', text: text.trim(), ...base };
}

/** Whether the text mentions this user (`<@U123>` or `<@U123|name>`). */
function mentions(text: string, userId: string): boolean {
  return text.includes(`<@${userId}>`) || text.includes(`<@${userId}|`);
}

/** The text without the bot's mention (`<@UBOT> cpi by country` → `cpi by country`). */
export function withoutMention(text: string, bot: BotIdentity): string {
  const id = bot.botUserId;
  const stripped = id ? text.replace(new RegExp(`<@${id}(\\|[^>]*)?>`, 'g'), ' ') : text.replace(/^\s*<@[^>]+>/, ' ');
  return stripped.replace(/\s+/g, ' ').trim();
}
