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
  /**
   * Set when the notice cannot be posted in the digest's channel (the bot is not in it, or it is
   * archived) and goes by DM instead: the channel, and why this person gets it.
   */
  redirected?: {
    channel: string;
    /** `subscriber`: they subscribed the channel; `admin`: a pivotbot admin, nobody known subscribed it. */
    to: 'subscriber' | 'admin';
    /** Where the schedule comes from: a subscription (`/pivot unsubscribe` stops it) or the report file. */
    source: 'subscription' | 'report';
  };
}

/**
 * The one notice a channel gets when a scheduled digest could not be delivered after all its
 * attempts: the report, the slot, the reason, and a button that runs it now. Redirected to a DM
 * (the channel cannot be posted in), it names the channel and the fix instead of the button,
 * which would run the report in the DM.
 */
export function digestFailureMessage(failure: DigestFailure): SlackMessage {
  const due = `${wallTime(failure.slot, failure.timezone, true)} ${failure.timezone}`;
  const where = failure.redirected ? ` in <#${failure.redirected.channel}>` : '';
  const text = `The ${failure.title} digest due ${due} could not be delivered${where} after ${failure.attempts} attempt(s): ${failure.reason}`;
  return {
    text,
    blocks: [
      {
        type: 'section',
        text: mrkdwn(
          `:x: *${escapeMrkdwn(failure.title)}*: the digest due ${escapeMrkdwn(due)} could not be delivered${where} after ${failure.attempts} attempt(s).\n${escapeMrkdwn(failure.reason)}`,
        ),
      },
      ...(failure.redirected ? [redirectedSection(failure.reportId, failure.redirected)] : []),
      context(
        `Report \`${escapeMrkdwn(failure.reportId)}\` · slot ${failure.slot.toISOString()}${failure.ref ? ` · ref ${escapeMrkdwn(failure.ref)}` : ''} · the next slot runs as scheduled`,
      ),
      ...(failure.redirected
        ? []
        : [
            {
              type: 'actions' as const,
              elements: [button('Re-run now', ACTION_IDS.rerun, { reportId: failure.reportId }, 'primary')],
            },
          ]),
    ],
  };
}

/** Why a failure notice came by DM, and what fixes the channel. */
function redirectedSection(reportId: string, redirected: NonNullable<DigestFailure['redirected']>) {
  const channel = `<#${redirected.channel}>`;
  const why =
    redirected.to === 'subscriber'
      ? `I can't post in ${channel}, so this notice comes to you: you subscribed it.`
      : redirected.source === 'report'
        ? `I can't post in ${channel}, so this notice comes to you as a pivotbot admin: the report file's \`deliver.channels\` names it.`
        : `I can't post in ${channel}, so this notice comes to you as a pivotbot admin: whoever subscribed it is not known.`;
  const stop =
    redirected.source === 'report'
      ? 'or take the channel out of the report file.'
      : `or stop it: \`/pivot unsubscribe ${escapeMrkdwn(reportId)}\` in ${channel}.`;
  return {
    type: 'section' as const,
    text: mrkdwn(
      `${why}\nInvite me there with \`/invite @pivotbot\` in ${channel} (the next slot then posts as scheduled), ${stop}`,
    ),
  };
}

/** The weekly note of a quiet digest (`present.onlyWhen` with `allQuiet`). */
export interface AllQuiet {
  reportId: string;
  title: string;
  /** Why the digest stayed quiet: `no headline KPI moved 10 % or more vs the same day last week, …`. */
  reason: string;
  /** The quiet digest's last post, if any. */
  lastPostAt?: Date;
  timezone: string;
}

/**
 * The note a quiet digest posts once a week instead of nothing, so silence is never mistaken for
 * a dead bot: the report, why nothing was posted, and since when.
 *
 * @example allQuietMessage({ reportId: 'daily-kpi', title: 'Daily KPIs', reason: 'no headline KPI moved …', timezone: 'UTC' })
 */
export function allQuietMessage(quiet: AllQuiet): SlackMessage {
  const reason = quiet.reason.replace(/^quiet: /, '');
  const since = quiet.lastPostAt
    ? ` The last post was ${escapeMrkdwn(dateTimeFormat('en-GB', { timeZone: quiet.timezone, weekday: 'short', day: 'numeric', month: 'short' }).format(quiet.lastPostAt))}.`
    : '';
  const text = `${quiet.title}: all quiet. ${reason}.`;
  return {
    text,
    blocks: [
      {
        type: 'section',
        text: mrkdwn(`:zzz: *${escapeMrkdwn(quiet.title)}*: all quiet. ${escapeMrkdwn(reason)}.${since}`),
      },
      context(
        `Report \`${escapeMrkdwn(quiet.reportId)}\` posts only when something moves; this weekly note says it is running. \`/pivot run ${escapeMrkdwn(quiet.reportId)}\` shows the numbers now.`,
      ),
    ],
  };
}
