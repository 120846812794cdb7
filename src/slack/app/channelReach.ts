/**
 * Whether the bot can post a digest where someone subscribes it (`/pivot subscribe`, "Schedule
 * this"), asked of Slack when subscribing instead of learnt from the first slot's failure. A
 * channel the bot is not in is refused with the fix (invite it first); pivotbot does not join
 * channels by itself (the app has no `channels:join`): who reads a channel decides whether the bot
 * is in it. When Slack cannot tell (a group DM, which needs `mpim:read`; Slack unreachable), the
 * subscription is taken: a slot that then cannot post sends its failure notice to the subscriber
 * by DM (`postDigestFailure`).
 */
import { type Logger, toError } from '../../core/index.js';
import { type ChannelInfo, SlackDeliveryError, type SlackGateway } from '../../slackapi/index.js';

/** What Slack said of the channel a digest is to post in. */
export type ChannelProbe =
  /** `conversations.info` answered. */
  | { kind: 'info'; info: ChannelInfo }
  /** A direct message: the bot's own with the subscriber (`own`), or one between other people. */
  | { kind: 'dm'; own: boolean }
  /** Slack answered an error (`channel_not_found`: private without the bot, or gone), or no answer. */
  | { kind: 'error'; error: unknown };

/** A direct message's id starts with D. */
const isDm = (channel: string): boolean => channel.startsWith('D');

/**
 * Why a digest may not be subscribed into `channel`, in words for Slack with the fix; undefined
 * when the bot can post there, or when Slack could not tell (the failure notice covers that case).
 * `plain` words it for a modal's field error: plain text, no channel mention, at most 150 characters.
 *
 * @example subscribeRefusal('C0SALES01', { kind: 'info', info: { id: 'C0SALES01', isMember: false, isPrivate: false, isArchived: false } })
 * // "I'm not in <#C0SALES01>, so I could not post its digests there. Invite me first: `/invite @pivotbot` in <#C0SALES01>, then subscribe again."
 */
export function subscribeRefusal(
  channel: string,
  probe: ChannelProbe,
  style: 'mrkdwn' | 'plain' = 'mrkdwn',
): string | undefined {
  const plain = style === 'plain';
  const it = plain ? 'that channel' : `<#${channel}>`;
  const invite = plain
    ? 'Invite me first (/invite @pivotbot in it), then save again.'
    : `Invite me first: \`/invite @pivotbot\` in <#${channel}>, then subscribe again.`;
  switch (probe.kind) {
    case 'dm':
      if (probe.own) return undefined;
      return plain
        ? "I can't post in a direct message between other people. Pick a channel I'm in."
        : "I can't post in a direct message between other people. Subscribe a channel I'm in, or my own DM with you (pivotbot's Messages tab).";
    case 'info':
      if (probe.info.isArchived)
        return `${plain ? 'That channel' : it} is archived, so I can't post there. Pick another channel.`;
      if (!probe.info.isMember) return `I'm not in ${it}, so I could not post its digests there. ${invite}`;
      return undefined;
    case 'error':
      if (probe.error instanceof SlackDeliveryError && probe.error.slackError === 'channel_not_found') {
        return `I can't see ${it}: a private channel I'm not in looks like no channel to me. ${invite}`;
      }
      return undefined;
  }
}

/**
 * Asks Slack about `channel` for a subscription by `userId`: `conversations.info` for a channel,
 * for a DM whether it is the bot's own DM with them (`conversations.open`, as `im:read` is not
 * asked for). Never throws: Slack's error is part of the probe.
 */
export async function probeChannel(
  slack: Pick<SlackGateway, 'channelInfo' | 'openDm'>,
  channel: string,
  userId: string,
  signal?: AbortSignal,
): Promise<ChannelProbe> {
  const options = signal ? { signal } : {};
  try {
    if (isDm(channel)) {
      if (!slack.openDm) return { kind: 'error', error: new Error('this Slack gateway cannot open a DM') };
      return { kind: 'dm', own: (await slack.openDm(userId, options)) === channel };
    }
    if (!slack.channelInfo) return { kind: 'error', error: new Error('this Slack gateway cannot read channels') };
    return { kind: 'info', info: await slack.channelInfo(channel, options) };
  } catch (error) {
    return { kind: 'error', error };
  }
}

/**
 * The refusal for a subscription of `channel` by `userId` (see `subscribeRefusal`), or undefined
 * to go ahead; when Slack could not tell, that is logged and the subscription goes ahead.
 *
 * @example const refused = await channelRefusal(deps.slack, 'C0SALES01', 'U0ADMIN1', logger);
 */
export async function channelRefusal(
  slack: Pick<SlackGateway, 'channelInfo' | 'openDm'>,
  channel: string,
  userId: string,
  logger: Logger,
  options: { signal?: AbortSignal; style?: 'mrkdwn' | 'plain' } = {},
): Promise<string | undefined> {
  const probe = await probeChannel(slack, channel, userId, options.signal);
  const refusal = subscribeRefusal(channel, probe, options.style);
  if (refusal === undefined && probe.kind === 'error') {
    logger.warn(
      { channel, err: toError(probe.error) },
      'could not ask Slack whether pivotbot is in the channel; subscribed anyway (a slot that cannot post DMs its notice to the subscriber)',
    );
  }
  return refusal;
}
