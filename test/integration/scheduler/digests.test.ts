/**
 * Scheduled digests end to end over real HTTP: the bot (in this process) with its scheduler on
 * real timers, the sandbox as the Reporting Service and the Slack test server. A seconds field in
 * the report's cron makes slots come every two seconds.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADMIN, BotHarness } from '../../support/botHarness.js';
import { eventually } from '../../support/eventually.js';
import { failNextThreadUpload, secondsReport, writeReports } from '../../support/scheduledReports.js';
import { wire } from '../../support/slackRequests.js';
import type { StoredMessage } from '../../support/slackTestServer.js';
import { channelMention } from '../../support/slackWireFormat.js';

const CHANNEL = 'C0GENERAL1';
const CSV_CHANNEL = 'C0MARKET01';

function digests(messages: readonly StoredMessage[], report: string): StoredMessage[] {
  return messages.filter(
    (m) => m.metadata?.event_type === 'pivotbot_digest' && m.metadata.event_payload.report === report && !m.threadTs,
  );
}

const slotOf = (m: StoredMessage) => String(m.metadata?.event_payload.slot);

describe('scheduled digests', () => {
  const harness = new BotHarness();
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pivotbot-sched-'));
    const reports = await writeReports(dir, {
      'every-two': secondsReport({ title: 'Every two seconds', channels: [CHANNEL], everySeconds: 2 }),
      'csv-only': secondsReport({ title: 'CSV only', channels: [CSV_CHANNEL], everySeconds: 2, chart: false }),
    });
    await harness.start({ env: { PIVOTBOT_REPORTS_DIR: reports } });
  }, 180_000);

  afterAll(async () => {
    await harness.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('posts one digest per slot, with its metadata, chart and CSV', async () => {
    const slack = harness.slack;
    await slack.waitFor(() => digests(slack.messages, 'every-two').length >= 2, 60_000, 'two digests');
    const posted = digests(slack.messages, 'every-two');
    const slots = posted.map(slotOf);
    expect(new Set(slots).size).toBe(slots.length);
    for (const slot of slots) expect(new Date(slot).getUTCSeconds() % 2).toBe(0);
    const first = posted[0] as StoredMessage;
    expect(first.metadata?.event_payload).toEqual({
      report: 'every-two',
      channel: CHANNEL,
      slot: slotOf(first),
      late: false,
    });
    expect(JSON.stringify(first.blocks)).toContain('"type":"image"');
    expect(first.text).not.toMatch(/^Late/);
    // The CSV goes into the digest's thread.
    await slack.waitFor(
      () => slack.callsTo('files.completeUploadExternal').some((c) => c.args.thread_ts === first.ts),
      60_000,
      'the CSV in the thread',
    );
    const run = harness.bot.store.runs.findByIdempotencyKey(`digest:every-two:${CHANNEL}:${slotOf(first)}`);
    expect(run?.status).toBe('succeeded');
    expect(run?.messageTs).toBe(first.ts);
  }, 180_000);

  it('after downtime across two slots, posts each missed slot once, marked late', async () => {
    const slack = harness.slack;
    // Slots due while the bot stops are missed too (stopping takes seconds on a busy machine).
    await harness.bot.stop();
    const stoppedAt = Date.now();
    const before = new Set(digests(slack.messages, 'every-two').map(slotOf));
    const firstOnTime = Math.min(...[...before].map((slot) => Date.parse(slot)));
    // Down until two slots (every two seconds, on even seconds) have passed.
    const secondMissed = (Math.floor(stoppedAt / 2_000) + 2) * 2_000;
    await eventually('two slots passed while the bot is down', () => Date.now() > secondMissed, 10_000);
    await harness.startBot();
    await slack.waitFor(
      () => digests(slack.messages, 'every-two').filter((m) => m.metadata?.event_payload.late === true).length >= 2,
      60_000,
      'two late digests',
    );
    const all = digests(slack.messages, 'every-two');
    const slots = all.map(slotOf);
    expect(new Set(slots).size).toBe(slots.length);
    const late = all.filter((m) => m.metadata?.event_payload.late === true);
    for (const m of late) {
      expect(before.has(slotOf(m))).toBe(false);
      // Only slots of this run's life: none from before the first digest. (Not "due after the stop
      // began": on a busy machine a slot due seconds before it can still be waiting, and is posted
      // late, once, after the restart.)
      expect(Date.parse(slotOf(m))).toBeGreaterThan(firstOnTime);
      expect(m.text).toMatch(/^Late: the digest due \w{3} \d\d:\d\d UTC, posted/);
    }
    // No slot between the last on-time digest and now is missing.
    const times = slots.map((s) => Date.parse(s)).sort((a, b) => a - b);
    for (let i = 1; i < times.length; i++) expect((times[i] as number) - (times[i - 1] as number)).toBe(2_000);
  }, 180_000);

  it('posts a subscription made with /pivot subscribe, and stops once unsubscribed', async () => {
    const slack = harness.slack;
    slack.userZones.set(ADMIN, 'America/Sao_Paulo');
    const other = 'C0MARKET01';
    const inOther = () => digests(slack.messages, 'every-two').filter((m) => m.channel === other);
    const { hook } = await harness.command(wire`subscribe every-two ${channelMention('C0MARKET01', 'marketing')}`, {
      user: ADMIN,
    });
    const answer = await harness.waitForHook(hook);
    expect(answer).toContain('Subscribed');
    // The next three posts, in the subscriber's own zone.
    expect(answer).toContain('in your time zone (America/Sao_Paulo)');
    expect(answer.match(/\d\d:\d\d/g)?.length).toBeGreaterThanOrEqual(3);
    await slack.waitFor(() => inOther().length >= 2, 60_000, 'two digests in the subscribed channel');
    const subscription = harness.bot.store.subscriptions.find('every-two', other);
    expect(subscription).toBeDefined();
    expect(inOther()[0]?.metadata?.event_payload.channel).toBe(other);

    const { hook: schedule } = await harness.command('schedule', { user: ADMIN });
    const listed = await harness.waitForHook(schedule);
    expect(listed).toContain('<#C0MARKET01>');
    expect(listed).toContain('subscription');
    expect(listed).toContain('posted');

    const { hook: history } = await harness.command('history every-two', { user: ADMIN });
    expect(await harness.waitForHook(history)).toMatch(/slot \d{4}-\d\d-\d\d \d\d:\d\d UTC/);

    const { hook: off } = await harness.command(
      wire`unsubscribe every-two ${channelMention('C0MARKET01', 'marketing')}`,
      { user: ADMIN },
    );
    expect(await harness.waitForHook(off)).toContain('no longer gets');
    // The report's own channel goes on; the unsubscribed one gets nothing more once a slot already
    // running there has finished: measured over the report channel's next slots, not a sleep.
    const ownSlots = () =>
      digests(slack.messages, 'every-two')
        .filter((m) => m.channel === CHANNEL)
        .map((m) => Date.parse(slotOf(m)));
    const ownPostedAfter = async (count: number) => {
      const since = Math.max(Date.now(), ...ownSlots());
      await slack.waitFor(
        () => ownSlots().filter((t) => t > since).length >= count,
        60_000,
        `${count} more digests in the report channel`,
      );
    };
    await ownPostedAfter(1);
    const settled = inOther().length;
    await ownPostedAfter(2);
    expect(inOther().length).toBe(settled);
  }, 180_000);

  it('shows the chart once Slack has processed its file, instead of leaving it out', async () => {
    const slack = harness.slack;
    // Slack takes 0.8 s with each uploaded chart: the first post showing it is refused.
    slack.fileProcessingMs = 800;
    try {
      const refused = () =>
        slack.callsTo('chat.postMessage').filter((c) => c.error === 'invalid_blocks' && !c.args.thread_ts);
      await slack.waitFor(() => refused().length > 0, 60_000, 'a digest whose chart was refused');
      const at = refused()[0]?.at as number;
      const postedSince = () => digests(slack.messages, 'every-two').filter((m) => Number(m.ts) * 1000 >= at);
      await slack.waitFor(() => postedSince().length > 0, 60_000, 'the digest posted after the refusal');
      const digest = postedSince()[0] as StoredMessage;
      expect(JSON.stringify(digest.blocks)).toContain('"type":"image"');
      expect(digests(slack.messages, 'every-two').filter((m) => slotOf(m) === slotOf(digest))).toHaveLength(1);
    } finally {
      slack.fileProcessingMs = 0;
    }
  }, 180_000);

  it('posts the CSV of a digest whose upload failed after its post when the slot is retried, without posting it again', async () => {
    const slack = harness.slack;
    // The next upload into a csv-only digest's thread fails after its post; the retry (1 s later)
    // finds the digest in the history and uploads only its files.
    const { threadTs: failedThread, uploadsIntoThread } = await failNextThreadUpload(slack, CSV_CHANNEL);
    await slack.waitFor(() => uploadsIntoThread() >= 2, 60_000, 'the CSV uploaded by the retry');
    const digest = digests(slack.messages, 'csv-only').find((m) => m.ts === failedThread) as StoredMessage;
    // The slot is recorded done, and a later slot of the schedule (run after it, in order) has
    // posted too: no attempt is left that could upload it a third time.
    const failedSlot = Date.parse(slotOf(digest));
    await slack.waitFor(
      () => digests(slack.messages, 'csv-only').some((m) => Date.parse(slotOf(m)) > failedSlot),
      60_000,
      'a later csv-only digest',
    );
    expect(uploadsIntoThread()).toBe(2);
    expect(digests(slack.messages, 'csv-only').filter((m) => slotOf(m) === slotOf(digest))).toHaveLength(1);
    const run = harness.bot.store.runs.findByIdempotencyKey(`digest:csv-only:${CSV_CHANNEL}:${slotOf(digest)}`);
    expect(run).toMatchObject({ status: 'succeeded', attempt: 2, messageTs: failedThread });
  }, 180_000);
});
