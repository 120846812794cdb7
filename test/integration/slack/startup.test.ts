/**
 * Start-up against Slack: the bot token is checked once with auth.test, so a token Slack refuses
 * stops start-up with an actionable message, and Slack being down does not stop the bot.
 */
import { ConfigError } from '../../../src/core/index.js';
import { BotHarness } from '../../support/botHarness.js';
import { recordingLogger } from '../../support/storeTestKit.js';

describe('start-up against Slack', () => {
  const harness = new BotHarness();
  beforeAll(async () => {
    await harness.start();
    await harness.bot.stop();
  });
  afterAll(async () => {
    await harness.stop();
  });

  it('checks the token once and then authorizes events without calling auth.test again', async () => {
    const before = harness.slack.callsTo('auth.test').length;
    await harness.startBot();
    expect(harness.slack.callsTo('auth.test').length).toBe(before + 1);
    const { response, hook } = await harness.command('help');
    expect(response.status).toBe(200);
    await harness.waitForHook(hook);
    expect(harness.slack.callsTo('auth.test').length).toBe(before + 1);
    await harness.bot.stop();
  });

  it('stops with a message naming SLACK_BOT_TOKEN when Slack refuses the token, and frees the store', async () => {
    harness.slack.fail('auth.test', { error: 'invalid_auth' });
    const failed = harness.startBot().then(
      () => undefined,
      (error: unknown) => error,
    );
    const error = await failed;
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain('SLACK_BOT_TOKEN');
    expect((error as Error).message).toContain('invalid_auth');
    expect((error as Error).message).not.toContain('xoxb-test-token');
    // The failed start released the store's lock: the next start works.
    await harness.startBot();
    const { response } = await harness.command('help');
    expect(response.status).toBe(200);
    await harness.bot.stop();
  });

  it('starts anyway, with a warning, when Slack does not answer the check', async () => {
    harness.slack.fail('auth.test', { status: 503 });
    const recorded = recordingLogger();
    await harness.startBot(recorded.logger);
    expect(recorded.lines.some((l) => l.level === 40 && l.msg.includes('could not check the Slack token'))).toBe(true);
    const { response, hook } = await harness.command('help');
    expect(response.status).toBe(200);
    expect(await harness.waitForHook(hook)).toContain('/pivot list');
  });
});
