import { compareTs, suggestionMessage } from '../../../../src/slack/app/Conversation.js';
import { conversationMessageOf, withoutMention } from '../../../../src/slack/receiver/conversationEvents.js';

const bot = { botUserId: 'UBOT', botId: 'BBOT' };
const reply = { type: 'message', channel_type: 'channel', channel: 'C1', user: 'U1', ts: '2.000002' };

describe('conversationMessageOf: what the bot may read', () => {
  it.each([
    [
      'a reply in a thread the bot started',
      { ...reply, text: 'only iOS', thread_ts: '1.0', parent_user_id: 'UBOT' },
      'thread',
    ],
    ['a DM', { type: 'message', channel_type: 'im', channel: 'D1', user: 'U1', ts: '2.0', text: 'cpi' }, 'dm'],
    [
      'a reply in a DM thread',
      { type: 'message', channel_type: 'im', channel: 'D1', user: 'U1', ts: '2.0', thread_ts: '1.0', text: 'top 5' },
      'dm',
    ],
    [
      'a reply also sent to the channel',
      { ...reply, text: 'x', thread_ts: '1.0', parent_user_id: 'UBOT', subtype: 'thread_broadcast' },
      'thread',
    ],
    ['a mention', { type: 'app_mention', channel: 'C1', user: 'U1', ts: '2.0', text: '<@UBOT> cpi' }, 'mention'],
  ])('reads %s', (_name, event, source) => {
    expect(conversationMessageOf(event, bot)?.source).toBe(source);
  });

  it.each([
    ['a channel message that is no reply', { ...reply, text: 'lunch?' }],
    ['a reply in a thread someone else started', { ...reply, text: 'x', thread_ts: '1.0', parent_user_id: 'U2' }],
    ['a reply whose parent is unknown', { ...reply, text: 'x', thread_ts: '1.0' }],
    ["another bot's message", { ...reply, text: 'x', thread_ts: '1.0', parent_user_id: 'UBOT', bot_id: 'B2' }],
    ['a bot_message', { ...reply, text: 'x', thread_ts: '1.0', parent_user_id: 'UBOT', subtype: 'bot_message' }],
    ['an edit', { ...reply, text: 'x', thread_ts: '1.0', parent_user_id: 'UBOT', subtype: 'message_changed' }],
    ["the bot's own message", { ...reply, user: 'UBOT', text: 'x', thread_ts: '1.0', parent_user_id: 'UBOT' }],
    [
      'a channel message mentioning the bot (its app_mention is answered)',
      { ...reply, text: '<@UBOT> x', thread_ts: '1.0', parent_user_id: 'UBOT' },
    ],
    ['an event that is no message', { type: 'reaction_added', user: 'U1' }],
    ['nothing', undefined],
  ])('drops %s', (_name, event) => {
    expect(conversationMessageOf(event, bot)).toBeUndefined();
  });

  it('keeps the thread of a mention posted in a thread, and takes the mention out of the text', () => {
    expect(
      conversationMessageOf(
        {
          type: 'app_mention',
          channel: 'C1',
          user: 'U1',
          ts: '3.0',
          thread_ts: '1.0',
          text: 'hey <@UBOT|pivotbot>  by source',
        },
        bot,
      ),
    ).toEqual({
      source: 'mention',
      text: 'hey by source',
      commandText: 'hey by source',
      userId: 'U1',
      channelId: 'C1',
      ts: '3.0',
      threadTs: '1.0',
    });
  });

  it('treats a message whose thread_ts is its own ts as top-level (a parent with replies)', () => {
    const dm = {
      type: 'message',
      channel_type: 'im',
      channel: 'D1',
      user: 'U1',
      ts: '1.0',
      thread_ts: '1.0',
      text: 'cpi',
    };
    expect(conversationMessageOf(dm, bot)?.threadTs).toBeUndefined();
  });

  it('without the bot identity, leaves replies to be checked when the thread is read', () => {
    expect(conversationMessageOf({ ...reply, text: 'x', thread_ts: '1.0' }, {})?.source).toBe('thread');
    expect(withoutMention('<@U9> cpi by country', {})).toBe('cpi by country');
  });
});

describe('conversationMessageOf: what was typed, decoded at the door', () => {
  it('decodes entities, links, emoji and smart quotes of a reply', () => {
    const event = {
      ...reply,
      thread_ts: '1.0',
      parent_user_id: 'UBOT',
      text: '“only” installs &gt; 100 for <http://com.pub0.app|com.pub0.app> :pray:',
    };
    expect(conversationMessageOf(event, bot)).toMatchObject({
      text: '"only" installs > 100 for com.pub0.app',
      commandText: '"only" installs > 100 for com.pub0.app',
    });
  });

  it('drops references from the query text and keeps them for the command grammar', () => {
    const dm = { type: 'message', channel_type: 'im', channel: 'D1', user: 'U1', ts: '2.0' };
    expect(conversationMessageOf({ ...dm, text: 'subscribe daily-kpi <#C1|growth> <!here>' }, bot)).toMatchObject({
      text: 'subscribe daily-kpi',
      commandText: 'subscribe daily-kpi <#C1|growth> <!here>',
    });
  });

  it("takes the bot's mention out of both", () => {
    const mention = { type: 'app_mention', channel: 'C1', user: 'U1', ts: '2.0', text: '<@UBOT> cpi by <@U2>' };
    expect(conversationMessageOf(mention, bot)).toMatchObject({ text: 'cpi by', commandText: 'cpi by <@U2>' });
  });

  it('reads the rich_text blocks of a message whose text is empty', () => {
    const blocks = [
      {
        type: 'rich_text',
        elements: [
          {
            type: 'rich_text_section',
            elements: [
              { type: 'text', text: 'installs > 100 ' },
              { type: 'link', url: 'http://com.pub0.app', text: 'com.pub0.app' },
              { type: 'emoji', name: 'pray' },
            ],
          },
        ],
      },
    ];
    const dm = { type: 'message', channel_type: 'im', channel: 'D1', user: 'U1', ts: '2.0', text: '', blocks };
    expect(conversationMessageOf(dm, bot)?.text).toBe('installs > 100 com.pub0.app');
  });

  it('reads a file share for its text, and drops one without a word', () => {
    const share = { ...reply, thread_ts: '1.0', parent_user_id: 'UBOT', subtype: 'file_share', files: [{ id: 'F1' }] };
    expect(conversationMessageOf({ ...share, text: 'by source' }, bot)?.text).toBe('by source');
    expect(conversationMessageOf({ ...share, text: '' }, bot)).toBeUndefined();
    expect(conversationMessageOf({ ...share, text: ':+1:' }, bot)).toBeUndefined();
  });

  it("takes a broadcast reply's parent author from its root when parent_user_id is missing", () => {
    const broadcast = { ...reply, text: 'by source', thread_ts: '1.0', subtype: 'thread_broadcast' };
    expect(conversationMessageOf({ ...broadcast, root: { user: 'UBOT' } }, bot)?.source).toBe('thread');
    expect(conversationMessageOf({ ...broadcast, root: { user: 'U2' } }, bot)).toBeUndefined();
  });

  it('drops hidden events whatever their subtype', () => {
    const hidden = { ...reply, text: 'x', thread_ts: '1.0', parent_user_id: 'UBOT', hidden: true };
    expect(conversationMessageOf(hidden, bot)).toBeUndefined();
  });
});

describe('compareTs', () => {
  it.each([
    ['1700000000.000100', '1700000000.000099', 1],
    ['1700000000.000100', '1700000000.000100', 0],
    ['999999999.999999', '1700000000.000001', -1],
    ['1700000000.1', '1700000000.000002', 1],
  ])('%s vs %s', (a, b, sign) => {
    expect(Math.sign(compareTs(a, b))).toBe(sign);
  });
});

describe('suggestionMessage', () => {
  it('says why and offers the replies that work, as code', () => {
    const message = suggestionMessage('I can\'t read "make it blue" as a follow-up.', ['by country', 'only iOS']);
    expect(JSON.stringify(message.blocks)).toContain('Try: `by country` · `only iOS`');
  });
});
