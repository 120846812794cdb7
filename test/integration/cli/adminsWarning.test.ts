/**
 * An empty PIVOTBOT_ADMINS leaves nobody able to subscribe channels or manage alert rules: the
 * bot starts all the same, and says so at start-up (issue 35, item 5).
 */
import { BotHarness } from '../../support/botHarness.js';
import { recordingLogger } from '../../support/storeTestKit.js';

describe('start-up with PIVOTBOT_ADMINS empty', () => {
  const harness = new BotHarness();
  const recorded = recordingLogger();
  beforeAll(async () => {
    await harness.start({ env: { PIVOTBOT_ADMINS: '' }, logger: recorded.logger });
  });
  afterAll(async () => {
    await harness.stop();
  });

  it('warns, naming the variable and how to fill it, and starts', async () => {
    const warning = recorded.lines.find((l) => l.level === 40 && l.msg.includes('PIVOTBOT_ADMINS'));
    expect(warning?.msg).toContain('Slack user ids');
    const { response } = await harness.command('help');
    expect(response.status).toBe(200);
  });
});
