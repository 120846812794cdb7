/**
 * Budget pacing end to end over real HTTP: two reports with monthly plans (`budgets:`), one per
 * country, each planned at exactly its own month-end forecast on the sandbox; the sandbox then
 * triples the US spend of the month so far (a planted cause). The bot, on a clock set to
 * 20 Nov 2026, evaluates each report's pacing rule (`pacing: { tolerance: 10% }`) every two
 * seconds and posts the US digest every three: exactly the US report opens one incident, whose
 * parent says the forecast, the plan and the share under the month's chart (spend so far, the
 * forecast's path, the plan pro rata), and its digest carries the pacing line.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ReportingClient } from '../../../src/reporting/index.js';
import {
  type MonthPacing,
  monthPacing,
  type PacingPlan,
  pacingPlan,
  pacingRequest,
  reportSchema,
} from '../../../src/reports/index.js';
import { startSandbox } from '../../../src/sandbox/index.js';
import { BotHarness } from '../../support/botHarness.js';
import { writeReports } from '../../support/scheduledReports.js';
import type { StoredMessage } from '../../support/slackTestServer.js';

const CHANNEL = 'C0GENERAL1';
const NOW = new Date('2026-11-20T12:00:00Z');
const PLANT = { where: { countryCode: 'US' }, metric: 'spend', factor: 3, days: ['2026-11-01', '2026-11-20'] } as const;

/** A report of one country's spend with a plan for November and a pacing rule checked every 2 s. */
function pacingReport(country: string, plan: number, digest: boolean): string {
  return `title: ${country} pacing
query:
  metrics: [spend, installs]
  filter: { countryCode: ${country} }
  range: yesterday
  timezone: UTC
present:
  headline: [spend, installs]
  explain: false
mode: sync
${digest ? 'schedule: { cron: "*/3 * * * * *", timezone: UTC, retry: { attempts: 2, backoff: 1s } }\n' : ''}deliver: { channels: ["${CHANNEL}"], csv: false }
budgets:
  currency: USD
  months: { "2026-11": ${plan.toFixed(2)} }
alerts:
  - id: off-plan
    name: Spend off plan
    pacing: { tolerance: 10% }
    check: { cron: "*/2 * * * * *", timezone: UTC }
`;
}

/** The month's pacing of one country on a sandbox, as the bot computes it, against `plan`. */
async function countryPacing(client: ReportingClient, country: string, plan: number): Promise<MonthPacing> {
  const definition = reportSchema.parse({
    title: country,
    query: { metrics: ['spend'], filter: { countryCode: country }, timezone: 'UTC' },
    budgets: { months: { '2026-11': plan } },
  });
  const month = pacingPlan(definition, { now: NOW }) as PacingPlan;
  const request = pacingRequest(definition, month, { now: NOW });
  if (!request) throw new Error('no pacing request');
  return monthPacing((await client.pivot(request)).rows, month) as MonthPacing;
}

function clientOf(sandbox: { authUrl: string; graphqlUrl: string; clientId: string; clientSecret: string }) {
  return new ReportingClient({
    authUrl: sandbox.authUrl,
    graphqlUrl: sandbox.graphqlUrl,
    clientId: sandbox.clientId,
    clientSecret: sandbox.clientSecret,
  });
}

const text = (m: StoredMessage) => JSON.stringify(m.blocks ?? m.text);
const money = (n: number) =>
  new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: 'USD',
    notation: 'compact',
    minimumFractionDigits: 0,
    maximumFractionDigits: 1,
  }).format(n);

describe('pacing rule and pacing line, end to end', () => {
  const harness = new BotHarness();
  let dir: string;
  const plans: Record<string, number> = {};
  const parents = () =>
    harness.slack.messages.filter((m) => m.metadata?.event_type === 'pivotbot_alert' && m.threadTs === undefined);
  const digests = () => harness.slack.messages.filter((m) => m.metadata?.event_type === 'pivotbot_digest');
  const evaluatedAt = (report: string) =>
    harness.bot.store.incidents.getEvaluation(report, 'off-plan')?.lastEvaluatedAt;

  beforeAll(async () => {
    // The plans: each country's own forecast on the unplanted data, so both are exactly on plan.
    const plain = await startSandbox({ port: 0, scale: 'small', now: NOW });
    try {
      const client = clientOf(plain);
      for (const country of ['US', 'BR']) plans[country] = (await countryPacing(client, country, 1)).forecast;
    } finally {
      await plain.stop();
    }
    dir = await mkdtemp(join(tmpdir(), 'pivotbot-pacing-'));
    const reports = await writeReports(dir, {
      'us-pacing': pacingReport('US', plans.US as number, true),
      'br-pacing': pacingReport('BR', plans.BR as number, false),
    });
    const offset = NOW.getTime() - Date.now();
    await harness.start({
      now: NOW,
      clock: () => new Date(Date.now() + offset),
      plants: [{ ...PLANT, days: [...PLANT.days] }],
      env: { PIVOTBOT_REPORTS_DIR: reports },
    });
  }, 120_000);

  afterAll(async () => {
    await harness.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('opens one incident, for the report whose spend tripled, saying its forecast, plan and share', async () => {
    await harness.slack.waitFor(() => parents().length >= 1, 30_000, 'an alert parent');
    // Two more evaluations of the report on plan: nothing opens for it, nothing repeats.
    for (let i = 0; i < 2; i++) {
      const before = evaluatedAt('br-pacing');
      await harness.slack.waitFor(() => evaluatedAt('br-pacing') !== before, 15_000, 'an evaluation');
    }
    const posted = parents();
    expect(posted.map((m) => m.metadata?.event_payload)).toEqual([
      { report: 'us-pacing', rule: 'off-plan', entity: 'total', state: 'open' },
    ]);
    const us = await countryPacing(clientOf(harness.sandbox), 'US', plans.US as number);
    // Planted: the month so far at three times its spend, far past +10 %.
    expect(us.share).toBeGreaterThan(1.5);
    const said = text(posted[0] as StoredMessage);
    expect(said).toContain('Spend off plan');
    expect(said).toContain(
      `*Spend* forecast ${money(us.forecast)} (likely ${money(us.low)}–${money(us.high)}) for November 2026, ${Math.round(us.share * 100)} % of the ${money(us.plan)} plan`,
    );
    // Three times the month's spend has used up the plan already: nothing left to need a day.
    expect(said).toContain(`spent in 19 of 30 days), outside ±10 %; the ${money(us.plan)} plan is spent already`);
    const open = harness.bot.store.incidents.listOpen();
    expect(open.map((i) => i.reportId)).toEqual(['us-pacing']);
    // The plan in the YAML is the forecast to the cent.
    expect(open[0]?.pacing?.share).toBeCloseTo(us.share, 6);
    const br = harness.bot.store.incidents.getEvaluation('br-pacing', 'off-plan');
    expect([br?.evaluated, br?.breaching]).toEqual([1, 0]);
  }, 60_000);

  it("shows the month under the parent: spend so far, the forecast's path and the plan pro rata", async () => {
    const [parent] = parents();
    expect(text(parent as StoredMessage)).toMatch(/"type":"image".*"slack_file"/);
    const fileId = harness.bot.store.incidents.listOpen()[0]?.chartFileId;
    expect(fileId).toBeDefined();
    const upload = harness.slack
      .callsTo('files.completeUploadExternal')
      .flatMap((c) => JSON.parse(String(c.args.files)) as Array<{ id: string; title: string }>)
      .find((f) => f.id === fileId);
    // The chart process's description of what it drew: the three series over the month.
    expect(upload?.title).toBe(
      'Line chart of Spend so far and Forecast and Plan, pro rata by Day, November 2026, 19 of 30 days (UTC)',
    );
  }, 60_000);

  it('posts the digest with its pacing line', async () => {
    await harness.slack.waitFor(() => digests().length >= 1, 30_000, 'a digest');
    const us = await countryPacing(clientOf(harness.sandbox), 'US', plans.US as number);
    const line =
      `Spend ${money(us.spent)}, pacing ${Math.round(us.share * 100)} % of the ${money(us.plan)} plan` +
      ` (forecast ${money(us.forecast)}, likely ${money(us.low)}–${money(us.high)}) · November 2026, 19 of 30 days` +
      ` · the ${money(us.plan)} plan is spent already`;
    expect(text(digests()[0] as StoredMessage)).toContain(line);
  }, 60_000);
});
