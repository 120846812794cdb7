import { useBotHarness } from '../../support/botHarness.js';

const text = (value: unknown) => JSON.stringify(value);

// The trade's words end to end: a signed /pivot request, the sandbox, and the Slack test server.
describe('/pivot in the users words, over signed HTTP', () => {
  const bot = useBotHarness();
  const posts = () => bot().slack.callsTo('chat.postMessage');

  it('answers "top 3 countries by cpi last week" saying first how it understood it', async () => {
    const before = posts().length;
    await bot().command('top 3 countries by cpi last week', { user: 'U_ASKER' });
    await bot().slack.waitFor(() => posts().length > before, 20_000, 'the result message');
    const blocks = posts()[before]?.args.blocks as Array<{ text?: { text?: string } }>;
    expect(blocks[0]?.text?.text?.split('\n')).toEqual([
      '`installsCpi by countryCode, last week (UTC), top 3 by installsCpi`',
      '<@U_ASKER> asked `top 3 countries by cpi last week`',
    ]);
  });

  it('asks which one for a word that means two things, privately', async () => {
    const before = posts().length;
    const { hook } = await bot().command('spend by bundle yesterday');
    const answer = await bot().waitForHook(hook);
    expect(answer).toContain('can mean appBundle');
    expect(answer).toContain('siteBundle');
    expect(posts().length).toBe(before);
  });

  it('lists the metrics with their words on /pivot help metrics, privately', async () => {
    const { hook } = await bot().command('help metrics');
    const answer = await bot().waitForHook(hook);
    expect(answer).toContain('installsCpi');
    expect(answer).toContain('cost per install');
    expect(text(answer)).toContain('ephemeral');
  });
});
