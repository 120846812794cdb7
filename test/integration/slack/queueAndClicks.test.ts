import { Writable } from 'node:stream';
import { createLogger } from '../../../src/core/index.js';
import { SIGNING_SECRET, useBotHarness } from '../../support/botHarness.js';
import { blockActionPayload, postSigned } from '../../support/slackRequests.js';

function capturingLogger() {
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
  return { lines, logger };
}

describe('a full queue and a long wait are said to the user', () => {
  // One run at a time, one may wait; each Reporting Service answer takes 3.5 s.
  const bot = useBotHarness({ concurrency: 1, env: { PIVOTBOT_MAX_QUEUED: '1' }, faults: { latencyMs: 3_500 } });

  it('tells the waiting run it is queued behind one, and the run that finds the queue full that pivotbot is busy', async () => {
    const first = await bot().command('spend by countryCode yesterday');
    const second = await bot().command('installs by countryCode yesterday');
    const third = await bot().command('clicks by countryCode yesterday');
    for (const c of [first, second, third]) expect(c.response.status).toBe(200);

    const busy = await bot().waitForHook(third.hook, 5_000);
    expect(busy).toContain('busy with 2 runs right now');
    expect(busy).toContain('try again in a minute');

    const queued = await bot().waitForHook(second.hook, 10_000);
    expect(queued).toContain('Queued behind 1 run');
    // The first started at once: it hears nothing privately, its result goes to the channel.
    expect(bot().hookBodies(first.hook)).toEqual([]);
    await bot().slack.waitFor(() => bot().slack.messages.length >= 2, 30_000, 'both results');
  }, 60_000);
});

describe('a run waiting in the queue when the bot stops', () => {
  // Every Reporting Service answer takes 15 s: the first run is still running when the bot stops.
  const bot = useBotHarness({ concurrency: 1, faults: { latencyMs: 15_000 } });

  it('does not start, stays recorded, and its asker is told once, by the next start', async () => {
    const first = await bot().command('spend by countryCode yesterday', { user: 'U0FIRST' });
    const second = await bot().command('installs by countryCode yesterday', { user: 'U0SECOND' });
    await bot().slack.waitFor(() => bot().bot.store.runs.listUnfinished().length === 2, 10_000, 'both runs recorded');
    await bot().bot.stop();
    expect(
      bot()
        .bot.store.runs.listUnfinished()
        .map((r) => r.requester)
        .sort(),
    ).toEqual(['U0FIRST', 'U0SECOND']);
    // Nothing was said at shutdown: the next start answers both, once each.
    expect(bot().hookBodies(second.hook)).toEqual([]);
    expect(bot().hookBodies(first.hook)).toEqual([]);
    await bot().startBot();
    await bot().slack.waitFor(() => bot().slack.callsTo('chat.postEphemeral').length >= 2, 20_000, 'both askers told');
    const told = bot()
      .slack.callsTo('chat.postEphemeral')
      .map((c) => c.args.user)
      .sort();
    expect(told).toEqual(['U0FIRST', 'U0SECOND']);
    expect(JSON.stringify(bot().slack.callsTo('chat.postEphemeral'))).toContain('installs by countryCode yesterday');
    expect(bot().bot.store.runs.listUnfinished()).toEqual([]);
  }, 60_000);
});

describe('a button click Slack sends without a response URL', () => {
  const log = capturingLogger();
  const bot = useBotHarness({ logger: log.logger });

  it('is logged and the clicker is told in the channel, privately, that nothing ran', async () => {
    const payload = blockActionPayload({
      actionId: 'pivot_rerun',
      value: JSON.stringify({ reportId: 'daily-kpi' }),
      responseUrl: 'unused',
      userId: 'U0CLICKER',
    });
    delete payload.response_url;
    const before = bot().slack.callsTo('chat.postMessage').length;
    const response = await postSigned(
      bot().eventsUrl,
      new URLSearchParams({ payload: JSON.stringify(payload) }).toString(),
      { signingSecret: SIGNING_SECRET },
    );
    expect(response.status).toBe(200);
    await bot().slack.waitFor(
      () => bot().slack.callsTo('chat.postEphemeral').length > 0,
      10_000,
      'the private note in the channel',
    );
    const note = bot().slack.callsTo('chat.postEphemeral')[0]?.args;
    expect(note).toMatchObject({ channel: 'C0GENERAL1', user: 'U0CLICKER' });
    expect(JSON.stringify(note)).toContain('nothing ran');
    expect(log.lines.find((l) => l.msg === 'button click without a channel or response URL: not run')).toMatchObject({
      level: 40,
      userId: 'U0CLICKER',
      actionId: 'pivot_rerun',
    });
    // Nothing was run for it.
    expect(bot().slack.callsTo('chat.postMessage').length).toBe(before);
  });
});
