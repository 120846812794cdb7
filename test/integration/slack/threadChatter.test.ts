import { useBotHarness } from '../../support/botHarness.js';
import type { StoredMessage } from '../../support/slackTestServer.js';

const CHANNEL = 'C0GENERAL1';
const ANA = 'U_ANA';
const BEN = 'U_BEN';

/**
 * People talking to each other under a digest and an alert, over signed HTTP: nothing public
 * answers them; an unreadable reply gets one private hint per person and thread; a follow-up and a
 * mention are answered.
 */
describe('chatter in digest and alert threads', () => {
  const bot = useBotHarness();
  const slack = () => bot().slack;
  const publicIn = (threadTs: string) =>
    slack().messages.filter((m) => m.user === undefined && m.threadTs === threadTs);
  const hintsIn = (threadTs: string) =>
    slack()
      .callsTo('chat.postEphemeral')
      .filter((c) => c.args.thread_ts === threadTs);

  /** A digest or alert parent as the bot left it in the channel. */
  function botPost(metadata: { event_type: string; event_payload: Record<string, unknown> }): string {
    const ts = `${Math.floor(Date.now() / 1000) - 3600}.${String(slack().messages.length).padStart(6, '0')}`;
    slack().messages.push({ channel: CHANNEL, ts, text: 'an earlier post', blocks: [], metadata });
    return ts;
  }

  async function chatter(threadTs: string, lines: Array<[string, string]>) {
    for (const [user, words] of lines) {
      expect((await bot().event(slack().say(CHANNEL, user, words, { threadTs }))).status).toBe(200);
    }
  }

  /** A follow-up sent last, and its answer: once it is in, everything before it had its turn. */
  async function followUp(threadTs: string, words: string): Promise<StoredMessage> {
    const before = publicIn(threadTs).length;
    await bot().event(slack().say(CHANNEL, ANA, words, { threadTs }));
    await slack().waitFor(() => publicIn(threadTs).length > before, 30_000, `the answer to ${words}`);
    return publicIn(threadTs)[before] as StoredMessage;
  }

  it.each([
    ['a digest', { event_type: 'pivotbot_digest', event_payload: { report: 'daily-kpi', channel: CHANNEL } }],
    [
      'an alert',
      {
        event_type: 'pivotbot_alert',
        event_payload: { report: 'daily-kpi', rule: 'cpi-too-high', entity: 'appPlatform=IOS', state: 'open' },
      },
    ],
  ])(
    'under %s: no public answer to chatter, one private hint per person, follow-ups answered',
    async (_kind, metadata) => {
      const parent = botPost(metadata);
      await chatter(parent, [
        [ANA, 'on it'],
        [BEN, ':+1:'],
        [BEN, 'thanks! 🙏'],
        [ANA, 'looking into the BR drop'],
        [ANA, 'the BR drop looks like a tracking issue'],
        [BEN, 'looking into the BR drop too'],
      ]);
      const answer = await followUp(parent, 'by source instead');
      expect(JSON.stringify(answer.blocks)).toContain('by source');
      // The follow-up is the only public answer.
      expect(publicIn(parent)).toHaveLength(1);
      // "on it", ":+1:", "thanks!" get nothing; each person's first unreadable reply gets one hint, privately.
      const hints = hintsIn(parent);
      expect(hints.map((h) => h.args.user).sort()).toEqual([ANA, BEN]);
      for (const hint of hints) expect(JSON.stringify(hint.args.blocks)).toContain('Only you see this');
    },
  );

  it('a mention in the thread is answered in public, whatever it says', async () => {
    const parent = botPost({ event_type: 'pivotbot_digest', event_payload: { report: 'daily-kpi', channel: CHANNEL } });
    await bot().event(slack().say(CHANNEL, BEN, 'what happened to BR?', { threadTs: parent, mention: true }));
    await slack().waitFor(() => publicIn(parent).length > 0, 30_000, 'the answer to the mention');
    expect(JSON.stringify(publicIn(parent)[0]?.blocks)).toContain('Try:');
    expect(hintsIn(parent)).toHaveLength(0);
  });
});
