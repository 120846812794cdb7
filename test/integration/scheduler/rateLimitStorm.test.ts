/**
 * A 429 storm end to end: two seconds-cron reports into three channels (six schedules due at the
 * same instants) while the Slack test server enforces limits far stricter than those the bot paces
 * to (one post a second per channel, four upload calls a second), so many calls are refused with
 * 429 and Retry-After. Every slot is still posted exactly once, and every claimed slot succeeds.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BotHarness } from '../../support/botHarness.js';
import { secondsReport, writeReports } from '../../support/scheduledReports.js';
import type { StoredMessage } from '../../support/slackTestServer.js';

const CHANNELS = ['C0GENERAL1', 'C0MARKET01', 'C0SALES001'];
const REPORTS = ['storm-a', 'storm-b'];
const EVERY_SECONDS = 4;
const SLOTS_EACH = 3;

const slotOf = (m: StoredMessage) => String(m.metadata?.event_payload.slot);
const digestsOf = (messages: readonly StoredMessage[], report: string, channel: string) =>
  messages.filter(
    (m) =>
      m.metadata?.event_type === 'pivotbot_digest' &&
      m.metadata.event_payload.report === report &&
      m.channel === channel &&
      !m.threadTs,
  );

describe('a 429 storm on scheduled digests', () => {
  const harness = new BotHarness();
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pivotbot-storm-'));
    const reports = await writeReports(
      dir,
      Object.fromEntries(
        REPORTS.map((id) => [id, secondsReport({ title: id, channels: CHANNELS, everySeconds: EVERY_SECONDS })]),
      ),
    );
    await harness.start({ env: { PIVOTBOT_REPORTS_DIR: reports } });
    // A third channel the bot is in; the first slot is seconds away, so it is known before any post.
    harness.slack.knownChannels.set('C0SALES001', 'sales');
    harness.slack.memberOf.add('C0SALES001');
    harness.slack.enforceRateLimits({
      windowMs: 1_000,
      perChannel: 1,
      perMethod: {
        'chat.postMessage': 4,
        'files.getUploadURLExternal': 4,
        'files.completeUploadExternal': 4,
      },
    });
  }, 60_000);

  afterAll(async () => {
    await harness.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('paces through the 429s: every slot of every schedule posted once, none lost', async () => {
    const slack = harness.slack;
    const enough = () =>
      REPORTS.every((r) => CHANNELS.every((c) => digestsOf(slack.messages, r, c).length >= SLOTS_EACH));
    await slack.waitFor(enough, 45_000, `${SLOTS_EACH} digests of every schedule`);
    // Shutdown lets the posts in flight finish (its grace); what it leaves is for catch-up.
    await harness.bot.stop();

    const limited = Object.values(slack.rateLimited()).reduce((a, b) => a + b, 0);
    expect(limited).toBeGreaterThan(0);
    expect(slack.rateLimited()['chat.postMessage'] ?? 0).toBeGreaterThan(0);

    const runs = REPORTS.flatMap((r) => harness.bot.store.runs.listByReport(r));
    expect(runs.filter((run) => run.status === 'failed')).toEqual([]);
    for (const report of REPORTS) {
      for (const channel of CHANNELS) {
        const posted = digestsOf(slack.messages, report, channel);
        const slots = posted.map(slotOf);
        expect(new Set(slots).size).toBe(slots.length);
        // No slot missing between the first and the last posted.
        const times = slots.map((s) => Date.parse(s)).sort((a, b) => a - b);
        for (let i = 1; i < times.length; i++) {
          expect((times[i] as number) - (times[i - 1] as number)).toBe(EVERY_SECONDS * 1_000);
        }
        // Every slot that was recorded as delivered is in the channel, at the recorded message.
        for (const run of runs.filter(
          (r) => r.report === report && r.channel === channel && r.status === 'succeeded',
        )) {
          const message = posted.find((m) => slotOf(m) === run.scheduledFor);
          expect(message?.ts).toBe(run.messageTs);
        }
      }
    }
    // Every refused call was retried: the accepted posts are exactly the messages kept.
    const accepted = slack.callsTo('chat.postMessage').filter((c) => !c.limited).length;
    expect(accepted).toBe(slack.messages.length);
  }, 90_000);
});
