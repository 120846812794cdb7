import fc from 'fast-check';
import { parseSlashCommand } from '../../../../src/slack/app/parseSlashCommand.js';
import {
  decodeEntities,
  decodeSlackMessage,
  decodeSlackText,
  wireTextOfBlocks,
} from '../../../../src/slack/receiver/decodeSlackText.js';
import { ALL_EMOJI_SAMPLES, encodeAsSlack, wireSamples } from '../../../support/slackWireFormat.js';

// Wire texts as Slack's formatting reference describes them ("Escaping", "Links in retrieved
// messages", "Mentioning users/groups", "Date formatting") and docs/slack.md sums up.
describe('decodeSlackText: what the person typed', () => {
  it.each([
    ['entities', 'spend having installs &gt; 100 &amp; cpi &lt; 2', 'spend having installs > 100 & cpi < 2'],
    ['a typed entity stays one (&amp; is decoded last)', 'a &amp;gt; b', 'a &gt; b'],
    ['a typed &amp;amp;', '&amp;amp;', '&amp;'],
    ['an entity Slack does not use', 'a &quot;b&quot; &#39;c', 'a &quot;b&quot; &#39;c'],
    [
      'a bundle Slack took for a domain',
      'installs by publisher <http://com.pub0.app|com.pub0.app>',
      'installs by publisher com.pub0.app',
    ],
    ['a domain', 'cpi for <http://example.com|example.com>', 'cpi for example.com'],
    ['a URL pasted whole', 'see <https://example.com/a?b=1&amp;c=2>', 'see https://example.com/a?b=1&c=2'],
    ['a link with its own label', 'see <https://example.com/x|the report>', 'see the report'],
    ['a label with escapes', '<http://a.io/?x=1&amp;y=2|a.io/?x=1&amp;y=2>', 'a.io/?x=1&y=2'],
    ['an e-mail', 'owner <mailto:a@b.co|a@b.co>', 'owner a@b.co'],
    ['an e-mail without a label', 'owner <mailto:a@b.co>', 'owner a@b.co'],
    ['a date keeps its fallback', 'since <!date^1392734382^{date_short}|Feb 18, 2014>', 'since Feb 18, 2014'],
    ['an unknown special is nothing typed', 'cpi <!foo> by country', 'cpi by country'],
    ['a shortcode', 'last 7 days :pray:', 'last 7 days'],
    ['a shortcode with a skin tone', ':+1::skin-tone-2: cpi by os', 'cpi by os'],
    ['shortcodes with digits, dashes, plus', ':100: top 5 :flag-us: :-1:', 'top 5'],
    ['a time is no shortcode', 'at 10:30:45', 'at 10:30:45'],
    ['a word before a colon is no shortcode', 'date:day:x', 'date:day:x'],
    ['a Unicode pictograph', 'last 7 days 🙏', 'last 7 days'],
    ['a pictograph glued to a word', 'last 7 days🙏', 'last 7 days'],
    ['a skin tone', 'cpi 👍🏽 by os', 'cpi by os'],
    ['a ZWJ sequence', 'spend 👩‍💻 by os', 'spend by os'],
    ['a family with skin tones', 'x 👨🏻‍👩🏽‍👧🏿 y', 'x y'],
    ['a variation selector', 'cpi ❤️ by os ☀︎', 'cpi by os'],
    ['a flag', 'spend in 🇧🇷 by day', 'spend in by day'],
    ['a subdivision flag', 'spend 🏴󠁧󠁢󠁳󠁣󠁴󠁿 by day', 'spend by day'],
    ['a keycap', 'top 1️⃣ by cpi', 'top by cpi'],
    ['a lone skin tone or selector', 'a🏽b\uFE0Fc', 'a b c'],
    ['© ® ™ written as text stay', 'Brand™ ©2024 ®', 'Brand™ ©2024 ®'],
    ['smart double quotes', 'campaign = “Summer Sale”', 'campaign = "Summer Sale"'],
    ['smart single quotes', 'campaign = ‘Summer’s End’', "campaign = 'Summer's End'"],
    ['low and angle quotes', '„a“ «b» ‹c›', '"a" "b" \'c\''],
    ['non-breaking and narrow spaces', 'cpi\u00A0by\u202Fcountry', 'cpi by country'],
    ['zero-width spaces', 'c\u200Bpi by\uFEFF country\u2060', 'cpi by country'],
    ['whitespace collapsed', '  cpi \n\t by   country  ', 'cpi by country'],
    ['ZWNJ between letters stays', 'می\u200Cخواهم', 'می\u200Cخواهم'],
  ])('%s', (_, wire, typed) => {
    expect(decodeSlackText(wire).text).toBe(typed);
  });

  it('lists references and drops them from query text by default', () => {
    const wire =
      '<@U1> <@W2|bob> cpi <#C3|growth> <#C4> <#C5|> <!subteam^S6> <!subteam^S7|@ua-team> <!here> <!channel> <!everyone> <!here|here>';
    expect(decodeSlackText(wire)).toEqual({
      text: 'cpi',
      mentions: [
        { kind: 'user', id: 'U1' },
        { kind: 'user', id: 'W2', name: 'bob' },
        { kind: 'channel', id: 'C3', name: 'growth' },
        { kind: 'channel', id: 'C4' },
        { kind: 'channel', id: 'C5' },
        { kind: 'usergroup', id: 'S6' },
        { kind: 'usergroup', id: 'S7', name: 'ua-team' },
        { kind: 'broadcast', range: 'here' },
        { kind: 'broadcast', range: 'channel' },
        { kind: 'broadcast', range: 'everyone' },
        { kind: 'broadcast', range: 'here' },
      ],
    });
  });

  it('keeps reference tokens where the grammar reads them, and lists them too', () => {
    const decoded = decodeSlackText('subscribe daily-kpi <#C1|growth> at 09:00 &amp; <@U2>', { references: 'keep' });
    expect(decoded.text).toBe('subscribe daily-kpi <#C1|growth> at 09:00 & <@U2>');
    expect(decoded.mentions).toEqual([
      { kind: 'channel', id: 'C1', name: 'growth' },
      { kind: 'user', id: 'U2' },
    ]);
  });

  it('a dropped reference leaves a word break, not a join', () => {
    expect(decodeSlackText('cpi<@U1>by country').text).toBe('cpi by country');
  });

  it('what it keeps is what the subscribe grammar parses', () => {
    const { text } = decodeSlackText('subscribe daily-kpi <#C1|growth> cron “0 9 * * 1-5” :tada:', {
      references: 'keep',
    });
    expect(parseSlashCommand(text)).toEqual({
      kind: 'subscribe',
      report: 'daily-kpi',
      channel: { id: 'C1', name: 'growth' },
      schedule: { cron: '0 9 * * 1-5' },
    });
    expect(parseSlashCommand(decodeSlackText('unsubscribe daily-kpi <#C1>', { references: 'keep' }).text)).toEqual({
      kind: 'unsubscribe',
      report: 'daily-kpi',
      channel: { id: 'C1' },
    });
  });

  it('the reproduction of issue 32 reads as typed', () => {
    expect(decodeSlackText('spend installs by country yesterday having installs &gt; 100').text).toBe(
      'spend installs by country yesterday having installs > 100',
    );
  });
});

describe('decodeEntities', () => {
  it('inverts Slack escaping for any string', () => {
    const slackEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('&', 'a', 'm', 'p', 'l', 't', 'g', ';', '<', '>', '#', ' ') }),
        (s) => {
          expect(decodeEntities(slackEscape(s))).toBe(s);
        },
      ),
    );
  });
});

describe('wireTextOfBlocks: the text of rich_text blocks', () => {
  // The element shapes of Slack's rich text reference (rich_text_section, _list, _quote, _preformatted).
  const blocks = [
    {
      type: 'rich_text',
      block_id: 'b1',
      elements: [
        {
          type: 'rich_text_section',
          elements: [
            { type: 'user', user_id: 'UBOT' },
            { type: 'text', text: ' cpi > 2 & ' },
            { type: 'link', url: 'http://com.pub0.app', text: 'com.pub0.app' },
            { type: 'text', text: ' in ' },
            { type: 'channel', channel_id: 'C1' },
            { type: 'emoji', name: 'pray', unicode: '1f64f' },
            { type: 'usergroup', usergroup_id: 'S1' },
            { type: 'broadcast', range: 'here' },
          ],
        },
        {
          type: 'rich_text_list',
          style: 'bullet',
          elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text: 'by os' }] }],
        },
        { type: 'rich_text_quote', elements: [{ type: 'text', text: '“quoted”' }] },
        { type: 'rich_text_preformatted', elements: [{ type: 'link', url: 'https://x.io' }] },
      ],
    },
    { type: 'section', text: { type: 'mrkdwn', text: 'not rich text' } },
  ];

  it('writes them as Slack would have sent the text', () => {
    expect(wireTextOfBlocks(blocks)).toBe(
      '<@UBOT> cpi &gt; 2 &amp; <http://com.pub0.app|com.pub0.app> in <#C1> :pray: <!subteam^S1><!here>\nby os\n“quoted”\n<https://x.io>',
    );
  });

  it('decodes an event whose text is empty from its blocks, and prefers the text otherwise', () => {
    expect(decodeSlackMessage({ text: '', blocks })).toEqual({
      text: 'cpi > 2 & com.pub0.app in by os "quoted" https://x.io',
      mentions: [
        { kind: 'user', id: 'UBOT' },
        { kind: 'channel', id: 'C1' },
        { kind: 'usergroup', id: 'S1' },
        { kind: 'broadcast', range: 'here' },
      ],
    });
    expect(decodeSlackMessage({ text: 'only &lt;US&gt;', blocks }).text).toBe('only <US>');
  });

  it('reads nothing from what is not rich text', () => {
    expect(wireTextOfBlocks(undefined)).toBe('');
    expect(wireTextOfBlocks([null, 3, { type: 'rich_text', elements: 'x' }])).toBe('');
    expect(decodeSlackMessage({})).toEqual({ text: '', mentions: [] });
  });
});

describe('decodeSlackText: properties', () => {
  const slackEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const collapse = (s: string) => s.replace(/\s+/g, ' ').trim();
  // Typed words: query words, operators, entity look-alikes, domains and bundles Slack links.
  const word = fc.oneof(
    fc.string({
      unit: fc.constantFrom('a', 'Z', '1', '&', '<', '>', ';', '=', '!', '#', '@', '|', '.', '-', '_', '(', ')'),
    }),
    fc.constantFrom('&amp;', '&gt;', '&lt;', '&amp;gt;', 'having', '>=', '<>', '<@U1>', '<#C1|x>', '<!here>'),
  );
  const domain = fc
    .tuple(fc.stringMatching(/^[a-z][a-z0-9-]{0,8}$/), fc.constantFrom('app', 'io', 'ai', 'games', 'com'))
    .map(([name, tld]) => `com.${name}.${tld}`);

  it('escaped typed text decodes to itself (whitespace collapsed)', () => {
    fc.assert(
      fc.property(fc.array(word, { maxLength: 8 }), (words) => {
        const typed = words.join(' ');
        expect(decodeSlackText(slackEscape(typed)).text).toBe(collapse(typed));
      }),
    );
  });

  it('a bundle or domain Slack links decodes to the bundle, wherever it stands', () => {
    fc.assert(
      fc.property(fc.array(word, { maxLength: 4 }), domain, fc.array(word, { maxLength: 4 }), (before, name, after) => {
        const wire = [...before.map(slackEscape), `<http://${name}|${name}>`, ...after.map(slackEscape)].join(' ');
        expect(decodeSlackText(wire).text).toBe(collapse([...before, name, ...after].join(' ')));
      }),
    );
  });
});

// Against the encoder another engineer wrote from Slack's reference, independently of this decoder.
describe('decodeSlackText against encodeAsSlack (test/support/slackWireFormat.ts)', () => {
  const collapse = (s: string) => s.replace(/\s+/g, ' ').trim();
  /** The typed text as the decoder gives it back: emoji samples gone, whitespace collapsed. */
  const longestFirst = [...ALL_EMOJI_SAMPLES].sort((a, b) => b.length - a.length);
  const expected = (typed: string) => collapse(longestFirst.reduce((t, e) => t.split(e).join(' '), typed));

  it.each(wireSamples.map((sample) => [sample.note, sample] as const))('%s', (_, sample) => {
    expect(decodeSlackText(sample.wire).text).toBe(expected(sample.typed));
  });

  // Typed text: words, URLs, domains, bundles, e-mails, operators, entities, quotes, Slack-looking markup.
  const piece = fc.oneof(
    fc.string({
      unit: fc.constantFrom(
        'a',
        'Q',
        '7',
        '.',
        '/',
        '@',
        '&',
        '<',
        '>',
        '|',
        '(',
        ')',
        '"',
        "'",
        '#',
        '!',
        '?',
        ',',
        '-',
        '=',
        ' ',
        '\n',
        '\u00A0',
        'é',
      ),
    }),
    fc.constantFrom(
      'com.pub0.app',
      'example.com/a?b=1&c=2',
      'https://x.io/r?a=1&b=2',
      'a@b.co',
      'www.foo.com',
      '&amp;',
      '&gt;',
      '&amp;gt;',
      '<@U123>',
      '<#C1|x>',
      '<!here>',
      '<http://a.io|b>',
      'having installs > 100',
      "don't",
      '"top 5"',
    ),
  );
  const typedText = fc.array(piece, { maxLength: 6 }).map((pieces) => pieces.join(' '));

  it('decoding what Slack would encode gives back the typed text, for any typed text', () => {
    fc.assert(
      fc.property(typedText, fc.constantFrom('slash' as const, 'message' as const), (typed, surface) => {
        expect(decodeSlackText(encodeAsSlack(typed, { surface })).text).toBe(collapse(typed));
      }),
      { numRuns: 500 },
    );
  });

  it('and with smart quotes on, gives back the straight quotes that were typed', () => {
    fc.assert(
      fc.property(typedText, (typed) => {
        expect(decodeSlackText(encodeAsSlack(typed, { smartQuotes: true })).text).toBe(collapse(typed));
      }),
      { numRuns: 300 },
    );
  });
});
