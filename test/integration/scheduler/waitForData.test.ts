/**
 * `schedule.waitForData` end to end, against the sandbox with its clock set to 01:10 UTC today:
 * its data ends at 01:00, so today's impressions are a small share of the same day a week earlier,
 * while yesterday is complete. A seconds-cron digest of `today` waits (re-checks after its short
 * `wait`) and then posts with the "Data may be incomplete" line; a digest of `yesterday` posts at
 * once, without it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { createLogger } from '../../../src/core/index.js';
import { BotHarness } from '../../support/botHarness.js';
import { writeReports } from '../../support/scheduledReports.js';
import type { StoredMessage } from '../../support/slackTestServer.js';

const CHANNEL = 'C0GENERAL1';
const WAIT_S = 4;

const report = (title: string, range: string) => `title: ${title}
query:
  dimensions: [appPlatform]
  metrics: [impressions, spend]
  range: ${range}
present:
  headline: [impressions, spend]
mode: sync
schedule:
  cron: "*/10 * * * * *"
  timezone: UTC
  retry: { attempts: 2, backoff: 1s }
  waitForData: { metric: impressions, minShare: 0.5, wait: ${WAIT_S}s }
deliver:
  channels: ["${CHANNEL}"]
  csv: false
`;

const digestsOf = (messages: readonly StoredMessage[], id: string) =>
  messages.filter(
    (m) => m.metadata?.event_type === 'pivotbot_digest' && m.metadata.event_payload.report === id && !m.threadTs,
  );
const slotMs = (m: StoredMessage) => Date.parse(String(m.metadata?.event_payload.slot));
const postedMs = (m: StoredMessage) => Number(m.ts) * 1000;

describe('waiting for late data', () => {
  const harness = new BotHarness();
  let dir: string;
  /** The bot's log lines: its data checks say whether a digest waited. */
  const lines: Array<Record<string, unknown>> = [];
  const logger = createLogger({
    level: 'info',
    destination: new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).trim().split('\n')) lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    }),
  });
  const decisionsOf = (report: string) =>
    lines.filter((l) => l.msg === 'data check' && l.report === report).map((l) => l.decision);

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pivotbot-wait-'));
    const reports = await writeReports(dir, {
      'today-so-far': report('Today so far', 'today'),
      'yesterday-done': report('Yesterday', 'yesterday'),
    });
    const today = new Date();
    today.setUTCHours(1, 10, 0, 0);
    await harness.start({ env: { PIVOTBOT_REPORTS_DIR: reports }, now: today, logger });
  }, 60_000);

  afterAll(async () => {
    await harness.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('waits for a short range, then posts it marked incomplete; posts a complete one at once', async () => {
    const slack = harness.slack;
    await slack.waitFor(
      () =>
        digestsOf(slack.messages, 'today-so-far').length >= 1 &&
        digestsOf(slack.messages, 'yesterday-done').length >= 1,
      40_000,
      'both digests',
    );
    const [short] = digestsOf(slack.messages, 'today-so-far') as [StoredMessage];
    const blocks = JSON.stringify(short.blocks);
    // The wait it states is at least the rule's (a busy machine makes it a second or two longer).
    const waited =
      /Data may be incomplete: impressions is \d+% of the same period last week \(\w{3} \d+ \w{3} \d{4}\) after waiting (\d+)s for it\./.exec(
        blocks,
      );
    expect(waited).not.toBeNull();
    expect(Number(waited?.[1])).toBeGreaterThanOrEqual(WAIT_S);
    // It waited (and checked again) before posting.
    expect(postedMs(short) - slotMs(short)).toBeGreaterThanOrEqual(WAIT_S * 1000);
    const key = `digest:today-so-far:${CHANNEL}:${new Date(slotMs(short)).toISOString()}`;
    // The run is recorded right after the post.
    await slack.waitFor(
      () => harness.bot.store.runs.findByIdempotencyKey(key)?.status !== 'running',
      5_000,
      'the run record',
    );
    expect(harness.bot.store.runs.findByIdempotencyKey(key)).toMatchObject({
      status: 'succeeded',
      attempt: 1,
      messageTs: short.ts,
    });

    const [complete] = digestsOf(slack.messages, 'yesterday-done') as [StoredMessage];
    expect(JSON.stringify(complete.blocks)).not.toContain('Data may be incomplete');
    // Its data check found the range complete: posted without waiting (the short one waited).
    expect(decisionsOf('yesterday-done')).not.toContain('wait');
    expect(decisionsOf('yesterday-done')).toContain('post');
    expect(decisionsOf('today-so-far')).toContain('wait');
  }, 60_000);
});
