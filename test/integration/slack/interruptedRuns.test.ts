import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { useBotHarness } from '../../support/botHarness.js';

const text = (value: unknown) => JSON.stringify(value);

/** The run records in the store file as the stopped bot left it (what the next start reads). */
async function savedRuns(dir: string) {
  const saved = JSON.parse(await readFile(join(dir, 'store', 'pivotbot.json'), 'utf8')) as {
    runs: Array<{ id: string; status: string; jobId?: string; command?: string; requester?: string }>;
  };
  return saved.runs;
}

describe('a manual run interrupted before its job existed', () => {
  const bot = useBotHarness();

  it('is marked failed at the next start and its requester is told privately, with the command again', async () => {
    // What a SIGKILL between the claim of the command and its job leaves in the store.
    const { run } = await bot().bot.store.runs.start({
      report: 'daily-kpi',
      trigger: 'manual',
      idempotencyKey: 'slack:killed-1',
      channel: 'C0GENERAL1',
      requester: 'U0ALICE',
      command: 'run daily-kpi yesterday',
    });
    await bot().bot.stop();
    expect((await savedRuns(bot().dir)).find((r) => r.id === run.id)?.status).toBe('running');

    await bot().startBot();
    await bot().slack.waitFor(
      () => bot().slack.callsTo('chat.postEphemeral').length > 0,
      20_000,
      'the requester to be told',
    );
    const [told] = bot().slack.callsTo('chat.postEphemeral');
    expect(told?.args).toMatchObject({ channel: 'C0GENERAL1', user: 'U0ALICE' });
    expect(text(told?.args.text)).toContain('interrupted');
    expect(text(told?.args.text)).toContain('`/pivot run daily-kpi yesterday`');
    expect(bot().bot.store.runs.get(run.id)).toMatchObject({
      status: 'failed',
      error: { code: 'RUN_INTERRUPTED' },
    });
    expect(bot().bot.store.runs.listUnfinished()).toEqual([]);
  });

  it('tells the channel, mentioning the requester, when Slack refuses the private message', async () => {
    const { run } = await bot().bot.store.runs.start({
      report: 'daily-kpi',
      trigger: 'manual',
      idempotencyKey: 'slack:killed-2',
      channel: 'C0GENERAL1',
      requester: 'U0BOB',
      command: 'spend by countryCode yesterday',
    });
    await bot().bot.stop();
    bot().slack.fail('chat.postEphemeral', { error: 'user_not_in_channel' });
    const posted = bot().slack.messages.length;
    await bot().startBot();
    await bot().slack.waitFor(() => bot().slack.messages.length > posted, 20_000, 'the channel message');
    const message = bot().slack.messages[posted];
    expect(message?.channel).toBe('C0GENERAL1');
    expect(message?.text).toContain('<@U0BOB>');
    expect(message?.text).toContain('`/pivot spend by countryCode yesterday`');
    expect(bot().bot.store.runs.get(run.id)?.status).toBe('failed');
  });
});

describe('a manual async run whose job a restart resumed', () => {
  const bot = useBotHarness({ faults: { asyncStepMs: 1_500 } });

  it('finishes the run record with the job: succeeded, linked to the job, at its progress message', async () => {
    const job = await bot().startAsyncJob();
    const jobId = job?.id as string;
    await bot().bot.stop();
    // Stopped mid-job: the run stays running (not failed), linked to its job, with the command text.
    const left = (await savedRuns(bot().dir)).find((r) => r.jobId === jobId);
    expect(left).toMatchObject({ status: 'running', command: 'run site-bundle-quality' });

    await bot().startBot();
    await bot().slack.waitFor(
      () => bot().bot.store.runs.get(left?.id as string)?.status !== 'running',
      40_000,
      'the resumed run to finish',
    );
    expect(bot().bot.store.runs.get(left?.id as string)).toMatchObject({
      status: 'succeeded',
      jobId,
      messageTs: job?.threadTs,
    });
    expect(bot().bot.store.jobs.get(jobId)?.status).toBe('succeeded');
    expect(bot().slack.callsTo('chat.postEphemeral')).toHaveLength(0);
    expect(bot().bot.store.runs.listUnfinished()).toEqual([]);
  });
});
