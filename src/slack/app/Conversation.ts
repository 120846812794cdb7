/**
 * Asking again in the thread: a reply under one of the bot's answers (ad-hoc, digest, alert parent)
 * refines the query that answer ran; a DM or a mention is answered like `/pivot`. The thread is
 * read back from Slack (its messages' metadata say which query each answer ran); nothing of it is
 * stored.
 */
import { type Logger, toError } from '../../core/index.js';
import { applyFollowUp, compileQuery, queryTextOf } from '../../query/index.js';
import { escapeMrkdwn } from '../../render/index.js';
import {
  ALERT_EVENT,
  ANSWER_EVENT,
  DIGEST_EVENT,
  type HistoryMessage,
  type MessageMetadata,
  type SlackGateway,
} from '../../slackapi/index.js';
import type { BotIdentity, ConversationMessage, RecentKeys, TypedText } from '../receiver/index.js';
import type { CommandContext } from './answers.js';
import type { PivotCommands } from './PivotCommands.js';
import { noticeMessage } from './screens/infoMessages.js';
import { isChatter } from './threadChatter.js';

export interface ConversationDeps {
  commands: PivotCommands;
  /** `/pivot <text>` through the router: a DM or a mention that is not a follow-up is answered as a command. */
  pivot: (typed: TypedText, ctx: CommandContext) => Promise<void>;
  slack: SlackGateway;
  logger: Logger;
  bot: BotIdentity;
  /**
   * Who had their private hint in which thread (`hint:<channel>:<thread>:<user>`): a reply the
   * bot cannot read gets at most one per person per thread. In memory, and across replicas in the
   * PostgreSQL store's request keys when there are several.
   */
  hinted: RecentKeys;
}

/** How long a person's hint in a thread is remembered: past that, a thread's chatter may get one more. */
export const HINT_MEMORY_MS = 30 * 24 * 60 * 60_000;

/** Messages of a thread read at most (Slack pages of 200): a longer thread refines its last answer read. */
const THREAD_PAGES = 5;

/**
 * Answers one message: a follow-up in its thread, a DM in the DM, a mention in a thread under it.
 * Never throws.
 *
 * @example await converse({ source: 'thread', text: 'only iOS', userId, channelId, ts, threadTs }, deps)
 */
export async function converse(message: ConversationMessage, deps: ConversationDeps): Promise<void> {
  const ctx: CommandContext = {
    userId: message.userId,
    channelId: message.channelId,
    // A message has no trigger id: its channel and ts make its run happen once, across retries.
    runKey: `msg:${message.channelId}:${message.ts}`,
    inConversation: true,
  };
  const { commands, logger } = deps;
  try {
    if (message.threadTs === undefined) {
      // A DM is answered in the DM; a mention in a thread under it.
      return await deps.pivot(message, {
        ...ctx,
        ...(message.source === 'mention' ? { threadTs: message.ts } : {}),
      });
    }
    const threadCtx = { ...ctx, threadTs: message.threadTs };
    if (message.source === 'thread' && isChatter(message.text)) {
      // "on it", "thanks!", ":+1:": people talking to each other, not to the bot (no hint either).
      logger.info({ channel: message.channelId, thread: message.threadTs }, 'thread reply is chatter: no answer');
      return;
    }
    const parent = await threadQuery(message, deps);
    if (parent === undefined) {
      // Not one of the bot's answers: a mention or a DM there is a new question; a mere reply is not ours to read.
      if (message.source !== 'thread') return await deps.pivot(message, threadCtx);
      logger.info(
        { channel: message.channelId, thread: message.threadTs },
        'reply in a thread without a query: ignored',
      );
      return;
    }
    const answer = applyFollowUp(parent, message.text, await commands.queries.queryOptions());
    switch (answer.kind) {
      case 'query':
        return await commands.queries.followUp({ ...answer, reply: message.text }, threadCtx);
      case 'why':
        return await commands.queries.explainFollowUp(answer.text, threadCtx);
      case 'unknown':
        // People talk to each other in the bot's threads ("on it", ":+1:"): a plain reply the
        // bot cannot read gets no public answer, only a private hint, once per person and thread.
        // A DM or a mention is addressed to the bot, and answered whatever it says.
        if (message.source === 'thread') return await hintOnce(message, answer, deps);
        return await commands.answers.tell(threadCtx, suggestionMessage(answer.message, answer.suggestions));
    }
  } catch (error) {
    logger.warn({ err: toError(error), channel: message.channelId }, 'could not answer a message');
    await commands.answers
      .tell(
        { ...ctx, ...(message.threadTs ? { threadTs: message.threadTs } : {}) },
        noticeMessage(':warning: I could not read this thread just now; try again in a minute.'),
      )
      .catch(() => undefined);
  }
}

/**
 * The private hint for a reply in the bot's thread that reads as no query or follow-up: the
 * suggestions, seen by its author only (`chat.postEphemeral` in the thread), at most once per person
 * per thread; afterwards such replies get nothing.
 */
async function hintOnce(
  message: ConversationMessage,
  unread: { message: string; suggestions: readonly string[] },
  deps: ConversationDeps,
): Promise<void> {
  const threadTs = message.threadTs as string;
  const where = { channel: message.channelId, thread: threadTs, userId: message.userId };
  if (await deps.hinted.seenBefore(`hint:${message.channelId}:${threadTs}:${message.userId}`)) {
    deps.logger.info(where, 'thread reply not read as a question: no answer (hinted before)');
    return;
  }
  deps.logger.info(where, 'thread reply not read as a question: private hint');
  await deps.slack.ephemeral(message.channelId, message.userId, quietHintMessage(unread, deps.bot), { threadTs });
}

/** The hint: what was not read, what works here (escaped as `suggestionMessage` escapes them), and that only its reader sees it. */
export function quietHintMessage(unread: { message: string; suggestions: readonly string[] }, bot: BotIdentity) {
  const me = bot.botUserId ? `<@${bot.botUserId}>` : 'me';
  const note = `_Only you see this, once in this thread: I stay quiet on replies here that are not a question for me. Mention ${me} to ask me anything._`;
  return noticeMessage(`${suggestionText(unread.message, unread.suggestions)}\n${note}`);
}

/**
 * The query a reply in this thread refines: the latest answer before it in the thread (a chain),
 * else the parent's (an answer's query, a digest's report, an alert's report narrowed to its
 * entity). Undefined when the thread is not one of the bot's answers.
 */
async function threadQuery(message: ConversationMessage, deps: ConversationDeps): Promise<string | undefined> {
  const threadTs = message.threadTs as string;
  const thread = await deps.slack.replies(message.channelId, threadTs, {
    includeAllMetadata: true,
    limit: 200,
    pages: THREAD_PAGES,
  });
  const own = (m: HistoryMessage) => isBots(m, deps.bot);
  const parent = thread.find((m) => m.ts === threadTs);
  // A plain reply is read only in the bot's own threads; a mention (or a DM) may also follow up
  // on the bot's answer in a thread someone else started (the thread under a mention).
  if (!parent || (message.source === 'thread' && !own(parent))) return undefined;
  const latest = thread
    .filter((m) => own(m) && m.metadata?.event_type === ANSWER_EVENT && compareTs(m.ts, message.ts) < 0)
    .sort((a, b) => compareTs(b.ts, a.ts))[0];
  const chained = latest && queryInAnswer(latest.metadata);
  if (chained) return chained;
  return own(parent) && parent.metadata ? queryOfParent(parent.metadata, deps.commands) : undefined;
}

function queryInAnswer(metadata: MessageMetadata | undefined): string | undefined {
  const query = metadata?.event_payload.query;
  return typeof query === 'string' && query.trim() !== '' ? query : undefined;
}

/** The query of a thread's parent from its metadata; undefined for a message that ran none. */
async function queryOfParent(metadata: MessageMetadata, commands: PivotCommands): Promise<string | undefined> {
  if (metadata.event_type === ANSWER_EVENT) return queryInAnswer(metadata);
  if (metadata.event_type !== DIGEST_EVENT && metadata.event_type !== ALERT_EVENT) return undefined;
  const id = metadata.event_payload.report;
  if (typeof id !== 'string') return undefined;
  const report = await commands.queries.report(id).catch(() => undefined);
  if (!report) return undefined;
  const whole = queryTextOf(report.definition) ?? `run ${report.id}`;
  const entity = metadata.event_payload.entity;
  if (metadata.event_type !== ALERT_EVENT || typeof entity !== 'string') return whole;
  // Names are narrowed by their ids (looked up when the key has none); what cannot be narrowed,
  // or a look-up that fails, leaves the report's whole query to refine.
  const narrowed = await commands.queries.entityQuery(report.definition, entity).catch(() => undefined);
  if (narrowed === undefined || 'refused' in narrowed) return whole;
  try {
    compileQuery(narrowed.query, await commands.queries.queryOptions());
    return narrowed.query;
  } catch {
    return whole;
  }
}

/** Whether the bot posted this message (by its bot id or user id; any app's post when neither is known). */
function isBots(message: HistoryMessage, bot: BotIdentity): boolean {
  if (bot.botId !== undefined && message.botId === bot.botId) return true;
  if (bot.botUserId !== undefined && message.user === bot.botUserId) return true;
  return bot.botId === undefined && bot.botUserId === undefined && message.botId !== undefined;
}

/** Slack timestamps in order (`1700000000.000100`), exactly (no floating point). */
export function compareTs(a: string, b: string): number {
  const [ai = '', af = ''] = a.split('.');
  const [bi = '', bf = ''] = b.split('.');
  if (ai.length !== bi.length) return ai.length - bi.length;
  if (ai !== bi) return ai < bi ? -1 : 1;
  const x = af.padEnd(6, '0');
  const y = bf.padEnd(6, '0');
  return x === y ? 0 : x < y ? -1 : 1;
}

/**
 * The answer to a reply that could not be read: why, and replies that work here (never a guessed
 * query). Both quote the reply, so both are escaped: a `<!here>` in it notifies no one again.
 */
export function suggestionMessage(message: string, suggestions: readonly string[]) {
  return noticeMessage(suggestionText(message, suggestions));
}

/** The mrkdwn of `suggestionMessage`: what was echoed is escaped, so it can notify no one. */
function suggestionText(message: string, suggestions: readonly string[]): string {
  const code = (s: string) => `\`${escapeMrkdwn(s.replace(/`/g, "'"))}\``;
  const tries = suggestions.length > 0 ? `\nTry: ${suggestions.map(code).join(' · ')}` : '';
  return `:grey_question: ${escapeMrkdwn(message)}${tries}`;
}
