/**
 * A personal watch end to end over real HTTP: Alice, who is not an admin, asks for spend by
 * country yesterday in #general, clicks Watch this under the answer, picks Brazil's row and saves
 * "below" the lowest of Brazil's 14 days before. The watch is hers: its incidents go to her DM with
 * the bot (opened with conversations.open), where the scheduler's 09:00 check opens the incident
 * of the sandbox's planted spend collapse in Brazil yesterday, with Acknowledge working as in a
 * channel. She sees and removes it in /pivot alerts; Bob does not see it; an admin sees it and may
 * remove it. Someone who keeps 20 personal watches is refused the 21st. The bot's clock is the
 * real one moved to 08:00 on the sandbox's day, then past the 09:00 check.
 */
import { ReportingClient } from '../../../src/reporting/index.js';
import { ANOMALIES } from '../../../src/sandbox/data/factsSql.js';
import { ADMIN, BotHarness } from '../../support/botHarness.js';
import { dmOf, type StoredMessage } from '../../support/slackTestServer.js';

const CHANNEL = 'C0GENERAL1';
const ALICE = 'U_ALICE';
const BOB = 'U_BOB';
const SANDBOX_NOW = new Date('2026-11-21T05:30:00Z');
const BR = ANOMALIES.spendCollapseCountry;
type Block = { type: string; elements?: Array<{ action_id?: string; value?: string }> };
type Option = { value: string };

describe('Watch this for everyone: a personal watch whose incidents open in the saver’s DM', () => {
  const harness = new BotHarness();
  let offset = Date.parse('2026-11-21T08:00:00Z') - Date.now();
  const slack = () => harness.slack;

  beforeAll(async () => {
    await harness.start({
      now: SANDBOX_NOW,
      clock: () => new Date(Date.now() + offset),
      scheduler: { maxWakeMs: 500 },
    });
  }, 120_000);
  afterAll(async () => {
    await harness.stop();
  });

  /** The lowest of Brazil's daily spend over the 14 days before yesterday, from the sandbox directly. */
  async function brazilLowest(): Promise<{ lowest: number; yesterday: number }> {
    const client = new ReportingClient({
      authUrl: harness.sandbox.authUrl,
      graphqlUrl: harness.sandbox.graphqlUrl,
      clientId: harness.sandbox.clientId,
      clientSecret: harness.sandbox.clientSecret,
    });
    const result = await client.pivot({
      from: '2026-11-06T00:00:00Z',
      to: '2026-11-21T00:00:00Z',
      dimensions: [{ name: 'date', args: { granularity: 'DAILY' } }],
      metrics: [{ name: 'spend', args: {} }],
      filter: { countryCode: { equals: BR } },
      context: { sqlTimeZone: 'UTC' },
    } as never);
    const byDay = new Map(result.rows.map((r) => [String(r.date).slice(0, 10), Number(r.spend)]));
    const before = [...byDay.entries()].filter(([day]) => day < '2026-11-20').map(([, v]) => v);
    return { lowest: Math.min(...before), yesterday: byDay.get('2026-11-20') as number };
  }

  /** Asks `spend by country yesterday` as `user` and clicks Watch this under the answer; resolves to the click's hook. */
  async function watchThis(user: string): Promise<string> {
    const before = slack().messages.length;
    await harness.command('spend by country yesterday', { user });
    const answered = () =>
      slack()
        .messages.slice(before)
        .find((m) => m.metadata?.event_type === 'pivotbot_answer');
    await slack().waitFor(() => answered() !== undefined, 30_000, 'the answer');
    const button = (((answered() as StoredMessage).blocks ?? []) as Block[])
      .filter((b) => b.type === 'actions')
      .flatMap((b) => b.elements ?? [])
      .find((e) => e.action_id === 'pivot_watch_this');
    expect(button).toBeDefined();
    const click = await harness.click('pivot_watch_this', JSON.parse(String(button?.value)), {
      channel: CHANNEL,
      user,
    });
    return click.hook;
  }

  const form = (name: string, threshold: number) => ({
    watch_name: { value: { type: 'plain_text_input', value: name } },
    watch_metric: { pivot_wm_metric: { type: 'static_select', selected_option: { value: 'spend' } } },
    watch_on: { pivot_wm_on: { type: 'static_select', selected_option: { value: `row:countryCode=${BR}` } } },
    watch_rule: { value: { type: 'static_select', selected_option: { value: 'below' } } },
    watch_threshold: { value: { type: 'number_input', value: String(threshold) } },
    watch_time: { value: { type: 'timepicker', selected_time: '09:00' } },
  });

  const rowsShown = (viewId: string) =>
    ((slack().views.get(viewId)?.view.blocks ?? []) as Array<{ block_id?: string; element?: { options?: Option[] } }>)
      .find((b) => b.block_id === 'watch_on')
      ?.element?.options?.some((o) => o.value === `row:countryCode=${BR}`) ?? false;

  it("saves a non-admin's Watch this as a personal watch, and the scheduler opens its incident in their DM", async () => {
    const { lowest, yesterday } = await brazilLowest();
    // The planted collapse: yesterday below every one of the 14 days before.
    expect(yesterday).toBeLessThan(lowest);

    const views = slack().views.size;
    const hook = await watchThis(ALICE);
    await slack().waitFor(() => slack().views.size > views, 20_000, 'the watch modal');
    const viewId = [...slack().views.keys()].at(-1) as string;
    await slack().waitFor(() => rowsShown(viewId), 20_000, 'the rows of the answer in the modal');
    // No refusal was sent to Alice.
    expect(harness.hookBodies(hook)).toEqual([]);

    const saved = await harness.submitView(viewId, form('alice-br-spend', lowest), { user: ALICE });
    expect(saved.status).toBe(200);
    expect(await saved.text()).not.toContain('errors');
    const dm = dmOf(ALICE);
    expect(
      slack()
        .callsTo('conversations.open')
        .map((c) => c.args.users),
    ).toEqual([ALICE]);
    const stored = harness.bot.store.subscriptions.list().find((s) => s.report === 'watch-alice-br-spend');
    expect(stored).toMatchObject({
      channel: dm,
      owner: ALICE,
      createdBy: ALICE,
      query: `spend by countryCode yesterday where countryCode = ${BR}`,
      watch: { id: 'alice-br-spend', metric: 'spend', on: 'entity', below: lowest },
    });

    // The scheduler sees the watch's check at 08:00, then the clock passes 09:00.
    await slack().waitFor(
      () =>
        harness.bot.store.schedules
          .list()
          .some((f) => f.scheduleId.startsWith('alert:watch-alice-br-spend:alice-br-spend')),
      20_000,
      'the scheduler to list the watch',
    );
    offset = Date.parse('2026-11-21T09:00:01Z') - Date.now();
    const parents = () =>
      slack().messages.filter((m) => m.metadata?.event_type === 'pivotbot_alert' && m.threadTs === undefined);
    await slack().waitFor(() => parents().length > 0, 30_000, 'the incident of the watch');
    expect(parents().map((m) => [m.channel, m.metadata?.event_payload])).toEqual([
      [dm, { report: 'watch-alice-br-spend', rule: 'alice-br-spend', entity: `countryCode=${BR}`, state: 'open' }],
    ]);
    const [incident] = harness.bot.store.incidents.listOpen();
    expect(incident?.channel).toBe(dm);
    expect(incident?.lastValue).toBeCloseTo(yesterday, 2);

    // Acknowledge in the DM, as in a channel: the parent is redrawn there.
    const updates = slack().callsTo('chat.update').length;
    await harness.click(
      'alert_ack',
      { incidentId: incident?.id, ruleId: 'alice-br-spend', reportId: 'watch-alice-br-spend' },
      { channel: dm, user: ALICE, messageTs: parents()[0]?.ts as string },
    );
    await slack().waitFor(
      () => harness.bot.store.incidents.get(incident?.id as string)?.acknowledgedBy === ALICE,
      10_000,
      'the acknowledgement',
    );
    await slack().waitFor(() => slack().callsTo('chat.update').length > updates, 10_000, 'the parent redrawn');
    expect(slack().callsTo('chat.update').at(-1)?.args.channel).toBe(dm);
  }, 150_000);

  it('lists it for its owner (with Remove) and admins, not for others; the owner removes it', async () => {
    const removeButtons = (body: string) => (body.match(/"action_id":"pivot_unwatch"/g) ?? []).length;
    const seenBy = async (user: string) => harness.waitForHook((await harness.command('alerts', { user })).hook);

    const alice = await seenBy(ALICE);
    expect(alice).toContain('Watches (1)');
    expect(alice).toContain('`alice-br-spend`');
    expect(alice).toContain('your DMs');
    expect(removeButtons(alice)).toBe(1);
    const bob = await seenBy(BOB);
    expect(bob).not.toContain('alice-br-spend');
    const admin = await seenBy(ADMIN);
    expect(admin).toContain(`<@${ALICE}>'s DMs`);
    expect(removeButtons(admin)).toBe(1);

    // Bob can neither see nor remove it; Alice can.
    const refused = await harness.command('unwatch alice-br-spend', { user: BOB });
    expect(await harness.waitForHook(refused.hook)).toContain('There is no watch');
    expect(harness.bot.store.subscriptions.list().some((s) => s.report === 'watch-alice-br-spend')).toBe(true);
    const removed = await harness.click('pivot_unwatch', { name: 'alice-br-spend' }, { user: ALICE });
    expect(await harness.waitForHook(removed.hook)).toContain('`alice-br-spend` is no longer watched.');
    expect(harness.bot.store.subscriptions.list().some((s) => s.report === 'watch-alice-br-spend')).toBe(false);
  }, 60_000);

  it('refuses a 21st personal watch, on the click and on saving, naming how to remove one', async () => {
    const store = harness.bot.store;
    for (let i = 1; i <= 20; i++) {
      await store.subscriptions.add({
        report: `watch-bob-${i}`,
        channel: dmOf(BOB),
        query: 'spend yesterday',
        watch: { id: `bob-${i}`, metric: 'spend', above: 1_000_000_000, check: { cron: '0 9 * * *' } },
        owner: BOB,
        createdBy: BOB,
      });
    }
    const hook = await watchThis(BOB);
    const refusal = await harness.waitForHook(hook);
    expect(refusal).toContain('You keep 20 personal watches, the most one person may (20)');
    expect(refusal).toContain('/pivot unwatch <name>');
    // A modal opened before the 20th was saved is refused on saving, under its name.
    const modal = harness.slack.views.size;
    const alice = await watchThis(ALICE);
    await slack().waitFor(() => slack().views.size > modal, 20_000, 'the watch modal');
    expect(harness.hookBodies(alice)).toEqual([]);
    const viewId = [...slack().views.keys()].at(-1) as string;
    const saved = await harness.submitView(viewId, form('bob-21', 1), { user: BOB });
    expect(await saved.text()).toContain('You keep 20 personal watches');
    expect(store.subscriptions.list().filter((s) => s.owner === BOB)).toHaveLength(20);
  }, 60_000);
});
