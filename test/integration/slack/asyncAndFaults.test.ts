import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { useBotHarness } from '../../support/botHarness.js';

const text = (value: unknown) => JSON.stringify(value);

describe('async jobs in threads', () => {
  const bot = useBotHarness();

  it('posts a progress message, updates it in place, and delivers the result and CSV in its thread', async () => {
    await bot().command('run site-bundle-quality');
    await bot().slack.waitFor(
      () =>
        bot()
          .bot.store.jobs.list()
          .some((j) => j.status === 'succeeded'),
      30_000,
      'the job to succeed',
    );
    const job = bot().bot.store.jobs.list()[0];
    expect(job).toMatchObject({ status: 'succeeded', channel: 'C0GENERAL1' });
    const progressTs = job?.threadTs as string;
    const progress = bot().slack.messages.find((m) => m.ts === progressTs);
    expect(text(progress?.blocks)).toContain('ready');
    expect(
      bot()
        .slack.callsTo('chat.update')
        .filter((c) => c.args.ts === progressTs).length,
    ).toBeGreaterThan(0);
    const inThread = bot()
      .slack.callsTo('chat.postMessage')
      .filter((c) => c.args.thread_ts === progressTs);
    expect(inThread).toHaveLength(1);
    const uploads = bot()
      .slack.callsTo('files.completeUploadExternal')
      .filter((c) => c.args.thread_ts === progressTs);
    expect(uploads).toHaveLength(1);
    expect(
      bot()
        .slack.callsTo('files.getUploadURLExternal')
        .map((c) => c.args.filename),
    ).toContain('site-bundle-quality.csv');

    const status = await bot().command(`status ${job?.id}`);
    const answer = await bot().waitForHook(status.hook);
    expect(answer).toContain('Service status: *READY*');
    expect(answer).toContain('delivery: *succeeded*');
    expect(answer).toContain('site-bundle-quality.csv');
  });
});

describe('a restart in the middle of an async job', () => {
  const bot = useBotHarness({ faults: { asyncStepMs: 1_500 } });

  it('resumes polling after the restart and delivers the CSV once', async () => {
    const job = await bot().startAsyncJob();
    await bot().bot.stop();
    // What the next start reads: the store file as the stopped bot left it, the job still running.
    const saved = JSON.parse(await readFile(join(bot().dir, 'store', 'pivotbot.json'), 'utf8')) as {
      jobs: Array<{ id: string; status: string }>;
    };
    expect(saved.jobs.find((j) => j.id === job?.id)?.status).toBe('running');

    await bot().startBot();
    await bot().slack.waitFor(
      () => bot().bot.store.jobs.get(job?.id as string)?.status === 'succeeded',
      40_000,
      'the resumed job',
    );
    await new Promise((r) => setTimeout(r, 300));
    const uploads = bot()
      .slack.callsTo('files.completeUploadExternal')
      .filter((c) => c.args.thread_ts === job?.threadTs);
    expect(uploads).toHaveLength(1);
    const summary = bot()
      .slack.callsTo('chat.postMessage')
      .filter((c) => c.args.thread_ts === job?.threadTs);
    expect(text(summary.map((s) => s.args.blocks))).toContain('is ready');
    expect(text(bot().slack.messages.find((m) => m.ts === job?.threadTs)?.blocks)).toContain('ready');
  });
});

describe('Slack faults', () => {
  const bot = useBotHarness();

  it('honours Retry-After through a 429 storm and still posts once', async () => {
    bot().slack.fail('chat.postMessage', { status: 429, retryAfterSeconds: 1, times: 3 });
    const before = bot().slack.callsTo('chat.postMessage').length;
    await bot().command('spend by countryCode yesterday');
    await bot().slack.waitFor(() => bot().slack.messages.length > 0, 30_000, 'the message after the storm');
    const attempts = bot().slack.callsTo('chat.postMessage').slice(before);
    expect(attempts).toHaveLength(4);
    for (let i = 1; i < attempts.length; i++) {
      expect((attempts[i]?.at ?? 0) - (attempts[i - 1]?.at ?? 0)).toBeGreaterThanOrEqual(900);
    }
  });

  it('retries a 5xx from Slack', async () => {
    const posted = bot().slack.messages.length;
    bot().slack.fail('chat.postMessage', { status: 503, times: 2 });
    await bot().command('installs by countryCode yesterday');
    await bot().slack.waitFor(() => bot().slack.messages.length > posted, 30_000, 'the message after 503s');
  });

  it('turns invalid_auth into an operator-facing message for the user', async () => {
    bot().slack.fail('chat.postMessage', { error: 'invalid_auth' });
    const { hook } = await bot().command('clicks by countryCode yesterday');
    expect(await bot().waitForHook(hook)).toContain('token is not valid');
  });

  it('re-runs a report with another range from its button, and puts the CSV in the thread on request', async () => {
    const before = bot().slack.callsTo('chat.postMessage').length;
    await bot().click('pivot_range_last_7_days', { reportId: 'daily-kpi', range: 'yesterday' });
    await bot().slack.waitFor(() => bot().slack.callsTo('chat.postMessage').length > before, 20_000, 'the re-run');
    expect(text(bot().slack.callsTo('chat.postMessage')[before]?.args.blocks)).toMatch(/Last 7 days/i);

    await bot().click('pivot_csv', { reportId: 'daily-kpi' }, { messageTs: '1700000000.000777' });
    await bot().slack.waitFor(
      () =>
        bot()
          .slack.callsTo('files.completeUploadExternal')
          .some((c) => c.args.thread_ts === '1700000000.000777'),
      20_000,
      'the CSV in the thread',
    );
  });

  it('puts the CSV of a result that is a thread reply into that thread, not under the reply', async () => {
    await bot().click(
      'pivot_csv',
      { reportId: 'daily-kpi' },
      { messageTs: '1700000000.000999', threadTs: '1700000000.000900' },
    );
    await bot().slack.waitFor(
      () =>
        bot()
          .slack.callsTo('files.completeUploadExternal')
          .some((c) => c.args.thread_ts === '1700000000.000900'),
      20_000,
      'the CSV in the parent thread',
    );
    expect(
      bot()
        .slack.callsTo('files.completeUploadExternal')
        .some((c) => c.args.thread_ts === '1700000000.000999'),
    ).toBe(false);
  });

  it('runs an ad-hoc query again from its CSV button, with the CSV in the thread', async () => {
    await bot().click(
      'pivot_csv',
      { reportId: 'adhoc', query: 'spend installs by countryCode yesterday' },
      { messageTs: '1700000000.000888' },
    );
    await bot().slack.waitFor(
      () =>
        bot()
          .slack.callsTo('files.completeUploadExternal')
          .some((c) => c.args.thread_ts === '1700000000.000888'),
      20_000,
      'the ad-hoc CSV in the thread',
    );
    const inThread = bot()
      .slack.callsTo('chat.postMessage')
      .filter((c) => c.args.thread_ts === '1700000000.000888');
    expect(text(inThread.map((c) => c.args.blocks))).toContain('spend installs by countryCode yesterday');
  });

  it('answers a button whose report no longer exists privately', async () => {
    const { hook } = await bot().click('pivot_rerun', { reportId: 'gone-report' });
    expect(await bot().waitForHook(hook)).toContain('No report named');
  });
});
