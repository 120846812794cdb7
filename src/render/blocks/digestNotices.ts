/**
 * What a scheduled digest says about its own delivery: the "Late" line of a digest caught up after
 * downtime, and the failure notice posted once when every attempt of a slot has failed.
 */
import { dateTimeFormat } from '../../core/index.js';
import { ACTION_IDS } from './actionIds.js';
import { button, context, escapeMrkdwn, mrkdwn } from './text.js';
import type { SlackMessage } from './types.js';

/** `Mon 09:00` in the zone. */
function wallTime(at: Date, timezone: string, withDay: boolean): string {
  return dateTimeFormat('en-GB', {
    timeZone: timezone,
    ...(withDay ? { weekday: 'short' } : {}),
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  })
    .format(at)
    .replace(',', '');
}

/**
 * The line a late digest carries in its text and message.
 *
 * @example lateNote(slot, postedAt, 'America/Sao_Paulo') // "Late: the digest due Mon 09:00 America/Sao_Paulo, posted 09:47"
 */
export function lateNote(slot: Date, postedAt: Date, timezone: string): string {
  const sameDay = wallTime(slot, timezone, true).slice(0, 3) === wallTime(postedAt, timezone, true).slice(0, 3);
  return `Late: the digest due ${wallTime(slot, timezone, true)} ${timezone}, posted ${wallTime(postedAt, timezone, !sameDay)}`;
}

export interface DigestFailure {
  reportId: string;
  title: string;
  slot: Date;
  timezone: string;
  attempts: number;
  /** What went wrong, in the user's terms (an error's userMessage). */
  reason: string;
  /** A reference the log line carries too. */
  ref?: string;
}

/**
 * The one notice a channel gets when a scheduled digest could not be delivered after all its
 * attempts: the report, the slot, the reason, and a button that runs it now.
 */
export function digestFailureMessage(failure: DigestFailure): SlackMessage {
  const due = `${wallTime(failure.slot, failure.timezone, true)} ${failure.timezone}`;
  const text = `The ${failure.title} digest due ${due} could not be delivered after ${failure.attempts} attempt(s): ${failure.reason}`;
  return {
    text,
    blocks: [
      {
        type: 'section',
        text: mrkdwn(
          `:x: *${escapeMrkdwn(failure.title)}*: the digest due ${escapeMrkdwn(due)} could not be delivered after ${failure.attempts} attempt(s).\n${escapeMrkdwn(failure.reason)}`,
        ),
      },
      context(
        `Report \`${escapeMrkdwn(failure.reportId)}\` · slot ${failure.slot.toISOString()}${failure.ref ? ` · ref ${escapeMrkdwn(failure.ref)}` : ''} · the next slot runs as scheduled`,
      ),
      {
        type: 'actions',
        elements: [button('Re-run now', ACTION_IDS.rerun, { reportId: failure.reportId }, 'primary')],
      },
    ],
  };
}
