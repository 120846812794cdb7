/**
 * Backtests in Slack, over real HTTP (signed requests in, the Slack test server's Web API out, the
 * sandbox as the Reporting Service): `/pivot backtest` answers a report's rule over the last 30
 * days with its sentence, query count and chart; the Watch-this modal previews the rule being
 * written and replays it again when the threshold changes; `/pivot alerts` shows each rule's
 * figures of the last 30 days from the stored incidents. The sandbox's iOS installs are planted
 * at 0 on Nov 14; the bot's clock is the real one moved to the sandbox's 21 Nov 2026, 12:00 UTC.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AlertIncident } from '../../../src/store/index.js';
import { ADMIN, BotHarness } from '../../support/botHarness.js';
import type { StoredMessage } from '../../support/slackTestServer.js';

const CHANNEL = 'C0GENERAL1';
const NOW = new Date('2026-11-21T12:00:00Z');
const REPORT = `title: iOS installs
query:
  dimensions: [appPlatform]
  metrics: [installs, spend]
  range: yesterday
  timezone: UTC
deliver:
  channels: [${CHANNEL}]
alerts:
  - id: installs-stopped
    metric: installs
    equals: 0
    check: { cron: "0 6 * * *", timezone: UTC }
`;

type Block = {
  type: string;
  block_id?: string;
  text?: { text: string };
  elements?: Array<{ action_id?: string; value?: string }>;
};

describe('backtests in Slack', () => {
  const harness = new BotHarness();
  const offset = NOW.getTime() - Date.now();
  let reports: string;
  const slack = () => harness.slack;

  beforeAll(async () => {
    reports = await mkdtemp(join(tmpdir(), 'backtest-reports-'));
    await writeFile(join(reports, 'ios-installs.yaml'), REPORT);
    await harness.start({
      now: NOW,
      clock: () => new Date(Date.now() + offset),
      plants: [{ where: { appPlatform: 'IOS' }, metric: 'installs', factor: 0, days: ['2026-11-14', '2026-11-15'] }],
      env: { PIVOTBOT_REPORTS_DIR: reports },
    });
  }, 120_000);
  afterAll(async () => {
    await harness.stop();
    await rm(reports, { recursive: true, force: true });
  });

  it('/pivot backtest answers when the rule would have fired, with its query count and chart', async () => {
    const uploads = slack().callsTo('files.completeUploadExternal').length;
    const sent = await harness.command('backtest ios-installs', { user: 'U_ALICE' });
    expect(sent.response.status).toBe(200);
    const answer = await harness.waitForHook(sent.hook, 60_000);
    expect(answer).toContain('would have fired on 1 of the last 30 days (Nov 15) for 1 entity');
    expect(answer).toContain('30 evaluations at its check (0 6 * * *, UTC) · 1 query');
    expect(answer).toMatch(/Nov 15: \*App platform IOS\* opens at 0 \(equal to 0\)/);
    expect(answer).toMatch(/Nov 16: \*App platform IOS\* resolves/);
    // The chart of iOS installs with the rule's line at 0, uploaded and shown in the answer.
    expect(slack().callsTo('files.completeUploadExternal').length).toBe(uploads + 1);
    expect(answer).toContain('"type":"image","slack_file"');
  }, 90_000);

  it('/pivot backtest names a rule that is not there', async () => {
    const sent = await harness.command('backtest ios-installs installs-stoped');
    expect(await harness.waitForHook(sent.hook)).toContain('Did you mean \\"installs-stopped\\"?');
  }, 30_000);

  it('the Watch-this modal previews the rule, and a new threshold replays it', async () => {
    const before = slack().messages.length;
    await harness.command('installs by appPlatform yesterday', { user: ADMIN, channel: CHANNEL });
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
    const views = slack().views.size;
    await harness.click('pivot_watch_this', JSON.parse(String(button?.value)), { channel: CHANNEL, user: ADMIN });
    await slack().waitFor(() => slack().views.size > views, 20_000, 'the watch modal');
    const viewId = [...slack().views.keys()].at(-1) as string;
    const preview = () =>
      ((slack().views.get(viewId)?.view.blocks ?? []) as Block[]).find((b) => b.block_id === 'watch_preview')?.text
        ?.text ?? '';
    // Opened with the same-weekday rule on each row: its preview replaces "Replaying…".
    await slack().waitFor(() => preview().startsWith('*Preview:*'), 60_000, 'the first preview');

    const form = (threshold: string | null) => ({
      watch_name: { value: { type: 'plain_text_input', value: 'ios-installs' } },
      watch_metric: { pivot_wm_metric: { type: 'static_select', selected_option: { value: 'installs' } } },
      watch_on: { pivot_wm_on: { type: 'static_select', selected_option: { value: 'entity' } } },
      watch_rule: { pivot_wm_rule: { type: 'static_select', selected_option: { value: 'below' } } },
      watch_threshold: { pivot_wm_threshold: { type: 'number_input', value: threshold } },
      watch_time: { value: { type: 'timepicker', selected_time: '09:00' } },
    });
    // "Below a threshold I type" with none typed: the preview asks for one.
    await harness.modalAction(viewId, { actionId: 'pivot_wm_rule', blockId: 'watch_rule' }, form(null), {
      user: ADMIN,
    });
    await slack().waitFor(() => preview().includes('type a threshold'), 30_000, 'the preview asking for a threshold');

    // Installs below 1: only iOS on the planted day, seen at the 09:00 check of Nov 15.
    await harness.modalAction(viewId, { actionId: 'pivot_wm_threshold', blockId: 'watch_threshold' }, form('1'), {
      user: ADMIN,
    });
    await slack().waitFor(() => preview().includes('this rule would have'), 60_000, 'the preview of below 1');
    expect(preview()).toContain('this rule would have fired on 1 of the last 30 days (Nov 15) for 1 entity.');
    expect(preview()).toContain('30 evaluations at its check (0 9 * * *, UTC) · 1 query');
    const blocks = (slack().views.get(viewId)?.view.blocks ?? []) as Block[];
    expect(blocks.some((b) => b.type === 'image')).toBe(true);
    // The threshold typed is kept in the redrawn modal.
    expect(JSON.stringify(blocks)).toContain('"initial_value":"1"');

    // Below 0: never.
    await harness.modalAction(viewId, { actionId: 'pivot_wm_threshold', blockId: 'watch_threshold' }, form('0'), {
      user: ADMIN,
    });
    await slack().waitFor(() => preview().includes('this rule would not'), 60_000, 'the preview of below 0');
    expect(preview()).toContain('this rule would not have fired in the last 30 days.');
  }, 180_000);

  it('/pivot alerts shows each rule’s last 30 days from the stored incidents', async () => {
    const hours = (h: number) => new Date(NOW.getTime() - h * 3_600_000).toISOString();
    const incident = (id: string, openedH: number, extra: Partial<AlertIncident>): AlertIncident => ({
      id,
      ruleId: 'installs-stopped',
      reportId: 'ios-installs',
      entityKey: `appPlatform=IOS${id}`,
      state: 'resolved',
      channel: CHANNEL,
      values: [],
      openedAt: hours(openedH),
      updatedAt: hours(0),
      ...extra,
    });
    const store = harness.bot.store.incidents;
    // Acknowledged, resolved after 2 h; resolved by itself after 3 h; open for 10 h; one from 40 days ago.
    await store.save(incident('a', 100, { resolvedAt: hours(98), acknowledgedAt: hours(99), acknowledgedBy: 'U_BOB' }));
    await store.save(incident('b', 50, { resolvedAt: hours(47) }));
    await store.save(incident('c', 10, { state: 'open' }));
    await store.save(incident('d', 40 * 24, { resolvedAt: hours(40 * 24 - 1) }));
    const sent = await harness.command('alerts', { user: 'U_ALICE' });
    const text = await harness.waitForHook(sent.hook);
    expect(text).toContain('30 d: 3 opened, 1 acknowledged, 1 resolved by themselves within a day, median 3 h open');
  }, 30_000);
});
