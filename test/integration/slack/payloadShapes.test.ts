import {
  appMention,
  blocksOnlyMessage,
  botMessage,
  channelMessage,
  directMessage,
  eventCallback,
  fileShare,
  hiddenThreadEdit,
  messageChanged,
  messageDeleted,
  otherAppMessage,
  slackConnectEnvelope,
  slackConnectMessage,
  slashCommandForm,
  threadBroadcast,
  threadReply,
} from '../../fixtures/slack-payloads.js';
import { SIGNING_SECRET, useBotHarness } from '../../support/botHarness.js';
import { postSigned } from '../../support/slackRequests.js';
import { BOT_DM, type StoredMessage } from '../../support/slackTestServer.js';
import { encodeAsSlack } from '../../support/slackWireFormat.js';

/** The test server's bot (its auth.test answer), in place of the fixtures' own ids. */
const BOT = 'U_BOT';

/**
 * Every payload shape of test/fixtures/slack-payloads.ts through the real receiver over signed
 * HTTP, each answered once or ignored as docs/slack.md says ("Which messages are read"), none
 * crashing the bot.
 */
describe('each Slack payload shape, answered once or ignored as documented', () => {
  const bot = useBotHarness();
  const slack = () => bot().slack;
  let counter = 0;
  /** A fresh message ts, later than anything the test server posted so far. */
  const freshTs = () => `${Math.floor(Date.now() / 1000) + 1}.${String(++counter).padStart(6, '0')}`;
  const botMessages = (where: (m: StoredMessage) => boolean) =>
    slack().messages.filter((m) => m.user === undefined && where(m));
  const send = async (event: { type: string; channel?: string; event_ts?: string }) =>
    expect((await bot().envelope(eventCallback(event))).status).toBe(200);

  /** An answer of the bot's in the channel: the parent of a thread it reads. */
  async function parentAnswer(query: string): Promise<string> {
    const before = slack().messages.length;
    await bot().command(query);
    await slack().waitFor(
      () =>
        botMessages((m) => m.metadata?.event_type === 'pivotbot_answer').some(
          (m) => slack().messages.indexOf(m) >= before,
        ),
      30_000,
      `the answer to ${query}`,
    );
    return (
      slack()
        .messages.slice(before)
        .find((m) => m.metadata?.event_type === 'pivotbot_answer') as StoredMessage
    ).ts;
  }

  /** Waits for the bot's `n`-th message in a thread (the proof that everything sent before it was handled). */
  async function repliesIn(threadTs: string, n: number): Promise<StoredMessage[]> {
    await slack().waitFor(() => botMessages((m) => m.threadTs === threadTs).length >= n, 30_000, `${n} replies`);
    return botMessages((m) => m.threadTs === threadTs);
  }

  it('the slash command body: answered', async () => {
    const hook = 'shape-slash';
    const body = slashCommandForm({
      text: encodeAsSlack('help', { surface: 'slash' }),
      response_url: slack().responseUrl(hook),
    });
    expect((await postSigned(bot().eventsUrl, body, { signingSecret: SIGNING_SECRET })).status).toBe(200);
    expect(await bot().waitForHook(`/hooks/${hook}`)).toContain('/pivot');
  });

  it('a reply in the thread of an answer, a broadcast reply, a Slack Connect reply, a file shared with words: each answered once in the thread', async () => {
    const parent = await parentAnswer('installs by country yesterday');
    await send(threadReply({ thread_ts: parent, ts: freshTs(), parent_user_id: BOT, text: encodeAsSlack('only iOS') }));
    const [first] = await repliesIn(parent, 1);
    expect(JSON.stringify(first?.blocks)).toContain('appPlatform = IOS');
    // "Also send to the channel": still a reply, answered in the thread (not broadcast again).
    await send(threadBroadcast({ thread_ts: parent, ts: freshTs(), root_user: BOT, text: encodeAsSlack('by source') }));
    const [, broadcast] = await repliesIn(parent, 2);
    expect(JSON.stringify(broadcast?.blocks)).toContain('by source');
    expect(broadcast?.broadcast).toBeUndefined();
    // Someone of another organisation in a shared channel: answered like anyone.
    const partner = {
      ...slackConnectMessage({ ts: freshTs(), text: encodeAsSlack('top 3') }),
      thread_ts: parent,
      parent_user_id: BOT,
    };
    expect((await bot().envelope(slackConnectEnvelope(partner))).status).toBe(200);
    const [, , connect] = await repliesIn(parent, 3);
    expect(JSON.stringify(connect?.blocks)).toContain('top 3');
    // A file shared with words: the words are read, the file left alone.
    const share = {
      ...fileShare({ thread_ts: parent, ts: freshTs(), text: encodeAsSlack('last 7 days') }),
      parent_user_id: BOT,
    };
    await send(share);
    const [, , , withFile] = await repliesIn(parent, 4);
    expect(JSON.stringify(withFile?.blocks)).toMatch(/last 7 days/i);
  });

  it('edits, deletions, hidden events, other apps, bot messages, files without words and channel talk: ignored, nothing read', async () => {
    const parent = await parentAnswer('clicks by country yesterday');
    const repliesRead = slack().callsTo('conversations.replies').length;
    const ignored = [
      channelMessage({ ts: freshTs(), text: encodeAsSlack('spend by country yesterday') }),
      messageChanged({ thread_ts: parent, text: encodeAsSlack('only iOS'), edit_ts: freshTs() }),
      hiddenThreadEdit({ thread_ts: parent, text: encodeAsSlack('by source') }),
      messageDeleted({ thread_ts: parent, delete_ts: freshTs() }),
      otherAppMessage({ thread_ts: parent, ts: freshTs(), text: encodeAsSlack('only iOS') }),
      botMessage({ thread_ts: parent, ts: freshTs(), text: encodeAsSlack('only iOS') }),
      botMessage({ thread_ts: parent, ts: freshTs(), withBotProfile: true }),
      { ...fileShare({ thread_ts: parent, ts: freshTs() }), parent_user_id: BOT },
      // A reply in a thread someone else started.
      threadReply({ thread_ts: '1700000000.000001', ts: freshTs(), parent_user_id: 'U0ALICE001', text: 'only iOS' }),
    ];
    for (const event of ignored) await send(event);
    // One reply that is answered, sent last: once it is in, the ignored ones had their turn.
    await send(threadReply({ thread_ts: parent, ts: freshTs(), parent_user_id: BOT, text: encodeAsSlack('top 2') }));
    const replies = await repliesIn(parent, 1);
    expect(replies).toHaveLength(1);
    expect(slack().callsTo('conversations.replies').length).toBe(repliesRead + 1);
    for (const event of ignored) {
      const ts = 'ts' in event ? String(event.ts) : '';
      expect(bot().bot.store.runs.findByIdempotencyKey(`slack:msg:${event.channel}:${ts}`)).toBeUndefined();
    }
  });

  it('a DM, a mention, and a DM whose words are only in rich_text blocks: each answered once', async () => {
    const before = slack().messages.length;
    const dm = directMessage({ channel: BOT_DM, ts: freshTs(), text: encodeAsSlack('installs by country yesterday') });
    await send(dm);
    await slack().waitFor(
      () => botMessages((m) => m.channel === BOT_DM && slack().messages.indexOf(m) >= before).length > 0,
      30_000,
      'the DM answer',
    );

    const mention = appMention({ ts: freshTs(), text: `<@${BOT}> ${encodeAsSlack('spend by country yesterday')}` });
    await send(mention);
    const [answer] = await repliesIn(mention.ts, 1);
    expect(JSON.stringify(answer?.blocks)).toContain('spend by countryCode');

    // Text '' and the words only in blocks: "@here <@bot> spend by country yesterday for #channel …".
    const blocks = {
      ...blocksOnlyMessage({ ts: freshTs(), channel: BOT_DM, query: 'spend by country yesterday' }),
      channel_type: 'im',
    };
    const dmAnswers = () => botMessages((m) => m.channel === BOT_DM).length;
    const answered = dmAnswers();
    await send(blocks);
    await slack().waitFor(() => dmAnswers() > answered, 30_000, 'the answer to the blocks-only DM');
    expect(botMessages((m) => m.channel === BOT_DM).length).toBe(answered + 1);
  });
});
