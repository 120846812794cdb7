/**
 * Slack's wire text back to what the person typed. Slack never hands an app the typed text: it
 * escapes `&`, `<`, `>` as entities, sends anything that looks like a link as a link
 * (`com.pub0.app` → `<http://com.pub0.app|com.pub0.app>`), users, channels and groups as
 * references (`<@U1>`, `<#C1|growth>`, `<!subteam^S1>`), and the typed text may hold emoji and
 * the smart quotes macOS and iOS put in (Slack's formatting reference: "Escaping", "Links in
 * retrieved messages"). Pure: no Slack here. Not for modal `plain_text_input` values: those are
 * the typed text already.
 */

/** A user, channel, user group, broadcast or date that Slack sent as a reference. */
export type SlackReference =
  | { kind: 'user'; id: string; name?: string }
  | { kind: 'channel'; id: string; name?: string }
  | { kind: 'usergroup'; id: string; name?: string }
  | { kind: 'broadcast'; range: 'here' | 'channel' | 'everyone' }
  /** `<!date^1392734382^{date_num}|Feb 18, 2014>`: the fallback is kept in the text either way. */
  | { kind: 'date'; timestamp: number; fallback: string };

export interface DecodedText {
  /** What the person typed: links as typed, references kept or dropped, emoji gone, spaces collapsed. */
  text: string;
  /** Every reference in the text, in order (kept or dropped from `text`). */
  mentions: SlackReference[];
}

export interface DecodeOptions {
  /**
   * `drop` (default): references leave the text (query text, where `<@U1>` means nothing).
   * `keep`: each stays as its reference token, `<@U1>`, `<#C1|growth>`, `<!subteam^S1>`, `<!here>`,
   * which the command grammar reads (`subscribe daily-kpi <#C1|growth>`, owners). A typed `<` is
   * decoded too, so a kept token is recognised by its shape only.
   */
  references?: 'drop' | 'keep';
}

const ENTITIES: Readonly<Record<string, string>> = { '&amp;': '&', '&lt;': '<', '&gt;': '>' };

/**
 * `&amp; &lt; &gt;` → `& < >`, in one pass (so `&amp;gt;`, a typed `&gt;`, stays `&gt;`). Slack
 * escapes only these three.
 */
export function decodeEntities(text: string): string {
  return text.replace(/&(?:amp|lt|gt);/g, (entity) => ENTITIES[entity] ?? entity);
}

/** A link, reference or special token: Slack escapes every typed `<` and `>`, so these are its own. */
const TOKEN = /<([^<>]*)>/g;

/** `:white_check_mark:`, `:+1::skin-tone-2:`: a shortcode standing alone (`10:30:45` is no emoji). */
const SHORTCODE = /(?<![\p{L}\p{N}]):[a-z0-9_+'-]+:(?::skin-tone-[2-6]:)?(?![\p{L}\p{N}])/gu;

/** A pictograph (not ©, ® or ™ written as text), a flag letter, or a keycap. */
const PICTOGRAPH = String.raw`(?:(?![\u00A9\u00AE\u2122](?!\uFE0F))\p{Extended_Pictographic}|\p{Regional_Indicator}|[0-9#*]\uFE0F?\u20E3)`;
/** What follows a pictograph in a sequence: skin tones, variation selectors, tags (subdivision flags), keycaps. */
const MODIFIER = String.raw`[\p{Emoji_Modifier}\uFE0E\uFE0F\u20E3\u{E0020}-\u{E007F}]`;
/** An emoji with everything that makes it one (ZWJ sequences like 👩‍💻), or a stray modifier. */
const EMOJI = new RegExp(String.raw`${PICTOGRAPH}(?:\u200D?(?:${PICTOGRAPH}|${MODIFIER}))*\u200D?|${MODIFIER}+`, 'gu');

const QUOTES: Readonly<Record<string, string>> = {
  '“': '"',
  '”': '"',
  '„': '"',
  '‟': '"',
  '«': '"',
  '»': '"',
  '‘': "'",
  '’': "'",
  '‚': "'",
  '‛': "'",
  '‹': "'",
  '›': "'",
};

/** Zero-width characters that only hide between letters (not ZWJ/ZWNJ, which some scripts need). */
const ZERO_WIDTH = /[\u200B\u2060\uFEFF]/g;

/**
 * What the person typed, from the text Slack sent: entities decoded; links as typed (the label,
 * else the URL); references listed, and kept in the text or dropped; emoji (shortcodes and
 * Unicode) removed; smart quotes straightened; non-breaking and zero-width spaces normalised and
 * whitespace collapsed.
 *
 * @example decodeSlackText('spend by publisher having installs &gt; 100 in <http://com.pub0.app|com.pub0.app> :white_check_mark:')
 * // { text: 'spend by publisher having installs > 100 in com.pub0.app', mentions: [] }
 * @example decodeSlackText('subscribe daily-kpi <#C1|growth>', { references: 'keep' })
 * // { text: 'subscribe daily-kpi <#C1|growth>', mentions: [{ kind: 'channel', id: 'C1', name: 'growth' }] }
 */
export function decodeSlackText(wire: string, options: DecodeOptions = {}): DecodedText {
  const keep = options.references === 'keep';
  const mentions: SlackReference[] = [];
  const parts: string[] = [];
  let last = 0;
  for (const match of wire.matchAll(TOKEN)) {
    const index = match.index ?? 0;
    parts.push(plainText(wire.slice(last, index)));
    const token = readToken(match[1] ?? '');
    if (token.reference) mentions.push(token.reference);
    // A reference stands apart from its neighbours: dropped, it leaves a space, not a join.
    parts.push(token.reference && token.reference.kind !== 'date' ? (keep ? token.raw : ' ') : cleanText(token.text));
    last = index + match[0].length;
  }
  parts.push(plainText(wire.slice(last)));
  return { text: collapseSpaces(parts.join('')), mentions };
}

/** Text between tokens: entities decoded, then cleaned. */
function plainText(text: string): string {
  return cleanText(decodeEntities(text));
}

/** Emoji out (as spaces, so `days🙏` does not join the next word), quotes straight. */
function cleanText(text: string): string {
  return text
    .replace(SHORTCODE, ' ')
    .replace(EMOJI, ' ')
    .replace(/[“”„‟«»‘’‚‛‹›]/g, (q) => QUOTES[q] ?? q);
}

function collapseSpaces(text: string): string {
  return text.replace(ZERO_WIDTH, '').replace(/\s+/gu, ' ').trim();
}

interface Token {
  /** What the token reads as in the typed text (a link's label, a date's fallback). */
  text: string;
  /** The token as the command grammar reads it (`<#C1|growth>`). */
  raw: string;
  reference?: SlackReference;
}

/** One `<…>` token, without its brackets. */
function readToken(inner: string): Token {
  const bar = inner.indexOf('|');
  const head = bar === -1 ? inner : inner.slice(0, bar);
  const label = bar === -1 ? undefined : decodeEntities(inner.slice(bar + 1));
  const named = (name: string | undefined) => (name ? { name } : {});
  const raw = `<${inner}>`;
  if (/^@[A-Z0-9]+$/i.test(head)) {
    return { text: '', raw, reference: { kind: 'user', id: head.slice(1), ...named(label?.replace(/^@/, '')) } };
  }
  if (/^#[A-Z0-9]+$/i.test(head)) {
    return { text: '', raw, reference: { kind: 'channel', id: head.slice(1), ...named(label?.replace(/^#/, '')) } };
  }
  const subteam = /^!subteam\^([A-Z0-9]+)$/i.exec(head);
  if (subteam) {
    const reference = { kind: 'usergroup' as const, id: subteam[1] as string, ...named(label?.replace(/^@/, '')) };
    return { text: '', raw, reference };
  }
  const broadcast = /^!(here|channel|everyone)$/.exec(head);
  if (broadcast) {
    return { text: '', raw, reference: { kind: 'broadcast', range: broadcast[1] as 'here' | 'channel' | 'everyone' } };
  }
  const date = /^!date\^(-?\d+)\^/.exec(head);
  if (date) {
    const fallback = label ?? '';
    return { text: fallback, raw, reference: { kind: 'date', timestamp: Number(date[1]), fallback } };
  }
  // Any other special (`<!foo>`) means nothing typed.
  if (head.startsWith('!')) return { text: label ?? '', raw };
  // A link: the label is what was typed (`com.pub0.app`, or a URL's own text); else the URL itself.
  const url = decodeEntities(head);
  return { text: label ?? url.replace(/^mailto:/i, ''), raw };
}

/** The fields of a `rich_text` element this module reads. */
interface RichElement {
  type?: unknown;
  text?: unknown;
  url?: unknown;
  user_id?: unknown;
  channel_id?: unknown;
  usergroup_id?: unknown;
  name?: unknown;
  range?: unknown;
  timestamp?: unknown;
  format?: unknown;
  fallback?: unknown;
  value?: unknown;
  elements?: unknown;
}

const str = (value: unknown): string =>
  typeof value === 'string' ? value : typeof value === 'number' ? `${value}` : '';
const wireEscape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const elementsOf = (value: unknown): RichElement[] =>
  Array.isArray(value) ? value.filter((e): e is RichElement => typeof e === 'object' && e !== null) : [];

/**
 * The text of a message's `rich_text` blocks in Slack's wire format, for an event whose `text` is
 * empty: text as escaped text, links, users, channels, user groups, broadcasts and dates as their
 * tokens, emoji as shortcodes; sections, lists, quotes and code blocks one per line. Feed it to
 * `decodeSlackText`.
 *
 * @example wireTextOfBlocks([{ type: 'rich_text', elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text: 'cpi > 2 ' }, { type: 'emoji', name: 'white_check_mark' }] }] }])
 * // 'cpi &gt; 2  :white_check_mark: ' (an emoji stands apart from its neighbours)
 */
export function wireTextOfBlocks(blocks: unknown): string {
  const lines: string[] = [];
  for (const block of elementsOf(blocks)) {
    if (block.type === 'rich_text') lines.push(...linesOf(elementsOf(block.elements)));
  }
  return lines.join('\n');
}

/** A rich_text block's children: sections and the like hold inline elements; a list holds sections. */
function linesOf(children: readonly RichElement[]): string[] {
  return children.flatMap((child) =>
    child.type === 'rich_text_list' ? linesOf(elementsOf(child.elements)) : [inlineText(elementsOf(child.elements))],
  );
}

function inlineText(elements: readonly RichElement[]): string {
  return elements
    .map((e) => {
      switch (e.type) {
        case 'text':
          return wireEscape(str(e.text));
        case 'link':
          return `<${wireEscape(str(e.url))}${e.text === undefined ? '' : `|${wireEscape(str(e.text))}`}>`;
        case 'user':
          return `<@${str(e.user_id)}>`;
        case 'channel':
          return `<#${str(e.channel_id)}>`;
        case 'usergroup':
          return `<!subteam^${str(e.usergroup_id)}>`;
        case 'broadcast':
          return `<!${str(e.range)}>`;
        case 'emoji':
          return ` :${str(e.name)}: `;
        case 'date':
          return `<!date^${str(e.timestamp)}^${wireEscape(str(e.format))}|${wireEscape(str(e.fallback))}>`;
        case 'color':
          return wireEscape(str(e.value));
        default:
          return '';
      }
    })
    .join('');
}

/**
 * A message event's typed text: its `text`, or, when that is empty, the text of its `rich_text`
 * blocks, decoded.
 *
 * @example decodeSlackMessage({ text: 'only &lt;US&gt;' }) // { text: 'only <US>', mentions: [] }
 */
export function decodeSlackMessage(
  event: { text?: unknown; blocks?: unknown },
  options: DecodeOptions = {},
): DecodedText {
  const text = typeof event.text === 'string' ? event.text : '';
  return decodeSlackText(text.trim() !== '' ? text : wireTextOfBlocks(event.blocks), options);
}
