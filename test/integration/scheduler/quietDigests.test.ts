/**
 * Quiet digests end to end over real HTTP: three reports of the same numbers (spend, installs and
 * CPI by platform, yesterday against the day before), posted every two seconds, differing only in
 * `present.onlyWhen`. The sandbox's numbers are the same at every slot, so the thresholds decide
 * deterministically: 0.01 % is always passed (a moved day), 100000 % never is (a quiet day).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BotHarness } from '../../support/botHarness.js';
import { secondsReport, writeReports } from '../../support/scheduledReports.js';
import type { StoredMessage } from '../../support/slackTestServer.js';

const CHANNEL = 'C0GENERAL1';
const TODAY = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', weekday: 'short' }).format(new Date()).toLowerCase();
const NOT_TODAY = TODAY === 'mon' ? 'tue' : 'mon';

/** The seconds report with `onlyWhen` (and no incidents to consider: it has no rules). */
const quietReport = (title: string, onlyWhen: string) =>
  secondsReport({ title, channels: [CHANNEL], everySeconds: 2, chart: false }).replace(
    '  compare: previous_period',
    `  compare: previous_period\n  onlyWhen: ${onlyWhen}`,
  );

function posts(messages: readonly StoredMessage[], report: string): StoredMessage[] {
  return messages.filter(
    (m) => m.metadata?.event_type === 'pivotbot_digest' && m.metadata.event_payload.report === report && !m.threadTs,
  );
}

describe('quiet digests (present.onlyWhen)', () => {
  const harness = new BotHarness();
  let dir: string;
  const runs = (report: string) =>
    harness.bot.store.runs.listByReport(report).filter((r) => r.status !== 'running' && r.scheduledFor !== undefined);

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pivotbot-quiet-'));
    const reports = await writeReports(dir, {
      moved: quietReport('Moved', `{ moved: "0.01%", allQuiet: ${NOT_TODAY} }`),
      quiet: quietReport('Quiet', `{ moved: "100000%", allQuiet: ${NOT_TODAY} }`),
      'quiet-note': quietReport('Quiet with a note today', `{ moved: "100000%", allQuiet: ${TODAY} }`),
    });
    await harness.start({ env: { PIVOTBOT_REPORTS_DIR: reports } });
  }, 180_000);

  afterAll(async () => {
    await harness.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('posts on a moved day at every slot', async () => {
    await harness.slack.waitFor(() => posts(harness.slack.messages, 'moved').length >= 3, 60_000, 'three digests');
    expect(runs('moved').every((r) => r.status === 'succeeded')).toBe(true);
  }, 90_000);

  it('posts nothing on a quiet day after its first post, and records each skipped slot with the reason', async () => {
    await harness.slack.waitFor(
      () => runs('quiet').filter((r) => r.status === 'skipped').length >= 2,
      60_000,
      'two skipped slots',
    );
    // Only the schedule's first slot posted (so the channel knows the report exists).
    const posted = posts(harness.slack.messages, 'quiet');
    expect(posted).toHaveLength(1);
    const skipped = runs('quiet').filter((r) => r.status === 'skipped');
    for (const run of skipped) {
      expect(run.messageTs).toBeUndefined();
      expect(run.error?.message).toBe(
        'quiet: no headline KPI moved 100000 % or more vs previous period, and no incident opened since the last post',
      );
    }
    const { hook } = await harness.command('history quiet');
    const answer = await harness.waitForHook(hook);
    expect(answer).toContain(':fast_forward: skipped: quiet: no headline KPI moved 100000 % or more');
    expect(answer).toContain(':white_check_mark: posted');
  }, 90_000);

  it('on its all-quiet weekday, a quiet slot posts the short note instead of nothing', async () => {
    await harness.slack.waitFor(
      () => posts(harness.slack.messages, 'quiet-note').length >= 2,
      60_000,
      'the first digest and a note',
    );
    const note = posts(harness.slack.messages, 'quiet-note')[1] as StoredMessage;
    expect(JSON.stringify(note.blocks)).toContain('all quiet');
    expect(JSON.stringify(note.blocks)).toContain('posts only when something moves');
    const run = harness.bot.store.runs.findByIdempotencyKey(
      `digest:quiet-note:${CHANNEL}:${String(note.metadata?.event_payload.slot)}`,
    );
    expect(run?.status).toBe('skipped');
    expect(run?.messageTs).toBe(note.ts);
    expect(run?.error?.message).toMatch(/posted the weekly all-quiet note$/);
    // One note a day: the next quiet slots of the day post nothing.
    await harness.slack.waitFor(
      () => runs('quiet-note').filter((r) => r.status === 'skipped' && r.messageTs === undefined).length >= 1,
      60_000,
      'a quiet slot after the note',
    );
    expect(posts(harness.slack.messages, 'quiet-note')).toHaveLength(2);
  }, 90_000);
});
