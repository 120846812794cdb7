/**
 * `GET /metrics` end to end over real HTTP: the bot with its scheduler on real timers, the sandbox
 * as the Reporting Service and the Slack test server. A digest posts every two seconds and an alert
 * rule breaches at its first evaluation; then, with the scheduler stopped so nothing else queries,
 * a `/pivot` query meets a Reporting Service that refuses every attempt. Each scrape is parsed with
 * a strict reader of Prometheus' text format, and the counters must have moved by what happened.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADMIN, BotHarness, receiverThreadEntry, SIGNING_SECRET } from '../../support/botHarness.js';
import { type MetricFamily, parsePrometheusText, sampleSum } from '../../support/prometheusText.js';
import { secondsReport, spendWatchReport, writeReports } from '../../support/scheduledReports.js';

const CHANNEL = 'C0GENERAL1';
const QUERY = 'spend by country yesterday';

/** Label names a pivotbot metric may carry (and those of Node's default metrics). */
const ALLOWED_LABELS = new Set([
  'kind',
  'report',
  'rule',
  'outcome',
  'subject',
  'reason',
  'method',
  'operation',
  'state',
  'le',
  // Node's default metrics (prom-client): version info, heap spaces, GC kinds.
  'version',
  'major',
  'minor',
  'patch',
  'space',
  'type',
]);

async function scrape(port: number | undefined): Promise<Map<string, MetricFamily>> {
  const response = await fetch(`http://127.0.0.1:${port}/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parsePrometheusText(await response.text());
}

describe('GET /metrics', () => {
  const harness = new BotHarness();
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pivotbot-metrics-'));
    const reports = await writeReports(dir, {
      digest: secondsReport({ title: 'Digest', channels: [CHANNEL], everySeconds: 2 }),
      'spend-watch': spendWatchReport({ channel: CHANNEL, above: 0 }),
    });
    await harness.start({ env: { PIVOTBOT_REPORTS_DIR: reports } });
  }, 180_000);

  afterAll(async () => {
    await harness.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('counts digests, alert evaluations, Slack calls, acks and a refused Reporting Service call', async () => {
    const { slack } = harness;
    const posted = (type: string) => slack.messages.some((m) => m.metadata?.event_type === type);
    await slack.waitFor(() => posted('pivotbot_digest') && posted('pivotbot_alert'), 60_000, 'a digest and an alert');
    await harness.bot.scheduler.stop({ graceMs: 20_000 });

    const before = await scrape(harness.bot.port);
    const digest = { kind: 'digest', report: 'digest' };
    expect(sampleSum(before, 'pivotbot_slots_due_total', digest)).toBeGreaterThanOrEqual(1);
    expect(sampleSum(before, 'pivotbot_slots_posted_total', digest)).toBeGreaterThanOrEqual(1);
    expect(
      sampleSum(before, 'pivotbot_slots_posted_total', { kind: 'alert', report: 'spend-watch' }),
    ).toBeGreaterThanOrEqual(1);
    expect(sampleSum(before, 'pivotbot_slot_post_delay_seconds_count', { kind: 'digest' })).toBeGreaterThanOrEqual(1);
    expect(sampleSum(before, 'pivotbot_slots_failed_total')).toBe(0);
    // The scheduler is stopped: no slot is due any more.
    expect(sampleSum(before, 'pivotbot_slot_oldest_due_seconds')).toBe(0);
    const rule = { report: 'spend-watch', rule: 'spend-high' };
    expect(
      sampleSum(before, 'pivotbot_alert_evaluations_total', { ...rule, outcome: 'evaluated' }),
    ).toBeGreaterThanOrEqual(1);
    expect(sampleSum(before, 'pivotbot_alert_evaluations_total', { outcome: 'failed' })).toBe(0);
    // Both platforms breach `above: 0` at the first evaluation, and nothing recovers.
    expect(sampleSum(before, 'pivotbot_alert_incidents_opened_total', rule)).toBe(2);
    expect(sampleSum(before, 'pivotbot_alert_incidents_resolved_total', rule)).toBe(0);
    expect(sampleSum(before, 'pivotbot_alert_incidents_open')).toBe(2);
    // The report turns explanations off: each new incident's is skipped with that reason.
    expect(
      sampleSum(before, 'pivotbot_explanations_total', { subject: 'incident', outcome: 'skipped', reason: 'disabled' }),
    ).toBe(2);
    expect(
      sampleSum(before, 'pivotbot_slack_api_calls_total', { method: 'chat.postMessage', outcome: 'ok' }),
    ).toBeGreaterThanOrEqual(2);
    expect(
      sampleSum(before, 'pivotbot_reporting_requests_total', { operation: 'pivot', outcome: 'ok' }),
    ).toBeGreaterThanOrEqual(2);
    expect(sampleSum(before, 'pivotbot_reporting_token_refreshes_total')).toBeGreaterThanOrEqual(1);
    expect(sampleSum(before, 'pivotbot_chart_renders_total', { outcome: 'drawn' })).toBeGreaterThanOrEqual(1);
    expect(sampleSum(before, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);

    // Four refusals: the query's first attempt and its three retries.
    harness.sandbox.setFaults({ failNextRequests: 4, http5xxStatus: 503 });
    const { response, hook } = await harness.command(QUERY, { channel: CHANNEL });
    expect(response.status).toBe(200);
    await harness.waitForHook(hook);
    const after = await scrape(harness.bot.port);
    const moved = (series: string, labels: Record<string, string> = {}) =>
      sampleSum(after, series, labels) - sampleSum(before, series, labels);

    expect(moved('pivotbot_reporting_requests_total', { operation: 'pivot', outcome: 'http_5xx' })).toBe(4);
    expect(moved('pivotbot_reporting_requests_total', { outcome: 'ok' })).toBe(0);
    expect(moved('pivotbot_reporting_retries_total', { operation: 'pivot' })).toBe(3);
    expect(moved('pivotbot_reporting_request_seconds_count', { operation: 'pivot' })).toBe(4);
    expect(moved('pivotbot_slack_ack_seconds_count', { kind: 'command' })).toBe(1);
    expect(moved('pivotbot_slots_posted_total')).toBe(0);
    expect(moved('pivotbot_work_queue_busy_refusals_total')).toBe(0);
    expect(sampleSum(after, 'pivotbot_work_queue_depth')).toBe(0);
  }, 120_000);

  it('carries no channel, user, secret or typed text in any label', async () => {
    const families = await scrape(harness.bot.port);
    const forbidden = [
      CHANNEL,
      ADMIN,
      'xoxb-test-token',
      SIGNING_SECRET,
      harness.sandbox.clientSecret,
      QUERY,
      'country',
      'IOS',
      'ANDROID',
    ];
    for (const family of families.values()) {
      for (const sample of family.samples) {
        for (const [name, value] of Object.entries(sample.labels)) {
          expect({ series: sample.name, name, allowed: ALLOWED_LABELS.has(name) }).toEqual({
            series: sample.name,
            name,
            allowed: true,
          });
          for (const text of forbidden) expect(`${sample.name}{${name}="${value}"}`).not.toContain(text);
        }
      }
    }
  });
});

describe('GET /metrics with the receiver in its own thread', () => {
  const harness = new BotHarness();

  beforeAll(async () => {
    await harness.start({ receiverThread: receiverThreadEntry() });
  }, 180_000);

  afterAll(() => harness.stop());

  it('reports the acks timed in the receiver thread from the bot thread', async () => {
    const before = await scrape(harness.bot.port);
    const { hook } = await harness.command('help');
    await harness.waitForHook(hook);
    await harness.event({ type: 'app_home_opened', user: ADMIN, tab: 'home' });
    const after = await scrape(harness.bot.port);
    const moved = (kind: string) =>
      sampleSum(after, 'pivotbot_slack_ack_seconds_count', { kind }) -
      sampleSum(before, 'pivotbot_slack_ack_seconds_count', { kind });
    expect(moved('command')).toBe(1);
    expect(moved('event')).toBe(1);
  }, 60_000);
});
