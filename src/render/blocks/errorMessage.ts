/** What a user sees when something fails: the safe user message, a hint, and suggestions. */

import { escapeMrkdwnKeepingChannels } from '../escapeMrkdwn.js';
import { fitMessage } from '../slackLimits.js';
import { context, escapeMrkdwn, mrkdwn } from './text.js';
import type { Block, SlackMessage } from './types.js';

export interface ErrorMessageInput {
  /** The error's `userMessage` (never the internal message: it may hold details users should not see). */
  userMessage: string;
  /** What to try next: `Try a shorter range, or run it as an async job.` */
  hint?: string;
  /** "Did you mean …?" candidates. */
  suggestions?: readonly string[];
  /** The error's stable code, shown small for support. */
  code?: string;
  /** What was being done: `Running *Daily KPIs*`. */
  action?: string;
}

/**
 * An error message.
 *
 * @example errorMessage({ userMessage: 'Unknown metric "instals".', suggestions: ['installs'], code: 'QUERY_INVALID' })
 */
export function errorMessage(input: ErrorMessageInput): SlackMessage {
  const lead = input.action ? `:warning: *${escapeMrkdwn(input.action)} failed.*\n` : ':warning: ';
  const blocks: Block[] = [
    { type: 'section', text: mrkdwn(`${lead}${escapeMrkdwnKeepingChannels(input.userMessage)}`) },
  ];
  if (input.suggestions && input.suggestions.length > 0) {
    const list = input.suggestions.slice(0, 5).map((s) => `\`${escapeMrkdwn(s)}\``);
    blocks.push({ type: 'section', text: mrkdwn(`Did you mean ${list.join(', ')}?`) });
  }
  const small: string[] = [];
  if (input.hint) small.push(`:bulb: ${escapeMrkdwn(input.hint)}`);
  if (input.code) small.push(`code \`${escapeMrkdwn(input.code)}\``);
  if (small.length > 0) blocks.push(context(...small));
  // The notification text is mrkdwn too: what the message quotes (a typed word) must not notify anyone.
  return fitMessage({ text: `Error: ${escapeMrkdwnKeepingChannels(input.userMessage)}`, blocks }).message;
}
