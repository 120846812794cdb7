import { ACTION_IDS } from '../../../src/render/index.js';
import { useBotHarness } from '../../support/botHarness.js';

const text = (value: unknown) => JSON.stringify(value);

describe('explanations in Slack, over signed HTTP with the sandbox and the Slack test server', () => {
  const bot = useBotHarness();
  const posts = () => bot().slack.callsTo('chat.postMessage');

  it('answers /pivot why with the ranking of what moved, in the channel, saying how many queries it used', async () => {
    const before = posts().length;
    await bot().command('why installs yesterday vs same day last week', { user: 'U_ASKER' });
    await bot().slack.waitFor(() => posts().length > before, 60_000, 'the explanation');
    const message = posts()[before];
    expect(message?.args.channel).toBe('C0GENERAL1');
    const blocks = text(message?.args.blocks);
    expect(blocks).toContain('Why it moved');
    expect(blocks).toMatch(/\d+ quer(y|ies)/);
    // Either named drivers with their shares, or the word diffuse: never an empty answer.
    expect(/of the change|Diffuse/.test(blocks)).toBe(true);
  });

  it('answers /pivot why for a metric that cannot be split into segments with the reason, privately', async () => {
    const before = posts().length;
    const { hook } = await bot().command('why uniqueClicks yesterday');
    const answer = await bot().waitForHook(hook, 60_000);
    expect(answer).toContain('ephemeral');
    expect(answer.toLowerCase()).toContain('unique');
    expect(posts().length).toBe(before);
  });

  it('puts an Explain button on an answer with a comparison, and the click explains it in the answer’s thread', async () => {
    const before = posts().length;
    await bot().command('spend installs installsCpi yesterday vs previous period');
    await bot().slack.waitFor(() => posts().length > before, 60_000, 'the answer');
    const answer = posts()[before];
    const actions = (
      (answer?.args.blocks ?? []) as Array<{ type: string; elements?: Array<{ action_id: string; value: string }> }>
    ).find((b) => b.type === 'actions');
    const explain = actions?.elements?.find((e) => e.action_id === ACTION_IDS.explain);
    expect(explain).toBeDefined();
    const stored = bot().slack.messages.filter(
      (m) => m.threadTs === undefined && text(m.blocks).includes(ACTION_IDS.explain),
    );
    const ts = String(stored.at(-1)?.ts);
    const count = posts().length;
    await bot().click(ACTION_IDS.explain, JSON.parse(explain?.value ?? '{}'), { messageTs: ts, channel: 'C0GENERAL1' });
    await bot().slack.waitFor(() => posts().length > count, 60_000, 'the explanation in the thread');
    const reply = posts()[count];
    expect(reply?.args.thread_ts).toBe(ts);
    expect(text(reply?.args.blocks)).toContain('Why it moved');
  });

  it('puts no Explain button on an answer without a comparison', async () => {
    const before = posts().length;
    await bot().command('spend by countryCode yesterday');
    await bot().slack.waitFor(() => posts().length > before, 60_000, 'the answer');
    expect(text(posts()[before]?.args.blocks)).not.toContain(ACTION_IDS.explain);
  });
});
