/** Subscribing a channel the bot cannot post in is refused with the fix; what Slack cannot tell is let through. */
import { channelRefusal, probeChannel, subscribeRefusal } from '../../../../src/slack/app/channelReach.js';
import { type ChannelInfo, SlackDeliveryError } from '../../../../src/slackapi/index.js';
import { recordingLogger } from '../../../support/storeTestKit.js';

const info = (fields: Partial<ChannelInfo>): ChannelInfo => ({
  id: 'C0SALES001',
  isMember: true,
  isPrivate: false,
  isArchived: false,
  ...fields,
});

describe('subscribeRefusal', () => {
  it('lets a channel the bot is in through, and the bot’s own DM with the subscriber', () => {
    expect(subscribeRefusal('C0SALES001', { kind: 'info', info: info({}) })).toBeUndefined();
    expect(subscribeRefusal('C0SALES001', { kind: 'info', info: info({ isPrivate: true }) })).toBeUndefined();
    expect(subscribeRefusal('D0ALICEDM', { kind: 'dm', own: true })).toBeUndefined();
  });

  it('refuses a public channel the bot is not in, saying to invite it there', () => {
    const refusal = subscribeRefusal('C0SALES001', { kind: 'info', info: info({ isMember: false }) });
    expect(refusal).toContain("I'm not in <#C0SALES001>");
    expect(refusal).toContain('`/invite @pivotbot` in <#C0SALES001>, then subscribe again');
  });

  it('refuses a private channel the bot is not in (Slack: channel_not_found), with the same fix', () => {
    const probe = { kind: 'error' as const, error: new SlackDeliveryError('conversations.info', 'channel_not_found') };
    const refusal = subscribeRefusal('G0SECRET01', probe);
    expect(refusal).toContain("I can't see <#G0SECRET01>");
    expect(refusal).toContain('`/invite @pivotbot` in <#G0SECRET01>');
  });

  it('refuses an archived channel and a DM between other people', () => {
    expect(subscribeRefusal('C0OLD00001', { kind: 'info', info: info({ isArchived: true }) })).toContain('archived');
    expect(subscribeRefusal('D0OTHERS01', { kind: 'dm', own: false })).toContain('direct message between other people');
  });

  it('lets through what Slack could not tell: a missing scope (a group DM), rate limits, no answer', () => {
    for (const error of [
      new SlackDeliveryError('conversations.info', 'missing_scope'),
      new SlackDeliveryError('conversations.info', 'ratelimited'),
      new Error('socket hang up'),
    ]) {
      expect(subscribeRefusal('C0MPIM0001', { kind: 'error', error })).toBeUndefined();
    }
  });

  it('words it as plain text within 150 characters for the modal’s field error', () => {
    for (const probe of [
      { kind: 'info' as const, info: info({ isMember: false }) },
      { kind: 'info' as const, info: info({ isArchived: true }) },
      { kind: 'error' as const, error: new SlackDeliveryError('conversations.info', 'channel_not_found') },
      { kind: 'dm' as const, own: false },
    ]) {
      const refusal = subscribeRefusal('C0SALES001', probe, 'plain') ?? '';
      expect(refusal).not.toBe('');
      expect(refusal.length).toBeLessThanOrEqual(150);
      expect(refusal).not.toMatch(/<#|`/);
    }
    expect(subscribeRefusal('C0SALES001', { kind: 'info', info: info({ isMember: false }) }, 'plain')).toContain(
      '/invite @pivotbot',
    );
  });
});

describe('probeChannel', () => {
  it('asks conversations.info of a channel, and whether a DM is the bot’s own with the subscriber', async () => {
    const asked: string[] = [];
    const slack = {
      channelInfo: async (channel: string) => {
        asked.push(channel);
        return info({ id: channel, isMember: false });
      },
      openDm: async (user: string) => `D${user}`,
    };
    expect(await probeChannel(slack, 'C0SALES001', 'U0ALICE')).toEqual({
      kind: 'info',
      info: info({ isMember: false }),
    });
    expect(await probeChannel(slack, 'DU0ALICE', 'U0ALICE')).toEqual({ kind: 'dm', own: true });
    expect(await probeChannel(slack, 'DU0BOB', 'U0ALICE')).toEqual({ kind: 'dm', own: false });
    // DMs are never asked of conversations.info: that needs im:read, which the app does not ask for.
    expect(asked).toEqual(['C0SALES001']);
  });

  it('turns Slack’s error into the probe instead of throwing', async () => {
    const notFound = new SlackDeliveryError('conversations.info', 'channel_not_found');
    const probe = await probeChannel(
      {
        channelInfo: async () => {
          throw notFound;
        },
      },
      'G0SECRET01',
      'U0ALICE',
    );
    expect(probe).toEqual({ kind: 'error', error: notFound });
  });
});

describe('channelRefusal', () => {
  it('goes ahead, logging why, when Slack cannot tell', async () => {
    const { logger, lines } = recordingLogger();
    const refusal = await channelRefusal(
      {
        channelInfo: async () => {
          throw new SlackDeliveryError('conversations.info', 'missing_scope');
        },
      },
      'C0MPIM0001',
      'U0ALICE',
      logger,
    );
    expect(refusal).toBeUndefined();
    expect(lines).toEqual([
      expect.objectContaining({ level: 40, channel: 'C0MPIM0001', msg: expect.stringContaining('subscribed anyway') }),
    ]);
  });
});
