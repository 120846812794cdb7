/**
 * Digests into channels the bot is not in, end to end over real HTTP (the bot in this process, the
 * sandbox as the Reporting Service, the Slack test server answering conversations.info as Slack
 * does): `/pivot subscribe` and "Schedule this" refuse such a channel with the fix, and a slot that
 * still cannot post (the bot was removed after subscribing; a report file's channel) sends its
 * failure notice by DM, to the subscriber or else to the admins, never into the channel.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SCHEDULE_BLOCKS } from '../../../src/slack/app/scheduleModal.js';
import { ADMIN, BotHarness } from '../../support/botHarness.js';
import { secondsReport, writeReports } from '../../support/scheduledReports.js';
import { wire } from '../../support/slackRequests.js';
import { dmOf, type StoredMessage } from '../../support/slackTestServer.js';
import { channelMention } from '../../support/slackWireFormat.js';

/** A second admin: a report file's failure notice goes to both, a subscription's only to its subscriber. */
const OTHER_ADMIN = 'U0ADMIN2';
/** Private: the bot is invited for the subscription, then removed. */
const SECRET = 'C0SECRET01';
/** Private, never joined: a report file names it. */
const VAULT = 'C0VAULT001';
/** Public, the bot not in it (the test server's). */
const OUTSIDE = 'C0OUTSIDE1';

const isNotice = (m: StoredMessage) => m.text.includes('could not be delivered');

describe('digests into channels the bot is not in', () => {
  const harness = new BotHarness();
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pivotbot-unreachable-'));
    const reports = await writeReports(dir, {
      'vault-digest': secondsReport({ title: 'Vault digest', channels: [VAULT], everySeconds: 3, chart: false }),
    });
    await harness.start({
      env: { PIVOTBOT_REPORTS_DIR: reports, PIVOTBOT_ADMINS: `${ADMIN},${OTHER_ADMIN}` },
    });
    for (const [id, name] of [
      [SECRET, 'secret'],
      [VAULT, 'vault'],
    ] as const) {
      harness.slack.knownChannels.set(id, name);
      harness.slack.privateChannels.add(id);
    }
  }, 120_000);

  afterAll(async () => {
    await harness.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('refuses /pivot subscribe into a private channel the bot is not in, saying to invite it, until it is', async () => {
    const secret = channelMention(SECRET, 'secret');
    const refused = await harness.command(wire`subscribe vault-digest ${secret} at 09:00`, { user: ADMIN });
    const answer = await harness.waitForHook(refused.hook);
    expect(answer).toContain(`I can't see <#${SECRET}>`);
    expect(answer).toContain(`/invite @pivotbot\` in <#${SECRET}>, then subscribe again`);
    expect(harness.bot.store.subscriptions.list()).toEqual([]);
    // Slack answered as it does for a private channel without the bot: channel_not_found.
    expect(harness.slack.callsTo('conversations.info').at(-1)).toMatchObject({
      args: { channel: SECRET },
      error: 'channel_not_found',
    });

    harness.slack.memberOf.add(SECRET);
    const ok = await harness.command(wire`subscribe vault-digest ${secret} at 09:00`, { user: ADMIN });
    expect(await harness.waitForHook(ok.hook)).toContain('Subscribed');
    expect(harness.bot.store.subscriptions.find('vault-digest', SECRET)).toMatchObject({ createdBy: ADMIN });
  });

  it('refuses a public channel the bot is not in the same way (Slack: is_member false)', async () => {
    const refused = await harness.command(wire`subscribe vault-digest ${channelMention(OUTSIDE, 'outside')} at 09:00`, {
      user: ADMIN,
    });
    const answer = await harness.waitForHook(refused.hook);
    expect(answer).toContain(`I'm not in <#${OUTSIDE}>`);
    expect(answer).toContain('/invite @pivotbot');
    expect(harness.bot.store.subscriptions.find('vault-digest', OUTSIDE)).toBeUndefined();
  });

  it('refuses "Schedule this" into such a channel under the channel picker', async () => {
    const opened = harness.slack.callsTo('views.open').length;
    await harness.click(
      'pivot_schedule_this',
      { reportId: 'adhoc', query: 'spend by countryCode yesterday' },
      { user: ADMIN },
    );
    await harness.slack.waitFor(
      () => harness.slack.callsTo('views.open').length > opened,
      10_000,
      'the schedule modal',
    );
    const trigger = harness.slack.callsTo('views.open')[opened]?.args.trigger_id;
    const viewId = [...harness.slack.views.entries()].find(([, v]) => v.triggerId === trigger)?.[0] as string;
    const form = (channel: string) => ({
      [SCHEDULE_BLOCKS.name]: { name: { type: 'plain_text_input', value: 'spend-in-vault' } },
      [SCHEDULE_BLOCKS.channel]: { channel: { type: 'conversations_select', selected_conversation: channel } },
      [SCHEDULE_BLOCKS.time]: { time: { type: 'timepicker', selected_time: '08:30' } },
      [SCHEDULE_BLOCKS.days]: { days: { type: 'checkboxes', selected_options: [{ value: '1' }] } },
      [SCHEDULE_BLOCKS.zone]: { zone: { type: 'plain_text_input', value: 'UTC' } },
    });
    const refused = await harness.submitView(viewId, form(VAULT), { user: ADMIN });
    const { errors } = (await refused.json()) as { errors: Record<string, string> };
    expect(Object.keys(errors)).toEqual([SCHEDULE_BLOCKS.channel]);
    expect(errors[SCHEDULE_BLOCKS.channel]).toContain('/invite @pivotbot');
    expect(harness.bot.store.subscriptions.find('saved-spend-in-vault', VAULT)).toBeUndefined();

    const ok = await harness.submitView(viewId, form('C0GENERAL1'), { user: ADMIN });
    expect(await ok.text()).toBe('');
    await harness.bot.store.subscriptions.remove('saved-spend-in-vault', 'C0GENERAL1');
  });

  it('sends the failure notice by DM, to the subscriber or else the admins, when a slot cannot post in its channel', async () => {
    const { slack, bot } = harness;
    // The subscription made above, on a seconds cron, and the bot removed from the channel since.
    const subscription = bot.store.subscriptions.find('vault-digest', SECRET);
    if (!subscription) throw new Error('the subscription of the first test is missing');
    const { at: _at, ...record } = subscription;
    await bot.store.subscriptions.add({ ...record, cron: '*/3 * * * * *', timezone: 'UTC' });
    slack.memberOf.delete(SECRET);
    await bot.scheduler.tick();

    const inDm = (user: string, channel: string) =>
      slack.messages.filter((m) => m.channel === dmOf(user) && isNotice(m) && m.text.includes(`<#${channel}>`));
    await slack.waitFor(
      () => inDm(ADMIN, SECRET).length >= 1 && inDm(ADMIN, VAULT).length >= 1 && inDm(OTHER_ADMIN, VAULT).length >= 1,
      60_000,
      'the failure notices by DM',
    );
    // The subscription's notice goes to its subscriber only; the report file's to every admin.
    expect(inDm(OTHER_ADMIN, SECRET)).toEqual([]);
    const subscriber = JSON.stringify(inDm(ADMIN, SECRET)[0]?.blocks);
    expect(subscriber).toContain('you subscribed it');
    expect(subscriber).toContain(`\`/invite @pivotbot\` in <#${SECRET}>`);
    expect(subscriber).toContain(`\`/pivot unsubscribe vault-digest\` in <#${SECRET}>`);
    expect(JSON.stringify(inDm(OTHER_ADMIN, VAULT)[0]?.blocks)).toContain('`deliver.channels` names it');
    // Nothing landed in either channel, and no notice was tried there after the digest's channel_not_found.
    expect(slack.messages.filter((m) => m.channel === SECRET || m.channel === VAULT)).toEqual([]);
    const tries = slack
      .callsTo('chat.postMessage')
      .filter((c) => c.args.channel === SECRET || c.args.channel === VAULT);
    expect(tries.length).toBeGreaterThan(0);
    expect(tries.every((c) => c.error === 'channel_not_found')).toBe(true);
    expect(tries.some((c) => String(c.args.text).includes('could not be delivered'))).toBe(false);
    await bot.store.subscriptions.remove('vault-digest', SECRET);
  }, 90_000);
});
