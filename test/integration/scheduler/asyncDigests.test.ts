/**
 * Scheduled digests that run as Reporting Service jobs (`mode: async`), end to end: a job that ends
 * in FAILED is retried per `schedule.retry`, and the retry runs the digest again (the earlier
 * attempt's progress message, which says it failed, is not taken for the digest).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BotHarness } from '../../support/botHarness.js';
import { secondsReport, writeReports } from '../../support/scheduledReports.js';

const CHANNEL = 'C0GENERAL1';

describe('async digests', () => {
  const harness = new BotHarness();
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pivotbot-async-'));
    const reports = await writeReports(dir, {
      'async-two': secondsReport({
        title: 'Async every two seconds',
        channels: [CHANNEL],
        everySeconds: 2,
        chart: false,
        mode: 'async',
      }),
    });
    // Every job fails until the test lets them through.
    await harness.start({ env: { PIVOTBOT_REPORTS_DIR: reports }, faults: { asyncFailureRate: 1 } });
  }, 60_000);

  afterAll(async () => {
    await harness.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('retries a slot whose job failed and delivers the digest, instead of recording the failed job as posted', async () => {
    const { slack, sandbox } = harness;
    const store = () => harness.bot.store;
    await slack.waitFor(
      () =>
        store()
          .jobs.list()
          .some((j) => j.status === 'failed'),
      20_000,
      'a failed job',
    );
    sandbox.setFaults({ asyncFailureRate: 0 });
    const failed = store()
      .jobs.list()
      .find((j) => j.status === 'failed');
    const slotOf = (threadTs: string | undefined) =>
      slack.messages.find((m) => m.ts === threadTs)?.metadata?.event_payload.slot;
    const slot = String(slotOf(failed?.threadTs));
    const run = () => store().runs.findByIdempotencyKey(`digest:async-two:${CHANNEL}:${slot}`);
    await slack.waitFor(() => run()?.status === 'succeeded', 20_000, 'the slot delivered by its retry');
    expect(run()?.attempt).toBe(2);
    // The digest is a new job with a new progress message, its result and CSV in that thread.
    const retried = store()
      .jobs.list()
      .find((j) => j.status === 'succeeded' && slotOf(j.threadTs) === slot);
    expect(retried?.threadTs).toBeDefined();
    expect(retried?.threadTs).not.toBe(failed?.threadTs);
    await slack.waitFor(
      () => slack.callsTo('files.completeUploadExternal').some((c) => c.args.thread_ts === retried?.threadTs),
      10_000,
      "the CSV in the retried digest's thread",
    );
    // A failure notice would have said the slot was lost: there is none.
    expect(slack.messages.some((m) => m.text.includes('could not be delivered'))).toBe(false);
  }, 60_000);
});
