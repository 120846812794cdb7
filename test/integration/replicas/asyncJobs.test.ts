/**
 * An async job across replicas: the replica that started it stops while the job runs (its
 * heartbeat goes with it), and another replica on the same database adopts the job and its run,
 * polls it to the end and delivers the CSV in its thread once. Both bots run in this process
 * (`startBot`), sharing the sandbox (slow async steps) and the Slack test server.
 */
import type { RunningBot } from '../../../src/cli/startBot.js';
import { BotHarness } from '../../support/botHarness.js';
import { freshDatabase, stopTestPostgres } from '../../support/postgres.js';

afterAll(stopTestPostgres);

describe('an async job whose replica stops', () => {
  const harness = new BotHarness();
  let other: RunningBot | undefined;

  beforeAll(async () => {
    const url = await freshDatabase('pivotbot_async_replicas');
    await harness.start({ faults: { asyncStepMs: 1_500 }, env: { PIVOTBOT_STORE: url, PIVOTBOT_LEASE_SECONDS: '1' } });
  });
  afterAll(async () => {
    await other?.stop();
    await harness.stop();
  });

  it('is delivered once by another replica', async () => {
    other = await harness.startReplica();
    await harness.command('run site-bundle-quality');
    await harness.slack.waitFor(
      () => harness.bot.store.jobs.listActive().some((j) => j.threadTs !== undefined),
      20_000,
      'the stored job',
    );
    const [job] = harness.bot.store.jobs.listActive();
    const id = job?.id as string;
    // The receiving replica stops mid-job: the job stays active, its lease now has no live holder.
    await harness.bot.stop();
    const survivor = other;
    await harness.slack.waitFor(
      () => survivor.store.jobs.get(id)?.status === 'succeeded',
      40_000,
      'the job delivered by the other replica',
    );
    await new Promise((r) => setTimeout(r, 500));
    const uploads = harness.slack
      .callsTo('files.completeUploadExternal')
      .filter((c) => c.args.thread_ts === job?.threadTs);
    expect(uploads).toHaveLength(1);
    // The command's run is finished by the job's outcome, by the replica that adopted it.
    const run = survivor.store.runs
      .listByReport('site-bundle-quality')
      .find((r) => r.jobId === id || r.trigger === 'manual');
    expect(run?.status).toBe('succeeded');
  }, 90_000);
});
