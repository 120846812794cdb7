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
    ).toEqual({ source: 'mention', text: 'hey by source', userId: 'U1', channelId: 'C1', ts: '3.0', threadTs: '1.0' });
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
