/**
 * A compound rule end to end over real HTTP: the shipped `bundle-spend-without-installs` rule of
 * reports/site-bundle-quality.yaml (spend above $50 and installs equal to 0, yesterday, per
 * publisher app), evaluated by the bot's scheduler against the sandbox, threads in the Slack test
 * server. The sandbox gets the planted anomaly "installs stop while spend goes on" for one
 * publisher; exactly that publisher gets one incident, whose parent names both conditions.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { BotHarness } from '../../support/botHarness.js';
import { plantZeroInstalls } from '../../support/plantZeroInstalls.js';
import { writeReports } from '../../support/scheduledReports.js';
import type { StoredMessage } from '../../support/slackTestServer.js';

const CHANNEL = 'C0GENERAL1';
const PLANTED = 'com.pub0.app';

/** The shipped report, its rule evaluated every two seconds and posted in the test channel. */
async function shippedReport(): Promise<string> {
  const definition = parse(await readFile('reports/site-bundle-quality.yaml', 'utf8'));
  delete definition.schedule;
  definition.mode = 'sync';
  definition.deliver = { channels: [CHANNEL], csv: false };
  definition.alerts = definition.alerts
    .filter((r: { id: string }) => r.id === 'bundle-spend-without-installs')
    .map((r: object) => ({ ...r, check: { cron: '*/2 * * * * *', timezone: 'UTC' } }));
  return stringify(definition);
}

const text = (m: StoredMessage) => JSON.stringify(m.blocks ?? m.text);

describe('compound rule: spend without installs', () => {
  const harness = new BotHarness();
  let dir: string;
  const parents = () =>
    harness.slack.messages.filter((m) => m.metadata?.event_type === 'pivotbot_alert' && m.threadTs === undefined);
  const evaluatedAt = () =>
    harness.bot.store.incidents.getEvaluation('site-bundle-quality', 'bundle-spend-without-installs')?.lastEvaluatedAt;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pivotbot-compound-'));
    const reports = await writeReports(dir, { 'site-bundle-quality': await shippedReport() });
    await harness.start({ env: { PIVOTBOT_REPORTS_DIR: reports } });
    // Yesterday and the day before, so an evaluation just after midnight UTC still sees it.
    await plantZeroInstalls(harness.sandbox, PLANTED, new Date(), 2);
  }, 60_000);

  afterAll(async () => {
    await harness.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('opens one incident, for the publisher whose installs stopped, naming both conditions', async () => {
    await harness.slack.waitFor(() => parents().length >= 1, 30_000, 'an alert parent');
    // Two more evaluations: nothing else opens and the thread is not repeated.
    for (let i = 0; i < 2; i++) {
      const before = evaluatedAt();
      await harness.slack.waitFor(() => evaluatedAt() !== before, 15_000, 'an evaluation');
    }
    const posted = parents();
    expect(posted.map((m) => m.metadata?.event_payload.entity)).toEqual([`siteBundle=${PLANTED}`]);
    const parent = posted[0] as StoredMessage;
    expect(parent.channel).toBe(CHANNEL);
    expect(text(parent)).toContain('Spend without installs');
    expect(text(parent)).toMatch(/\*Spend\* is \*\$[\d,.]+\*, above \$50\.00 and \*Installs\* is \*0\*, equal to 0/);
    const open = harness.bot.store.incidents.listOpen();
    expect(open).toHaveLength(1);
    expect(open[0]?.conditionParts?.map((p) => [p.metric, p.breach])).toEqual([
      ['spend', true],
      ['installs', true],
    ]);
    expect(harness.slack.messages.filter((m) => m.threadTs === parent.ts)).toHaveLength(0);
  }, 60_000);
});
