import { decodeEntities } from '../../../src/slack/receiver/index.js';
import { useBotHarness } from '../../support/botHarness.js';
import { BOT_DM, type StoredMessage } from '../../support/slackTestServer.js';

const CHANNEL = 'C0GENERAL1';
const ASKER = 'U_ASKER';
/** The answer's first line as Slack shows it (the bot escapes `>` in what it writes, as it must). */
const firstLine = (m: StoredMessage | undefined) =>
  decodeEntities(
    String((m?.blocks as Array<{ text?: { text?: string } }> | undefined)?.[0]?.text?.text ?? '').split('\n')[0] ?? '',
  );

/**
 * What people type, sent as Slack sends it (`encodeAsSlack` in the harness): `>` as `&gt;`, the
 * publisher bundle as a link, quotes curled by the keyboard, an emoji. Each is answered with the
 * query the person meant, which the answer's first line spells out.
 */
const FILTERS = 'where siteBundle = "com.pub0.app" having installs > 100';
const UNDERSTOOD = 'where siteBundle = com.pub0.app, having installs > 100';

describe("typed text in Slack's wire format, over signed HTTP", () => {
  const bot = useBotHarness();
  const slack = () => bot().slack;
  const answers = (from: number, where: (m: StoredMessage) => boolean) =>
    slack()
      .messages.slice(from)
      .filter((m) => m.user === undefined && m.metadata?.event_type === 'pivotbot_answer' && where(m));

  async function answerTo(from: number, where: (m: StoredMessage) => boolean, what: string): Promise<StoredMessage> {
    await slack().waitFor(() => answers(from, where).length > 0, 30_000, what);
    return answers(from, where)[0] as StoredMessage;
  }

  it('a /pivot query with &gt;, a bundle link, smart quotes and an emoji', async () => {
    const before = slack().messages.length;
    const typed = `spend installs by country yesterday ${FILTERS} 🙏`;
    const { body } = await bot().command(typed, { user: ASKER, smartQuotes: true });
    // What went over the wire is Slack's, not what was typed.
    const sent = new URLSearchParams(body).get('text') ?? '';
    expect(sent).toContain('&gt; 100');
    expect(sent).toContain('“<http://com.pub0.app|com.pub0.app>”');
    const answer = await answerTo(before, (m) => m.channel === CHANNEL, 'the answer');
    expect(firstLine(answer)).toBe(`\`spend, installs by countryCode, yesterday (UTC), ${UNDERSTOOD}\``);
  });

  it('a follow-up in the thread of an answer', async () => {
    const before = slack().messages.length;
    await bot().command('spend by country yesterday', { user: ASKER });
    const parent = await answerTo(before, (m) => m.threadTs === undefined, 'the parent answer');
    const event = slack().say(CHANNEL, ASKER, `${FILTERS} :pray:`, { threadTs: parent.ts, smartQuotes: true });
    expect(String(event.text)).toContain('&gt; 100');
    await bot().event(event);
    const refined = await answerTo(before, (m) => m.threadTs === parent.ts, 'the follow-up answer');
    expect(firstLine(refined)).toBe(`\`spend by countryCode, yesterday (UTC), ${UNDERSTOOD}\``);
  });

  it('a question in a DM', async () => {
    const before = slack().messages.length;
    const event = slack().say(BOT_DM, ASKER, `installs by country yesterday ${FILTERS} 👍🏽`, { smartQuotes: true });
    expect(String(event.text)).toContain('<http://com.pub0.app|com.pub0.app>');
    await bot().event(event);
    const answer = await answerTo(before, (m) => m.channel === BOT_DM, 'the answer in the DM');
    expect(firstLine(answer)).toBe(`\`installs by countryCode, yesterday (UTC), ${UNDERSTOOD}\``);
  });

  it('a mention in a channel', async () => {
    const before = slack().messages.length;
    const event = slack().say(CHANNEL, ASKER, `clicks installs by country yesterday ${FILTERS} :+1::skin-tone-2:`, {
      mention: true,
      smartQuotes: true,
    });
    expect(String(event.text)).toMatch(/^<@U_BOT> /);
    await bot().event(event);
    const answer = await answerTo(before, (m) => m.threadTs === event.ts, 'the answer under the mention');
    expect(firstLine(answer)).toBe(`\`clicks, installs by countryCode, yesterday (UTC), ${UNDERSTOOD}\``);
  });
});
