/**
 * "Watch this" end to end over real HTTP, from the click to an incident: an admin asks for spend
 * by country yesterday, clicks Watch this under the answer, picks the row of Brazil, and saves the
 * threshold the modal suggests from Brazil's 14 days before (below the lowest). The scheduler
 * evaluates the saved rule at its daily check and opens one incident: the sandbox's planted spend
 * collapse in Brazil yesterday. The bot's clock is the real one moved to 08:00 on the sandbox's
 * day, then moved past the 09:00 check once the scheduler has seen the watch.
 */
import { roundAway } from '../../../src/alerts/index.js';
import { ReportingClient } from '../../../src/reporting/index.js';
import { ANOMALIES } from '../../../src/sandbox/data/factsSql.js';
import { ADMIN, BotHarness } from '../../support/botHarness.js';
import type { StoredMessage } from '../../support/slackTestServer.js';

const CHANNEL = 'C0GENERAL1';
const SANDBOX_NOW = new Date('2026-11-21T05:30:00Z');
const BR = ANOMALIES.spendCollapseCountry;
type Block = { type: string; block_id?: string; elements?: Array<{ action_id?: string; value?: string }> };
type Option = { value: string; text: { text: string } };

describe('Watch this, from the click to an incident the scheduler opens', () => {
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

  /** The options of a select in the modal as the test server holds it now. */
  const optionsOf = (viewId: string, blockId: string): Option[] => {
    const blocks = (slack().views.get(viewId)?.view.blocks ?? []) as Array<{
      block_id?: string;
      element?: { options?: Option[] };
    }>;
    return blocks.find((b) => b.block_id === blockId)?.element?.options ?? [];
  };

  /** Brazil's spend by day, from the sandbox directly: the facts the suggestion must come from. */
  async function brazilSpendByDay(): Promise<Map<string, number>> {
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
    return new Map(result.rows.map((r) => [String(r.date).slice(0, 10), Number(r.spend)]));
  }

  it('saves the suggested threshold for one row, and the scheduler opens one incident for it', async () => {
    const before = slack().messages.length;
    await harness.command('spend by country yesterday', { user: ADMIN });
    await slack().waitFor(
      () =>
        slack()
          .messages.slice(before)
          .some((m) => m.metadata?.event_type === 'pivotbot_answer'),
      30_000,
      'the answer',
    );
    const answer = slack()
      .messages.slice(before)
      .find((m) => m.metadata?.event_type === 'pivotbot_answer') as StoredMessage;
    const button = ((answer.blocks ?? []) as Block[])
      .filter((b) => b.type === 'actions')
      .flatMap((b) => b.elements ?? [])
      .find((e) => e.action_id === 'pivot_watch_this');
    expect(button).toBeDefined();

    // Click 1: the modal opens at once, then shows the answer's rows.
    const views = slack().views.size;
    await harness.click('pivot_watch_this', JSON.parse(String(button?.value)), { channel: CHANNEL, user: ADMIN });
    await slack().waitFor(() => slack().views.size > views, 20_000, 'the watch modal');
    const viewId = [...slack().views.keys()].at(-1) as string;
    await slack().waitFor(
      () => optionsOf(viewId, 'watch_on').some((o) => o.value === `row:countryCode=${BR}`),
      20_000,
      'the rows of the answer in the modal',
    );
    const rows = optionsOf(viewId, 'watch_on');
    expect(rows.slice(0, 2).map((o) => o.value)).toEqual(['entity', 'total']);
    expect(rows.find((o) => o.value === `row:countryCode=${BR}`)?.text.text).toMatch(/^Only .*BR$/);

    // Picking Brazil redraws the modal with the thresholds suggested from its recent days.
    const picked = {
      watch_name: { value: { type: 'plain_text_input', value: 'br-spend' } },
      watch_metric: { pivot_wm_metric: { type: 'static_select', selected_option: { value: 'spend' } } },
      watch_on: { pivot_wm_on: { type: 'static_select', selected_option: { value: `row:countryCode=${BR}` } } },
      watch_rule: { value: { type: 'static_select', selected_option: { value: 'anomaly' } } },
      watch_threshold: { value: { type: 'number_input', value: null } },
      watch_time: { value: { type: 'timepicker', selected_time: '09:00' } },
    };
    const redraw = await harness.modalAction(viewId, { actionId: 'pivot_wm_on', blockId: 'watch_on' }, picked, {
      user: ADMIN,
    });
    expect(redraw.status).toBe(200);
    await slack().waitFor(
      () => optionsOf(viewId, 'watch_rule').some((o) => o.value.startsWith('suggest-below:')),
      20_000,
      'the suggested thresholds',
    );
    const below = optionsOf(viewId, 'watch_rule').find((o) => o.value.startsWith('suggest-below:')) as Option;
    const threshold = Number(below.value.split(':')[1]);

    // The suggestion is the lowest of Brazil's 14 days before yesterday, rounded down; yesterday
    // (the planted collapse) is below it.
    const byDay = await brazilSpendByDay();
    const before14 = [...byDay.entries()].filter(([day]) => day < '2026-11-20').map(([, v]) => v);
    expect(before14).toHaveLength(14);
    expect(threshold).toBe(roundAway(Math.min(...before14), 'down'));
    expect(below.text.text).toContain('the lowest of the 14 days before');
    expect(byDay.get('2026-11-20')).toBeLessThan(threshold);

    // Click 2: save.
    const saved = await harness.submitView(
      viewId,
      { ...picked, watch_rule: { value: { type: 'static_select', selected_option: { value: below.value } } } },
      { user: ADMIN },
    );
    expect(saved.status).toBe(200);
    expect(await saved.text()).not.toContain('errors');
    const stored = harness.bot.store.subscriptions.list().find((s) => s.report === 'watch-br-spend');
    expect(stored?.query).toBe(`spend by countryCode yesterday where countryCode = ${BR}`);
    expect(stored?.watch).toEqual({
      id: 'br-spend',
      metric: 'spend',
      on: 'entity',
      below: threshold,
      check: { cron: '0 9 * * *', timezone: 'UTC' },
    });

    // The scheduler sees the watch's check (first sight at 08:00), then the clock passes 09:00.
    await slack().waitFor(
      () => harness.bot.store.schedules.list().some((f) => f.scheduleId.startsWith('alert:watch-br-spend:br-spend')),
      20_000,
      'the scheduler to list the watch',
    );
    offset = Date.parse('2026-11-21T09:00:01Z') - Date.now();
    const parents = () =>
      slack().messages.filter((m) => m.metadata?.event_type === 'pivotbot_alert' && m.threadTs === undefined);
    await slack().waitFor(() => parents().length > 0, 30_000, 'the incident of the watch');
    expect(parents().map((m) => m.metadata?.event_payload)).toEqual([
      { report: 'watch-br-spend', rule: 'br-spend', entity: `countryCode=${BR}`, state: 'open' },
    ]);
    expect(parents()[0]?.channel).toBe(CHANNEL);
    const open = harness.bot.store.incidents.listOpen();
    expect(open.map((i) => [i.reportId, i.entityKey])).toEqual([['watch-br-spend', `countryCode=${BR}`]]);
    expect(open[0]?.lastValue).toBeCloseTo(byDay.get('2026-11-20') as number, 2);

    const alerts = await harness.command('alerts', { user: ADMIN });
    expect(await harness.waitForHook(alerts.hook)).toContain('1 open incident');
  }, 120_000);

  it('watches one campaign by its id: the answer has no id column, so the id is looked up for the name picked', async () => {
    const before = slack().messages.length;
    await harness.command('spend by campaign yesterday', { user: ADMIN });
    await slack().waitFor(
      () =>
        slack()
          .messages.slice(before)
          .some((m) => m.metadata?.event_type === 'pivotbot_answer'),
      30_000,
      'the answer by campaign',
    );
    const answer = slack()
      .messages.slice(before)
      .find((m) => m.metadata?.event_type === 'pivotbot_answer') as StoredMessage;
    const button = ((answer.blocks ?? []) as Block[])
      .filter((b) => b.type === 'actions')
      .flatMap((b) => b.elements ?? [])
      .find((e) => e.action_id === 'pivot_watch_this');
    const views = slack().views.size;
    await harness.click('pivot_watch_this', JSON.parse(String(button?.value)), { channel: CHANNEL, user: ADMIN });
    await slack().waitFor(() => slack().views.size > views, 20_000, 'the watch modal');
    const viewId = [...slack().views.keys()].at(-1) as string;
    const campaignRow = () => optionsOf(viewId, 'watch_on').find((o) => o.value.startsWith('row:campaign='));
    await slack().waitFor(() => campaignRow() !== undefined, 20_000, 'the campaigns in the modal');
    const row = campaignRow() as Option;
    const name = row.value.slice('row:campaign='.length);

    const saved = await harness.submitView(
      viewId,
      {
        watch_name: { value: { type: 'plain_text_input', value: 'one-campaign' } },
        watch_metric: { pivot_wm_metric: { type: 'static_select', selected_option: { value: 'spend' } } },
        watch_on: { pivot_wm_on: { type: 'static_select', selected_option: { value: row.value } } },
        watch_rule: { value: { type: 'static_select', selected_option: { value: 'anomaly' } } },
        watch_threshold: { value: { type: 'number_input', value: null } },
        watch_time: { value: { type: 'timepicker', selected_time: '09:00' } },
      },
      { user: ADMIN },
    );
    expect(saved.status).toBe(200);
    expect(await saved.text()).not.toContain('errors');
    // The ids the sandbox gives that name: the saved query filters by them, as the service does.
    const client = new ReportingClient({
      authUrl: harness.sandbox.authUrl,
      graphqlUrl: harness.sandbox.graphqlUrl,
      clientId: harness.sandbox.clientId,
      clientSecret: harness.sandbox.clientSecret,
    });
    const { rows } = await client.pivot({
      from: '2026-11-20T00:00:00Z',
      to: '2026-11-21T00:00:00Z',
      dimensions: [{ name: 'campaign' }, { name: 'campaignId' }],
      metrics: [{ name: 'spend', args: {} }],
      context: { sqlTimeZone: 'UTC' },
    } as never);
    const ids = rows.filter((r) => r.campaign === name).map((r) => Number(r.campaignId));
    expect(ids).toHaveLength(1);
    const stored = harness.bot.store.subscriptions.list().find((s) => s.report === 'watch-one-campaign');
    expect(stored?.query).toBe(`spend by campaign yesterday where campaignId = ${ids[0]}`);
    await harness.bot.store.subscriptions.remove('watch-one-campaign', CHANNEL);
  }, 60_000);

  it('lists the watches in /pivot alerts and App Home with a Remove button for admins (confirm first), and removes them from either', async () => {
    const store = harness.bot.store;
    const first = store.subscriptions.list().find((s) => s.report === 'watch-br-spend');
    expect(first).toBeDefined();
    const { id: _id, createdAt: _c, updatedAt: _u, ...record } = first as NonNullable<typeof first>;
    await store.subscriptions.add({
      ...record,
      report: 'watch-br-spend-2',
      watch: { ...record.watch, id: 'br-spend-2' },
    });
    const removeButtons = (body: string) => (body.match(/"action_id":"pivot_unwatch"/g) ?? []).length;

    // Everyone sees the watches; only admins get the buttons, each behind Slack's confirm dialog.
    const asMember = await harness.command('alerts', { user: 'U_ALICE' });
    const memberSees = await harness.waitForHook(asMember.hook);
    expect(memberSees).toContain('Watches (2)');
    expect(memberSees).toContain(`spend by countryCode yesterday where countryCode = ${BR}`);
    expect(removeButtons(memberSees)).toBe(0);
    const asAdmin = await harness.command('alerts', { user: ADMIN });
    const adminSees = await harness.waitForHook(asAdmin.hook);
    expect(removeButtons(adminSees)).toBe(2);
    expect(adminSees).toContain('"confirm":{"title":{"type":"plain_text","text":"Remove this watch?"}');

    // A member's click (a stale button) removes nothing.
    const refused = await harness.click('pivot_unwatch', { name: 'br-spend' }, { user: 'U_ALICE' });
    expect(await harness.waitForHook(refused.hook)).toContain('Only pivotbot admins can remove alert rules');
    expect(store.subscriptions.list().some((s) => s.report === 'watch-br-spend')).toBe(true);

    // From /pivot alerts: removed, and the private message replaced by the alerts without it.
    const removed = await harness.click('pivot_unwatch', { name: 'br-spend' }, { user: ADMIN });
    const answer = await harness.waitForHook(removed.hook);
    expect(answer).toContain('`br-spend` is no longer watched.');
    expect(answer).toContain('"replace_original":true');
    expect(answer).toContain('Watches (1)');
    expect(store.subscriptions.list().some((s) => s.report === 'watch-br-spend')).toBe(false);

    // From App Home: removed, and the tab published again without it.
    const published = () => slack().callsTo('views.publish');
    const homes = published().length;
    await harness.event({ type: 'app_home_opened', user: ADMIN, channel: 'D1', tab: 'home' });
    await slack().waitFor(() => published().length > homes, 10_000, 'App Home');
    const home = JSON.stringify(published()[homes]?.args.view);
    expect(home).toContain('`br-spend-2`');
    expect(removeButtons(home)).toBe(1);
    await harness.click('pivot_unwatch', { name: 'br-spend-2' }, { user: ADMIN, home: true });
    await slack().waitFor(() => published().length > homes + 1, 10_000, 'App Home again');
    expect(store.subscriptions.list().some((s) => s.report === 'watch-br-spend-2')).toBe(false);
    const after = JSON.stringify(published()[homes + 1]?.args.view);
    expect(after).not.toContain('br-spend-2');
    expect(removeButtons(after)).toBe(0);
  }, 60_000);
});
