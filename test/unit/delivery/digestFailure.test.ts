/**
 * The one failure notice of a slot says how many tries were made, not how many were allowed; one
 * that cannot reach its channel goes by DM.
 */
import { silentLogger, UserInputError } from '../../../src/core/index.js';
import { type DigestDeps, failureNoticeRecipients, postDigestFailure } from '../../../src/delivery/index.js';
import type { SlackMessage } from '../../../src/render/index.js';
import type { ScheduleSpec } from '../../../src/scheduler/index.js';
import { SlackDeliveryError } from '../../../src/slackapi/index.js';
import { createMemoryStore } from '../../../src/store/index.js';

const SLOT = new Date('2026-11-20T12:00:00Z');
const spec: ScheduleSpec = {
  id: 'report:daily:C1:0 9 * * *@UTC',
  report: 'daily',
  channel: 'C1',
  source: 'report',
  timezone: 'UTC',
  cron: '0 9 * * *',
  catchUp: null,
  retry: { attempts: 3, backoffMs: 120_000 },
};

describe('postDigestFailure', () => {
  it.each([
    [1, 'after 1 attempt(s)'],
    [3, 'after 3 attempt(s)'],
  ])('after %s tries of 3 allowed, says %s', async (tries, expected) => {
    const store = createMemoryStore({ clock: () => SLOT });
    let runId = '';
    for (let i = 0; i < tries; i++) {
      const { run } = await store.runs.start({
        report: 'daily',
        trigger: 'schedule',
        idempotencyKey: `digest:daily:C1:${SLOT.toISOString()}`,
        scheduledFor: SLOT.toISOString(),
        channel: 'C1',
      });
      await store.runs.finish(run.id, { status: 'failed', error: { code: 'X', message: 'x' } });
      runId = run.id;
    }
    const posts: SlackMessage[] = [];
    const deps = {
      store,
      logger: silentLogger(),
      loadReports: async () => ({ reports: [], problems: [], broken: [] }),
      slack: {
        async post(_channel: string, message: SlackMessage) {
          posts.push(message);
          return { ts: '1.000001', channel: 'C1' };
        },
      },
    } as unknown as DigestDeps;
    await postDigestFailure(
      { spec, slot: SLOT, error: new UserInputError('QUERY_INVALID', 'no such metric'), runId },
      deps,
    );
    expect(posts[0]?.text).toContain(expected);
  });
});

/** A notice that cannot reach its channel goes by DM: to the subscriber, else to the admins. */
describe('postDigestFailure to a channel the bot cannot post in', () => {
  interface Sent {
    channel: string;
    message: SlackMessage;
  }

  async function setup(options: { subscribedBy?: string; channelRefuses?: string; admins?: string[] } = {}) {
    const store = createMemoryStore({ clock: () => SLOT });
    const sent: Sent[] = [];
    const dms: string[] = [];
    let subscriptionId: string | undefined;
    if (options.subscribedBy !== undefined) {
      const { subscription } = await store.subscriptions.add({
        report: 'daily',
        channel: 'C1',
        at: '09:00',
        createdBy: options.subscribedBy,
      });
      subscriptionId = subscription.id;
    }
    const { run } = await store.runs.start({
      report: 'daily',
      trigger: 'schedule',
      idempotencyKey: `digest:daily:C1:${SLOT.toISOString()}`,
      scheduledFor: SLOT.toISOString(),
      channel: 'C1',
    });
    const deps = {
      store,
      logger: silentLogger(),
      admins: options.admins ?? ['U0ADMIN1', 'U0ADMIN2'],
      loadReports: async () => ({ reports: [], problems: [], broken: [] }),
      slack: {
        async post(channel: string, message: SlackMessage) {
          if (channel === 'C1' && options.channelRefuses) {
            throw new SlackDeliveryError('chat.postMessage', options.channelRefuses);
          }
          sent.push({ channel, message });
          return { ts: '1.000001', channel };
        },
        async openDm(user: string) {
          dms.push(user);
          return `D-${user}`;
        },
      },
    } as unknown as DigestDeps;
    const subscribed: ScheduleSpec =
      subscriptionId === undefined ? spec : { ...spec, source: 'subscription', subscriptionId };
    return { deps, sent, dms, runId: run.id, spec: subscribed };
  }

  it('sends it to the subscriber by DM when the digest failed with channel_not_found, naming the channel and the fix', async () => {
    const { deps, sent, dms, runId, spec: subscribed } = await setup({ subscribedBy: 'U0ALICE' });
    const error = new SlackDeliveryError('chat.postMessage', 'channel_not_found');
    await postDigestFailure({ spec: subscribed, slot: SLOT, error, runId }, deps);
    // The channel is not tried again: its own error already says the bot cannot post there.
    expect(sent.map((s) => s.channel)).toEqual(['D-U0ALICE']);
    expect(dms).toEqual(['U0ALICE']);
    const blocks = JSON.stringify(sent[0]?.message.blocks);
    expect(sent[0]?.message.text).toContain('could not be delivered in <#C1>');
    expect(blocks).toContain('you subscribed it');
    expect(blocks).toContain('`/invite @pivotbot` in <#C1>');
    expect(blocks).toContain('`/pivot unsubscribe daily` in <#C1>');
    // No Re-run button: in a DM it would run the report there, not in the channel.
    expect(blocks).not.toContain('pivot_rerun');
  });

  it('sends it to every admin when the schedule is the report file’s (no subscriber)', async () => {
    const { deps, sent, runId } = await setup();
    const error = new SlackDeliveryError('chat.postMessage', 'not_in_channel');
    await postDigestFailure({ spec, slot: SLOT, error, runId }, deps);
    expect(sent.map((s) => s.channel)).toEqual(['D-U0ADMIN1', 'D-U0ADMIN2']);
    expect(JSON.stringify(sent[0]?.message.blocks)).toContain("the report file's `deliver.channels` names it");
  });

  it('tries the channel first when the digest failed otherwise, and DMs when the notice is refused there', async () => {
    const {
      deps,
      sent,
      runId,
      spec: subscribed,
    } = await setup({ subscribedBy: 'U0ALICE', channelRefuses: 'is_archived' });
    const error = new UserInputError('QUERY_INVALID', 'no such metric');
    await postDigestFailure({ spec: subscribed, slot: SLOT, error, runId }, deps);
    expect(sent.map((s) => s.channel)).toEqual(['D-U0ALICE']);
    expect(sent[0]?.message.text).toContain('no such metric');
  });

  it('posts in the channel when it can, and lets any other Slack error through (the scheduler logs it)', async () => {
    const ok = await setup({ subscribedBy: 'U0ALICE' });
    const error = new UserInputError('QUERY_INVALID', 'no such metric');
    await postDigestFailure({ spec: ok.spec, slot: SLOT, error, runId: ok.runId }, ok.deps);
    expect(ok.sent.map((s) => s.channel)).toEqual(['C1']);
    expect(JSON.stringify(ok.sent[0]?.message.blocks)).toContain('pivot_rerun');

    const limited = await setup({ subscribedBy: 'U0ALICE', channelRefuses: 'ratelimited' });
    await expect(
      postDigestFailure({ spec: limited.spec, slot: SLOT, error, runId: limited.runId }, limited.deps),
    ).rejects.toMatchObject({ slackError: 'ratelimited' });
    expect(limited.dms).toEqual([]);
  });
});

describe('failureNoticeRecipients', () => {
  const subscriptions = (createdBy: string | undefined) => ({
    get: (id: string) => (id === 'sub1' && createdBy !== undefined ? ({ createdBy } as never) : undefined),
  });

  it('is the subscriber when one is known, else the admins (once each)', () => {
    expect(failureNoticeRecipients({ subscriptionId: 'sub1' }, subscriptions('U0ALICE'), ['U0ADMIN1'])).toEqual({
      users: ['U0ALICE'],
      to: 'subscriber',
    });
    // The subscription was removed since, or the schedule is a report file's.
    expect(failureNoticeRecipients({ subscriptionId: 'sub1' }, subscriptions(undefined), ['U0A', 'U0A'])).toEqual({
      users: ['U0A'],
      to: 'admin',
    });
    expect(failureNoticeRecipients({}, subscriptions('U0ALICE'), [])).toEqual({ users: [], to: 'admin' });
    // A record whose creator is no Slack user id (written by hand): the admins.
    expect(failureNoticeRecipients({ subscriptionId: 'sub1' }, subscriptions('ops-script'), ['U0A'])).toEqual({
      users: ['U0A'],
      to: 'admin',
    });
  });
});
