import { typedTextOf } from '../../../../src/slack/receiver/typedText.js';
import { EMOJI_SAMPLES, encodeAsSlack } from '../../../support/slackWireFormat.js';

describe('typedTextOf: Slack wire text decoded both ways at the door', () => {
  it.each([
    [
      'spend installs by country yesterday having installs > 100',
      'spend installs by country yesterday having installs > 100',
    ],
    ['installs by publisher where siteBundle = com.pub0.app', 'installs by publisher where siteBundle = com.pub0.app'],
    [`"top 5" by 'country' ${EMOJI_SAMPLES.unicode.pray}`, `"top 5" by 'country'`],
    [`last 7 days ${EMOJI_SAMPLES.shortcodes.thumbsUpSkinTone2}`, 'last 7 days'],
  ])('gives back what was typed: %s', (typed, expected) => {
    const wire = encodeAsSlack(typed, { surface: 'slash', smartQuotes: true });
    expect(typedTextOf(wire)).toEqual({ text: expected, commandText: expected });
  });
});
