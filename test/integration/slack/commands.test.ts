import { ADMIN, receiverThreadEntry, useBotHarness } from '../../support/botHarness.js';
import { postSigned, slashCommandBody, wire } from '../../support/slackRequests.js';
import { channelMention } from '../../support/slackWireFormat.js';

const text = (value: unknown) => JSON.stringify(value);
/** Channels as Slack sends them in a command's text (should_escape: true). */
const MARKETING = channelMention('C0MARKET01', 'marketing');
const UA_DAILY = channelMention('C0UADAILY1', 'ua-daily');

// Every subcommand both ways the bot can run: all in one thread (the TypeScript sources), and as
// production runs the compiled build, with Slack received in a thread of its own and charts drawn
// in a child process.
describe.each([
  ['all in the bot thread', () => false as const, false, 'inline'],
  ['with a receiver thread and a chart process', receiverThreadEntry, true, 'thread'],
])('/pivot over signed HTTP, %s', (_mode, receiverThread, chartProcess, receiver) => {
  const bot = useBotHarness({ receiverThread: receiverThread(), chartProcess });
  const posts = () => bot().slack.callsTo('chat.postMessage');

  it('acknowledges at once and answers help privately, mentioning the commands', async () => {
    const { response, hook } = await bot().command('help');
    expect(response.status).toBe(200);
    const answer = await bot().waitForHook(hook);
    expect(answer).toContain('/pivot list');
    expect(answer).toContain('ephemeral');
    expect(posts().length).toBe(0);
  });

  it('lists the reports and shows one', async () => {
    const list = await bot().command('list');
    const listed = await bot().waitForHook(list.hook);
    for (const id of ['daily-kpi', 'weekly-campaign-review', 'site-bundle-quality']) expect(listed).toContain(id);
    const show = await bot().command('show daily-kpi');
    expect(await bot().waitForHook(show.hook)).toContain('Schedule:');
  });

  it('suggests a near name for an unknown report', async () => {
    const { hook } = await bot().command('show daily-kp');
    expect(await bot().waitForHook(hook)).toContain('daily-kpi');
  });

  it('answers "show <question>" and "list <question>" as queries when they name no report', async () => {
    for (const question of ['show spend by country yesterday', 'list spend by campaign last 7 days']) {
      const before = posts().length;
      await bot().command(question);
      await bot().slack.waitFor(() => posts().length > before, 20_000, `the answer to ${question}`);
      expect(text(posts()[before]?.args.blocks)).toContain(question.startsWith('show') ? 'countryCode' : 'campaign');
    }
  });

  it('posts an ad-hoc query result in the channel, echoing the question', async () => {
    const before = posts().length;
    const { hook } = await bot().command('spend installs installsCpi by countryCode yesterday', { user: 'U_ASKER' });
    await bot().slack.waitFor(() => posts().length > before, 20_000, 'the result message');
    const message = posts()[before];
    expect(message?.args.channel).toBe('C0GENERAL1');
    expect(text(message?.args.blocks)).toContain('U_ASKER');
    expect(text(message?.args.blocks)).toContain('installsCpi');
    expect(bot().hookBodies(hook)).toEqual([]);
  });

  it('answers a bad query privately with a caret under the word and a suggestion', async () => {
    const { hook } = await bot().command('spend instals by countryCode yesterday');
    const answer = await bot().waitForHook(hook);
    expect(answer).toContain('^^^^^^^');
    expect(answer).toContain('installs');
    expect(answer).toContain('ephemeral');
  });

  it('runs a named report and posts its digest', async () => {
    const before = posts().length;
    const images = bot().slack.callsTo('files.getUploadURLExternal').length;
    await bot().command('run daily-kpi');
    await bot().slack.waitFor(() => posts().length > before, 20_000, 'the digest');
    expect(text(posts()[before]?.args.blocks)).toContain('"type":"header"');
    // Its chart was drawn (here or in the chart process), uploaded, and shown in the message.
    expect(text(posts()[before]?.args.blocks)).toContain('"type":"image"');
    const uploaded = bot().slack.callsTo('files.getUploadURLExternal').slice(images);
    expect(uploaded.some((c) => String(c.args.filename).endsWith('.png') && Number(c.args.length) > 10_000)).toBe(true);
  });

  it('answers postbacks with the distribution', async () => {
    const before = posts().length;
    await bot().command('postbacks app:101 keys:conversion_value last 7 days');
    // The previous test's digest may still add its explanation to its thread meanwhile: look for the answer itself.
    const answer = () =>
      posts()
        .slice(before)
        .find((p) => text(p.args.blocks).includes('conversion_value'));
    await bot().slack.waitFor(() => answer() !== undefined, 20_000, 'the postbacks result with its key');
    expect(answer()?.args.channel).toBeDefined();
  });

  it('lists the open incidents of the store, and never calls unevaluated rules all clear', async () => {
    const none = await bot().command('alerts');
    const empty = await bot().waitForHook(none.hook);
    // reports/ has rules but nothing evaluated them yet: no green check, each rule named as such.
    expect(empty).toContain('No rule has been evaluated yet');
    expect(empty).not.toContain('white_check_mark');
    expect(empty).toContain('cpi-too-high');
    expect(empty).toContain('not evaluated yet');
    const { incident } = await bot().bot.store.incidents.open({
      ruleId: 'cpi-spike',
      entityKey: 'country=BR',
      channel: 'C0ALERTS01',
      value: 4.25,
    });
    await bot().bot.store.incidents.save({ ...incident, lastValue: 4.25, threadTs: '1700000000.000100' });
    const open = await bot().command('alerts');
    const answer = await bot().waitForHook(open.hook);
    expect(answer).toContain('1 open incident');
    for (const shown of [
      'cpi-spike',
      'country=BR',
      '4.25',
      'https://slack.com/archives/C0ALERTS01/p1700000000000100',
    ]) {
      expect(answer).toContain(shown);
    }
    await bot().bot.store.incidents.update(incident.id, { state: 'resolved' });
  });

  it('lets only admins subscribe, and records the subscription', async () => {
    const refused = await bot().command('subscribe daily-kpi at 09:00', { user: 'U_SOMEONE' });
    expect(await bot().waitForHook(refused.hook)).toContain('Only pivotbot admins');
    expect(bot().bot.store.subscriptions.list()).toHaveLength(0);

    const ok = await bot().command(wire`subscribe daily-kpi ${MARKETING} at 9:30`, { user: ADMIN });
    expect(await bot().waitForHook(ok.hook)).toContain('Subscribed');
    expect(bot().bot.store.subscriptions.list()).toEqual([
      expect.objectContaining({ report: 'daily-kpi', channel: 'C0MARKET01', at: '09:30', createdBy: ADMIN }),
    ]);

    const off = await bot().command(wire`unsubscribe daily-kpi ${MARKETING}`, { user: ADMIN });
    expect(await bot().waitForHook(off.hook)).toContain('no longer gets');
    expect(bot().bot.store.subscriptions.list()).toHaveLength(0);
  });

  it('refuses a subscription that would post the report a second time where its file already delivers it', async () => {
    // daily-kpi's file delivers to "#ua-daily" on its own schedule; Slack knows that name by its id,
    // and the bot is in it (a channel it is not in is refused: unreachableChannel.test.ts).
    bot().slack.knownChannels.set('C0UADAILY1', 'ua-daily');
    bot().slack.memberOf.add('C0UADAILY1');
    const same = await bot().command(wire`subscribe daily-kpi ${UA_DAILY}`, { user: ADMIN });
    const answer = await bot().waitForHook(same.hook);
    expect(answer).toContain('already posts in <#C0UADAILY1>');
    expect(answer).toContain('/pivot subscribe daily-kpi at 14:00');
    expect(bot().bot.store.subscriptions.list()).toHaveLength(0);

    const other = await bot().command(wire`subscribe daily-kpi ${UA_DAILY} at 14:00`, { user: ADMIN });
    expect(await bot().waitForHook(other.hook)).toContain('Subscribed');
    await bot().command(wire`unsubscribe daily-kpi ${UA_DAILY}`, { user: ADMIN });
    await bot().slack.waitFor(() => bot().bot.store.subscriptions.list().length === 0, 5_000, 'unsubscribed');
  });

  it('tells the user how to invite the bot to a channel it is not in', async () => {
    const { hook } = await bot().command('spend by countryCode yesterday', { channel: 'C0OUTSIDE1' });
    expect(await bot().waitForHook(hook)).toContain('/invite @pivotbot');
  });

  it('refuses a forged and a stale signature with 401 and runs nothing', async () => {
    const calls = bot().slack.calls.length;
    const body = slashCommandBody({ text: 'help', responseUrl: bot().slack.responseUrl('forged') });
    const forged = await postSigned(bot().eventsUrl, body, { signingSecret: 'not-the-secret' });
    expect(forged.status).toBe(401);
    const stale = await postSigned(bot().eventsUrl, body, {
      signingSecret: 'test-signing-secret-value',
      timestamp: Math.floor(Date.now() / 1000) - 301,
    });
    expect(stale.status).toBe(401);
    // A genuine command sent after them is answered: had the bot run the refused ones, it would have by then.
    const genuine = await bot().command('help');
    await bot().waitForHook(genuine.hook);
    expect(bot().slack.hooks.filter((x) => x.path === '/hooks/forged')).toHaveLength(0);
    expect(bot().slack.calls.length).toBe(calls);
  });

  it('runs a command once when Slack delivers the same request again (X-Slack-Retry-Num)', async () => {
    const before = posts().length;
    const first = await bot().command('spend by countryCode yesterday');
    const again = await bot().command('', { body: first.body, retryNum: 1 });
    expect(again.response.status).toBe(200);
    await bot().slack.waitFor(() => posts().length > before, 60_000, 'the result');
    // A second run would have posted by the time a later command's result is out.
    const later = posts().length;
    await bot().command('clicks by countryCode yesterday');
    await bot().slack.waitFor(() => posts().length > later, 60_000, 'the later result');
    expect(posts().length).toBe(before + 2);
    expect(
      posts()
        .slice(before)
        .filter((p) => JSON.stringify(p.args.blocks).includes('spend by countryCode')),
    ).toHaveLength(1);
  });

  it('serves GET /healthz', async () => {
    const response = await fetch(`http://127.0.0.1:${bot().bot.port}/healthz`);
    expect(response.status).toBe(200);
    const health = (await response.json()) as { acks: { count: number; p50Ms: number; maxMs: number } };
    expect(health).toMatchObject({ ok: true, inFlight: expect.any(Number), receiver });
    // Every command so far was timed from arrival to acknowledgement.
    expect(health.acks.count).toBeGreaterThanOrEqual(12);
    expect(health.acks.p50Ms).toBeGreaterThan(0);
    expect(health.acks.maxMs).toBeGreaterThanOrEqual(health.acks.p50Ms);
  });

  it('publishes App Home with reports, subscriptions and incidents', async () => {
    const response = await bot().event({ type: 'app_home_opened', user: 'U_ALICE', channel: 'D1', tab: 'home' });
    expect(response.status).toBe(200);
    await bot().slack.waitFor(() => bot().slack.callsTo('views.publish').length > 0, 10_000, 'views.publish');
    const view = bot().slack.callsTo('views.publish')[0]?.args.view;
    expect(text(view)).toContain('Reports (6)');
    expect(text(view)).toContain('Alerts');
    // The same summary as /pivot alerts: rules nobody evaluated are not an all-clear.
    expect(text(view)).not.toContain('Nothing open');
    expect(text(view)).toMatch(/not evaluated yet|open incident/);
  });
});
