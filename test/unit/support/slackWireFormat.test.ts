import fc from 'fast-check';
import {
  appMention,
  BOT_USER_ID,
  blocksOnlyMessage,
  botMessage,
  directMessage,
  eventCallback,
  fileShare,
  messageChanged,
  messageDeleted,
  otherAppMessage,
  slackConnectEnvelope,
  slackConnectMessage,
  slashCommandForm,
  TEAM_ID,
  threadBroadcast,
  threadReply,
} from '../../fixtures/slack-payloads.js';
import {
  ALL_EMOJI_SAMPLES,
  channelMention,
  EMOJI_SAMPLES,
  encodeAsSlack,
  escapeSlackText,
  isLinkableHost,
  isTopLevelDomain,
  smartenQuotes,
  specialMention,
  subteamMention,
  TOP_LEVEL_DOMAINS,
  userMention,
  wireSamples,
} from '../../support/slackWireFormat.js';

/**
 * A minimal reading of the wire format, for the properties only (the bot's own decoder is tested elsewhere):
 * link markup becomes its label (or its target when it has none), then the three entities are undone.
 */
function readBack(wire: string): string {
  return wire
    .replace(/<([^<>|]*)(?:\|([^<>]*))?>/g, (_all, target: string, label: string | undefined) => label ?? target)
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

const LINK_WITHOUT_LABEL = /^(?:https?|ftp):\/\/[^\s|]+$/i;
const LINK_WITH_LABEL = /^(?:http:\/\/|mailto:)([^\s|]+)\|([^\s|]+)$/;
const MENTION = /^(?:@[UWB][A-Z0-9]+|#[CGD][A-Z0-9]+|!(?:here|channel|everyone|subteam\^S[A-Z0-9]+))(?:\|[^|]+)?$/;

/** Every raw `<`, `>`, `&` in `wire` that is neither an entity nor part of link or mention markup. */
function strayControlCharacters(wire: string): string[] {
  const strays: string[] = [];
  for (const match of wire.matchAll(/&(?:amp|lt|gt);|<([^<>]*)>|[<>&]/g)) {
    const inner = match[1];
    if (match[0].startsWith('&') && match[0].length > 1) continue; // an entity
    if (inner === undefined) {
      strays.push(`${match[0]} at ${match.index}`);
      continue;
    }
    if (inner.replace(/&(?:amp|lt|gt);/g, '').includes('&')) strays.push(`raw & inside <${inner}>`);
    const labelled = LINK_WITH_LABEL.exec(inner);
    const ok =
      LINK_WITHOUT_LABEL.test(inner) || (labelled !== null && labelled[1] === labelled[2]) || MENTION.test(inner);
    if (!ok) strays.push(`<${inner}> is not link or mention markup`);
  }
  return strays;
}

describe('escaping', () => {
  test('&, < and > become entities, and only those three', () => {
    expect(escapeSlackText(`a & b < c > d "e" 'f' %g`)).toBe(`a &amp; b &lt; c &gt; d "e" 'f' %g`);
    expect(encodeAsSlack('clicks > 100 & ctr < 2%')).toBe('clicks &gt; 100 &amp; ctr &lt; 2%');
  });

  test('a typed entity is escaped again', () => {
    expect(encodeAsSlack('&lt;')).toBe('&amp;lt;');
  });

  test('typed mention markup is text', () => {
    expect(encodeAsSlack('<!here> <@U1>')).toBe('&lt;!here&gt; &lt;@U1&gt;');
  });
});

describe('links', () => {
  test('a URL with a scheme becomes <url>, with & escaped inside', () => {
    expect(encodeAsSlack('https://x.io/a')).toBe('<https://x.io/a>');
    expect(encodeAsSlack('get https://x.io/r?a=1&b=2 now')).toBe('get <https://x.io/r?a=1&amp;b=2> now');
    expect(encodeAsSlack('HTTPS://X.IO/A')).toBe('<HTTPS://X.IO/A>');
  });

  test('bare domains and bundle-like names ending in a real TLD become <http://name|name>', () => {
    for (const name of ['com.pub0.app', 'example.com', 'foo.io', 'game.ai', 'x.games', 'a.co', 'b.net', 'c.org']) {
      expect(encodeAsSlack(name)).toBe(`<http://${name}|${name}>`);
    }
    expect(encodeAsSlack('www.foo.com')).toBe('<http://www.foo.com|www.foo.com>');
    expect(encodeAsSlack('example.com:8080/x')).toBe('<http://example.com:8080/x|example.com:8080/x>');
  });

  test('names whose last label is not a TLD stay as typed', () => {
    for (const name of ['com.pub0.unity', 'com.pub0.mygame', 'report.csv', 'node.js', 'host.local', 'a.test', '1.5']) {
      expect(encodeAsSlack(name)).toBe(name);
    }
  });

  test('e-mail addresses become <mailto:…|…>', () => {
    expect(encodeAsSlack('a@b.co')).toBe('<mailto:a@b.co|a@b.co>');
    expect(encodeAsSlack('write to ads.ops@pub0.games.')).toBe(
      'write to <mailto:ads.ops@pub0.games|ads.ops@pub0.games>.',
    );
    expect(encodeAsSlack('a@b.unity')).toBe('a@b.unity');
  });

  test('trailing . , ? ) are not part of the link', () => {
    expect(encodeAsSlack('https://x.io/a.')).toBe('<https://x.io/a>.');
    expect(encodeAsSlack('https://x.io/a,')).toBe('<https://x.io/a>,');
    expect(encodeAsSlack('https://x.io/a?')).toBe('<https://x.io/a>?');
    expect(encodeAsSlack('(https://x.io/a)')).toBe('(<https://x.io/a>)');
    expect(encodeAsSlack('(example.com/a).')).toBe('(<http://example.com/a|example.com/a>).');
    expect(encodeAsSlack('https://x.io/f_(b)')).toBe('<https://x.io/f_(b)>');
  });

  test('a name glued to a path or address is not linked on its own', () => {
    expect(encodeAsSlack('/usr/x.io')).toBe('/usr/x.io');
    expect(encodeAsSlack('@alice.io')).toBe('@alice.io');
  });
});

describe('top-level domains', () => {
  test('the list holds the common gTLDs and country codes', () => {
    for (const tld of ['app', 'io', 'ai', 'games', 'dev', 'gg', 'tv', 'me', 'co', 'net', 'org', 'com', 'info']) {
      expect(isTopLevelDomain(tld)).toBe(true);
    }
    for (const cc of ['de', 'uk', 'us', 'fr', 'jp', 'br', 'in', 'md']) expect(isTopLevelDomain(cc)).toBe(true);
    expect(isTopLevelDomain('COM')).toBe(true);
    expect(TOP_LEVEL_DOMAINS.size).toBeGreaterThan(1000);
  });

  test('reserved and made-up names are not TLDs', () => {
    for (const label of ['test', 'example', 'invalid', 'localhost', 'local', 'internal', 'unity', 'mygame', 'js']) {
      expect(isTopLevelDomain(label)).toBe(false);
    }
  });

  test('a host needs two labels and a TLD', () => {
    expect(isLinkableHost('io')).toBe(false);
    expect(isLinkableHost('x.io')).toBe(true);
    expect(isLinkableHost('x-.io')).toBe(false);
    expect(isLinkableHost('x.123')).toBe(false);
  });
});

describe('smart quotes', () => {
  test('off by default', () => {
    expect(encodeAsSlack(`"a" 'b'`)).toBe(`"a" 'b'`);
  });

  test('curl double and single quotes and apostrophes as macOS and iOS do', () => {
    expect(smartenQuotes(`"top 5" by 'country'`)).toBe('“top 5” by ‘country’');
    expect(smartenQuotes(`don't`)).toBe('don’t');
    expect(smartenQuotes(`("x")`)).toBe('(“x”)');
    expect(encodeAsSlack(`"a & b"`, { smartQuotes: true })).toBe('“a &amp; b”');
  });
});

describe('mentions', () => {
  test('helpers build Slack markup', () => {
    expect(userMention('U012AB3CD')).toBe('<@U012AB3CD>');
    expect(userMention('W012AB3CD', 'alice')).toBe('<@W012AB3CD|alice>');
    expect(channelMention('C123ABC456', 'general')).toBe('<#C123ABC456|general>');
    expect(channelMention('C123ABC456')).toBe('<#C123ABC456>');
    expect(subteamMention('SAZ94GDB8')).toBe('<!subteam^SAZ94GDB8>');
    expect(specialMention('here')).toBe('<!here>');
    expect(specialMention('channel')).toBe('<!channel>');
    expect(specialMention('everyone')).toBe('<!everyone>');
  });

  test('helpers refuse ids of the wrong kind', () => {
    expect(() => userMention('C123')).toThrow(/user id/);
    expect(() => channelMention('U123', 'x')).toThrow(/channel id/);
    expect(() => subteamMention('U123')).toThrow(/user group id/);
    expect(() => channelMention('C123', 'a|b')).toThrow(/mention markup/);
  });

  test('typed @names are not turned into mentions', () => {
    expect(encodeAsSlack('@alice in #general')).toBe('@alice in #general');
  });
});

describe('emoji', () => {
  test('samples cover shortcodes, skin tones, ZWJ sequences and flags', () => {
    expect(EMOJI_SAMPLES.shortcodes.thumbsUpSkinTone2).toBe(':+1::skin-tone-2:');
    expect(EMOJI_SAMPLES.unicode.womanTechnologist).toContain('\u200d');
    expect([...EMOJI_SAMPLES.unicode.flagUS].map((c) => c.codePointAt(0))).toEqual([0x1f1fa, 0x1f1f8]);
    expect(EMOJI_SAMPLES.unicode.thumbsUpMediumSkin.codePointAt(2)).toBe(0x1f3fd);
  });

  test('emoji pass through the encoder unchanged', () => {
    for (const emoji of ALL_EMOJI_SAMPLES) expect(encodeAsSlack(`x ${emoji} y`)).toBe(`x ${emoji} y`);
  });
});

describe('wireSamples', () => {
  test('there are at least 40, on both surfaces, some with smart quotes', () => {
    expect(wireSamples.length).toBeGreaterThanOrEqual(40);
    expect(wireSamples.some((w) => w.surface === 'slash')).toBe(true);
    expect(wireSamples.some((w) => w.surface === 'message')).toBe(true);
    expect(wireSamples.some((w) => w.smartQuotes)).toBe(true);
    expect(new Set(wireSamples.map((w) => `${w.surface}|${w.typed}|${w.smartQuotes}`)).size).toBe(wireSamples.length);
  });

  test.each(wireSamples.map((w) => [w.note, w] as const))('%s', (_note, sample) => {
    const options = { surface: sample.surface, ...(sample.smartQuotes ? { smartQuotes: true } : {}) };
    expect(encodeAsSlack(sample.typed, options)).toBe(sample.wire);
    expect(readBack(sample.wire)).toBe(sample.smartQuotes ? smartenQuotes(sample.typed) : sample.typed);
  });
});

// Typed text built from pieces that reach every rule, plus arbitrary text.
const piece = fc.constantFrom(
  'https://',
  'http://x.io/a',
  'x.io',
  'com.pub0.app',
  'com.pub0.unity',
  'www.',
  '.',
  ',',
  '?',
  '(',
  ')',
  '@',
  'a@b.co',
  '&',
  '&amp;',
  '<',
  '>',
  '|',
  ':',
  '/',
  ' ',
  '\n',
  '"',
  "'",
  'a',
  '7',
  '🙏',
  '👩‍💻',
  '<@U1>',
  '<http://x.io|x.io>',
);
const typedText = fc.oneof(
  fc.array(piece, { maxLength: 20 }).map((parts) => parts.join('')),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
);

describe('properties', () => {
  test('the output has no raw <, > or & outside an entity or link/mention markup', () => {
    fc.assert(
      fc.property(
        typedText,
        fc.boolean(),
        fc.constantFrom('slash' as const, 'message' as const),
        (typed, sq, surface) => {
          expect(strayControlCharacters(encodeAsSlack(typed, { smartQuotes: sq, surface }))).toEqual([]);
        },
      ),
      { numRuns: 2000 },
    );
  });

  test('reading the output back gives the typed text (with curled quotes when smartQuotes is on)', () => {
    fc.assert(
      fc.property(typedText, fc.boolean(), (typed, sq) => {
        expect(readBack(encodeAsSlack(typed, { smartQuotes: sq }))).toBe(sq ? smartenQuotes(typed) : typed);
      }),
      { numRuns: 2000 },
    );
  });

  test('both surfaces encode alike', () => {
    fc.assert(
      fc.property(typedText, (typed) => {
        expect(encodeAsSlack(typed, { surface: 'slash' })).toBe(encodeAsSlack(typed, { surface: 'message' }));
      }),
    );
  });
});

describe('payload fixtures', () => {
  test('the slash command form carries every field Slack posts, in order', () => {
    const form = new URLSearchParams(slashCommandForm({ text: encodeAsSlack('clicks > 5 for com.pub0.app') }));
    expect([...form.keys()]).toEqual([
      'token',
      'team_id',
      'team_domain',
      'channel_id',
      'channel_name',
      'user_id',
      'user_name',
      'command',
      'text',
      'api_app_id',
      'is_enterprise_install',
      'response_url',
      'trigger_id',
    ]);
    expect(form.get('text')).toBe('clicks &gt; 5 for <http://com.pub0.app|com.pub0.app>');
  });

  test('events are wrapped in an event_callback envelope', () => {
    const body = eventCallback(threadReply({ thread_ts: '1700000000.000001', text: 'hi' }));
    expect(body).toMatchObject({ type: 'event_callback', team_id: TEAM_ID, event: { thread_ts: '1700000000.000001' } });
    expect(body.authorizations[0]?.user_id).toBe(BOT_USER_ID);
    const shared = slackConnectEnvelope(slackConnectMessage());
    expect(shared.team_id).not.toBe(shared.authorizations[0]?.team_id);
    expect(shared.event.user_team).not.toBe(TEAM_ID);
  });

  test('hidden, bot and blocks-only shapes', () => {
    expect(messageChanged({ text: 'new', previous_text: 'old' })).toMatchObject({
      hidden: true,
      message: { text: 'new' },
      previous_message: { text: 'old' },
    });
    expect(messageDeleted()).toMatchObject({ hidden: true, subtype: 'message_deleted' });
    expect(directMessage().channel_type).toBe('im');
    expect(botMessage()).not.toHaveProperty('user');
    expect(otherAppMessage()).not.toHaveProperty('subtype');
    expect(fileShare().files[0]?.filetype).toBe('csv');
    expect(threadBroadcast({ thread_ts: '1.2' }).root.thread_ts).toBe('1.2');
    expect(appMention().text.startsWith(`<@${BOT_USER_ID}>`)).toBe(true);
    const blocksOnly = blocksOnlyMessage();
    expect(blocksOnly.text).toBe('');
    const types = blocksOnly.blocks[0]?.elements[0]?.elements.map((e) => e.type);
    expect(new Set(types)).toEqual(new Set(['broadcast', 'text', 'user', 'channel', 'usergroup', 'link', 'emoji']));
  });
});
