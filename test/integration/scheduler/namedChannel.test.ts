/**
 * A report that names its channel (`channels: ["#general"]`, as the example reports do), end to end:
 * when a digest's attempt fails after its post, the retry reads the channel's history by the
 * channel's id (Slack refuses names there), page after page in a busy channel and from before the
 * slot (Slack's clock is behind), finds the post and only uploads the CSV.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BotHarness } from '../../support/botHarness.js';
import { failNextThreadUpload, secondsReport, writeReports } from '../../support/scheduledReports.js';

const CHANNEL_ID = 'C0GENERAL1';

describe('a digest whose report names its channel', () => {
  const harness = new BotHarness();
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pivotbot-named-'));
    const reports = await writeReports(dir, {
      'by-name': secondsReport({ title: 'By name', channels: ['#general'], everySeconds: 2, chart: false }),
    });
    await harness.start({ env: { PIVOTBOT_REPORTS_DIR: reports } });
    // Slack's clock is behind the bot's: a digest posted just after its slot carries an earlier ts.
    harness.slack.clockSkewMs = -3_000;
  }, 60_000);

  afterAll(async () => {
    await harness.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('is retried after a failure past its post without a second post, in a busy channel with Slack’s clock behind, and gets its CSV', async () => {
    const slack = harness.slack;
    const { threadTs: failedThread, uploadsIntoThread } = await failNextThreadUpload(slack, CHANNEL_ID);
    // A busy channel: before the retry (1 s later), 150 messages from people push the digest off
    // the first page of history the retry reads.
    slack.chatter(CHANNEL_ID, 150);
    await slack.waitFor(() => uploadsIntoThread() >= 2, 15_000, 'the CSV uploaded by the retry');
    const digest = slack.messages.find((m) => m.ts === failedThread);
    const slot = String(digest?.metadata?.event_payload.slot);
    const sameSlot = slack.messages.filter(
      (m) => m.metadata?.event_type === 'pivotbot_digest' && m.metadata.event_payload.slot === slot && !m.threadTs,
    );
    expect(sameSlot).toHaveLength(1);
    expect(slack.callsTo('conversations.history').every((c) => c.args.channel === CHANNEL_ID)).toBe(true);
    expect(slack.callsTo('conversations.history').length).toBeGreaterThanOrEqual(2);
    // The slot's run key keeps the channel as the report file writes it.
    const key = `digest:by-name:#general:${slot}`;
    const run = () => harness.bot.store.runs.findByIdempotencyKey(key);
    await slack.waitFor(() => run()?.status !== 'running', 10_000, 'the retried run recorded');
    expect(run()).toMatchObject({ status: 'succeeded', attempt: 2, messageTs: failedThread });
  }, 40_000);
});
