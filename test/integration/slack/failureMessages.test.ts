import { Writable } from 'node:stream';
import { createLogger, INTERNAL_FAILURE_MESSAGE } from '../../../src/core/index.js';
import { useBotHarness } from '../../support/botHarness.js';

/** What the bot logged, as parsed JSON lines. */
const lines: Array<Record<string, unknown>> = [];
const logger = createLogger({
  level: 'info',
  destination: new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).trim().split('\n')) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  }),
});

describe('what a user sees when the Reporting Service fails', () => {
  // Every GraphQL request answers `errors[]` with the server's own text.
  const bot = useBotHarness({ faults: { graphqlErrorRate: 1 }, logger });

  it("shows text written for users with a reference, never the server's text; the log has both", async () => {
    const { hook } = await bot().command('spend by countryCode yesterday');
    const answer = await bot().waitForHook(hook);
    expect(answer).toContain('The Reporting Service could not answer');
    expect(answer).not.toContain('sandbox fault');
    const ref = /\(ref ([0-9a-f]{6})\)/.exec(answer)?.[1];
    expect(ref).toBeDefined();
    const line = lines.find((l) => l.ref === ref);
    expect(line).toMatchObject({
      msg: 'command failed',
      err: { type: 'ReportingGraphQLError', code: 'REPORTING_GRAPHQL' },
    });
    expect(JSON.stringify(line)).toContain('Internal server error (sandbox fault)');
  });
});

describe('a resumed async job that fails', () => {
  // Each async state lasts 1.5 s, so the job is still queued when the bot stops.
  const bot = useBotHarness({ faults: { asyncStepMs: 1_500 }, logger });

  it('says so in its thread with a reference to the log line, not the internal message', async () => {
    const job = await bot().startAsyncJob();
    await bot().bot.stop();
    bot().sandbox.setFaults({ asyncFailureRate: 1 });
    await bot().startBot(logger);
    const threadUpdates = () =>
      JSON.stringify(
        bot()
          .slack.callsTo('chat.update')
          .filter((c) => c.args.ts === job?.threadTs)
          .map((c) => c.args.blocks),
      );
    await bot().slack.waitFor(() => threadUpdates().includes('(ref '), 30_000, 'the failure in the thread');
    const shown = threadUpdates();
    const ref = /\(ref ([0-9a-f]{6})\)/.exec(shown)?.[1];
    expect(shown).toContain('failed on the Reporting Service');
    expect(ref).toBeDefined();
    expect(lines.find((l) => l.ref === ref)).toMatchObject({
      msg: 'resumed job failed',
      jobId: job?.id,
      err: { type: 'AsyncPivotFailedError', code: 'ASYNC_PIVOT_FAILED' },
    });
    // The stored error (what /pivot status shows) is the user text, without this one failure's ref.
    expect(bot().bot.store.jobs.get(job?.id as string)?.error?.message).toContain('failed on the Reporting Service');
  });
});

describe('a run that fails with an error that is not ours', () => {
  const bot = useBotHarness({ logger });

  it.each([
    { code: 'ENOENT', error: "ENOENT: no such file or directory, open '/srv/pivotbot/out/run-1/daily-kpi.csv'" },
    { code: '23505', error: 'duplicate key value violates unique constraint "runs_pkey"' },
  ])('records our code in /pivot history, never its own ($code) or its text', async ({ code, error }) => {
    const runs = bot().bot.store.runs;
    const finish = runs.finish.bind(runs);
    // The run's success cannot be written: the raw error is what the command's failure records.
    runs.finish = async (id, outcome) => {
      if (outcome.status !== 'succeeded') return finish(id, outcome);
      runs.finish = finish;
      throw Object.assign(new Error(error), { code });
    };
    try {
      const { hook } = await bot().command('run daily-kpi');
      expect(await bot().waitForHook(hook)).toContain('(ref ');
    } finally {
      runs.finish = finish;
    }
    const [failed] = runs.listByReport('daily-kpi', 1);
    expect(failed?.status).toBe('failed');
    expect(failed?.error).toEqual({ code: 'INTERNAL', message: INTERNAL_FAILURE_MESSAGE });

    const { hook } = await bot().command('history daily-kpi');
    const history = await bot().waitForHook(hook);
    expect(history).toContain(':x: failed (attempt 1): Something went wrong on pivotbot');
    expect(history).not.toContain(code);
    expect(history).not.toContain('/srv/pivotbot');
    // The log keeps what the record does not: the error's own class, code and text.
    expect(lines).toContainEqual(
      expect.objectContaining({
        msg: 'command failed unexpectedly',
        err: expect.objectContaining({ code, message: error }),
      }),
    );
  });
});
