/**
 * Which of the messages Slack sends the bot it may read: replies in threads it started, direct
 * messages to it, and mentions of it. Everything else (other people's channel messages, edits,
 * deletions, joins, hidden events, any bot's messages, its own) is dropped here, in the receiver,
 * before it goes anywhere: pivotbot neither keeps nor logs a message it was not asked. What it
 * keeps is decoded from Slack's wire format here too (`typedText.ts`).
 */
import { type TypedText, typedTextOf, wireTextOfMessage } from './typedText.js';

/** A message pivotbot answers, as plain data (it crosses the receiver thread's boundary). */
export interface ConversationMessage extends TypedText {
  /** How it reached the bot: a mention, a DM, a reply in one of the bot's threads. */
  source: 'mention' | 'dm' | 'thread';
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
  hidden?: unknown;
  bot_id?: unknown;
  user?: unknown;
  text?: unknown;
  blocks?: unknown;
  channel?: unknown;
  channel_type?: unknown;
  ts?: unknown;
  thread_ts?: unknown;
  parent_user_id?: unknown;
  /** A `thread_broadcast`'s copy of the thread's parent. */
  root?: { user?: unknown };
}

/**
 * Subtypes of a person's message that are still a message to read: a reply also sent to the
 * channel (`thread_broadcast`) is a reply; a message sharing a file (`file_share`) is read for its
 * text, the file left alone. Every other subtype (edits, deletions, joins, bot posts) is no question.
 */
const READ_SUBTYPES = new Set(['thread_broadcast', 'file_share']);

/**
 * The message the bot should answer, decoded, or undefined for one it must not read. A channel
 * message that mentions the bot is left to its `app_mention` event (Slack sends both), so it is
 * answered once even before the de-duplication by channel and ts.
 *
 * @example conversationMessageOf({ type: 'message', channel_type: 'im', user: 'U1', text: 'cpi &gt; 2', channel: 'D1', ts: '1.1' }, { botUserId: 'UBOT' })
 * // { source: 'dm', text: 'cpi > 2', commandText: 'cpi > 2', userId: 'U1', channelId: 'D1', ts: '1.1' }
 */
export function conversationMessageOf(event: unknown, bot: BotIdentity): ConversationMessage | undefined {
  const raw = (event ?? {}) as RawMessageEvent;
  if (raw.type !== 'message' && raw.type !== 'app_mention') return undefined;
  if (raw.subtype !== undefined && raw.subtype !== null && !READ_SUBTYPES.has(String(raw.subtype))) return undefined;
  // Hidden events (thread bookkeeping, edits) are never a new message, whatever their subtype.
  if (raw.hidden === true) return undefined;
  if (raw.bot_id !== undefined && raw.bot_id !== null) return undefined;
  const { user, channel, ts } = raw;
  if (typeof user !== 'string' || typeof channel !== 'string' || typeof ts !== 'string') return undefined;
  if (bot.botUserId !== undefined && user === bot.botUserId) return undefined;
  const wire = wireTextOfMessage(raw);
  // A file shared without a word: nothing typed to read.
  if (raw.subtype === 'file_share' && typedTextOf(wire).commandText === '') return undefined;
  const threadTs = typeof raw.thread_ts === 'string' && raw.thread_ts !== ts ? raw.thread_ts : undefined;
  const base = { userId: user, channelId: channel, ts, ...(threadTs ? { threadTs } : {}) };
  const typed = (source: ConversationMessage['source'], text: string) => ({ source, ...typedTextOf(text), ...base });
  if (raw.type === 'app_mention') return typed('mention', withoutMention(wire, bot));
  if (raw.channel_type === 'im') return typed('dm', withoutMention(wire, bot));
  // A channel message: only a reply in a thread the bot started, and not one that mentions it.
  if (threadTs === undefined) return undefined;
  if (bot.botUserId !== undefined && mentions(wire, bot.botUserId)) return undefined;
  // A broadcast reply names the parent's author in its `root` copy of the parent.
  const parentUser = raw.parent_user_id ?? raw.root?.user;
  const parent = typeof parentUser === 'string' ? parentUser : undefined;
  // Without the bot's identity the parent is checked when the thread is read (its bot_id).
  if (bot.botUserId !== undefined && parent !== bot.botUserId) return undefined;
  return typed('thread', wire);
}

/** Whether the text mentions this user (`<@U123>` or `<@U123|name>`). */
function mentions(text: string, userId: string): boolean {
  return text.includes(`<@${userId}>`) || text.includes(`<@${userId}|`);
}

/** The wire text without the bot's mention (`<@UBOT> cpi by country` → `cpi by country`). */
export function withoutMention(text: string, bot: BotIdentity): string {
  const id = bot.botUserId;
  const stripped = id ? text.replace(new RegExp(`<@${id}(\\|[^>]*)?>`, 'g'), ' ') : text.replace(/^\s*<@[^>]+>/, ' ');
  return stripped.replace(/\s+/g, ' ').trim();
}
