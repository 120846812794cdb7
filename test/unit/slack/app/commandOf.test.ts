import { commandOf } from '../../../../src/slack/app/commandOf.js';
import { typedTextOf } from '../../../../src/slack/receiver/typedText.js';
import { channelMention, encodeAsSlack, specialMention } from '../../../support/slackWireFormat.js';

describe('commandOf: the command grammar reads references, a query does not', () => {
  it('keeps the channel of subscribe', () => {
    const typed = typedTextOf(`${encodeAsSlack('subscribe daily-kpi ')}${channelMention('C0GROWTH1', 'growth')}`);
    expect(commandOf(typed)).toEqual({
      kind: 'subscribe',
      report: 'daily-kpi',
      channel: { id: 'C0GROWTH1', name: 'growth' },
    });
  });

  it('drops a reference from a query and from why', () => {
    expect(commandOf(typedTextOf(`${specialMention('here')} spend by country yesterday`))).toEqual({
      kind: 'query',
      text: 'spend by country yesterday',
    });
    const why = commandOf(typedTextOf(`why installs yesterday ${specialMention('channel')}`));
    expect(why.kind).toBe('why');
  });
});
