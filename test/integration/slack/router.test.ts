import { Writable } from 'node:stream';
import { createLogger } from '../../../src/core/index.js';
import { SIGNING_SECRET, useBotHarness } from '../../support/botHarness.js';
import { blockActionBody, postSigned } from '../../support/slackRequests.js';

/** The bot's log lines, parsed. */
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

describe('the router: every Slack input to its handler, once', () => {
  const recorded = capturingLogger();
  const bot = useBotHarness({ logger: recorded.logger });
  const posts = () => bot().slack.calls.filter((c) => c.method === 'chat.postMessage');

  it('acknowledges a button it has no handler for, and runs nothing', async () => {
    const calls = bot().slack.calls.length;
    const { response, hook } = await bot().click('some_other_app_button', { reportId: 'daily-kpi' });
    expect(response.status).toBe(200);
    // A command sent after it is answered: had the click run anything, it would have started first.
    const after = await bot().command('help');
    await bot().waitForHook(after.hook);
    expect(bot().hookBodies(hook)).toEqual([]);
    expect(bot().slack.calls.length).toBe(calls);
  });

  it('runs a result button once when Slack delivers the same click twice', async () => {
    const before = posts().length;
    const body = blockActionBody({
      actionId: 'pivot_rerun',
      value: JSON.stringify({ reportId: 'daily-kpi' }),
      responseUrl: bot().slack.responseUrl('twice'),
    });
    const first = await postSigned(bot().eventsUrl, body, { signingSecret: SIGNING_SECRET });
    const again = await postSigned(bot().eventsUrl, body, { signingSecret: SIGNING_SECRET });
    expect([first.status, again.status]).toEqual([200, 200]);
    await bot().slack.waitFor(() => posts().length > before, 60_000, 'the result');
    await bot().slack.waitFor(
      () => recorded.lines.some((l) => l.msg === 'repeated Slack request ignored' && l.type === 'action'),
      10_000,
      'the repeat dropped by the router',
    );
    // A later command's result is out after the click's: a second run of the click would be too.
    const later = posts().length;
    await bot().command('clicks by countryCode yesterday');
    await bot().slack.waitFor(() => posts().length > later, 60_000, 'the later result');
    expect(posts().length).toBe(before + 2);
  });
});
