/**
 * Slack mrkdwn → safe HTML for the preview page: *bold*, _italic_, ~strike~, `code`, ```blocks```,
 * <links|text>, mentions and the emoji shortcodes pivotbot uses. Everything is escaped first;
 * only the tags written here reach the page, and links must be http(s) or relative.
 */

/** HTML-escapes text for element content and double-quoted attributes. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** Undoes Slack's own escaping (mrkdwn text carries &amp; &lt; &gt;). */
function unescapeSlack(text: string): string {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/** The shortcodes pivotbot's messages use, as Unicode, so the preview looks like Slack. */
export const EMOJI: Readonly<Record<string, string>> = {
  large_green_circle: '🟢',
  red_circle: '🔴',
  white_circle: '⚪',
  large_blue_circle: '🔵',
  large_orange_circle: '🟠',
  calendar: '📅',
  warning: '⚠️',
  scissors: '✂️',
  stopwatch: '⏱️',
  mag: '🔍',
  hourglass_flowing_sand: '⏳',
  gear: '⚙️',
  repeat: '🔁',
  white_check_mark: '✅',
  x: '❌',
  grey_question: '❔',
  bulb: '💡',
  rotating_light: '🚨',
  arrows_counterclockwise: '🔄',
  eyes: '👀',
  zzz: '💤',
  bar_chart: '📊',
  chart_with_upwards_trend: '📈',
  white_small_square: '▫️',
  fast_forward: '⏩',
  no_entry: '⛔',
  test_tube: '🧪',
  dart: '🎯',
};

/** Tone dots as coloured glyphs: they read the same with or without an emoji font. */
const DOTS: Readonly<Record<string, string>> = {
  large_green_circle: 'good',
  red_circle: 'bad',
  white_circle: 'neutral',
};

function emojiHtml(name: string): string | undefined {
  const dot = DOTS[name];
  if (dot) return `<span class="dot dot-${dot}" role="img" aria-label="${dot}">●</span>`;
  const emoji = EMOJI[name];
  return emoji === undefined ? undefined : `<span class="emoji" title=":${name}:">${emoji}</span>`;
}

/** A URL safe to put in href/src: http(s), or a relative path without a scheme. */
export function safeUrl(url: string): string | null {
  const trimmed = url.trim();
  if (/^https?:\/\//i.test(trimmed)) return trimmed;
  if (/^[a-z][a-z0-9+.-]*:/i.test(trimmed) || trimmed.startsWith('//')) return null;
  return trimmed;
}

function inline(text: string): string {
  // Code spans first, so their content is not formatted.
  return text
    .split(/(`[^`\n]+`)/)
    .map((part) => {
      if (/^`[^`\n]+`$/.test(part)) return `<code>${escapeHtml(part.slice(1, -1))}</code>`;
      return escapeHtml(part)
        .replace(/\*([^*\n]+)\*/g, '<strong>$1</strong>')
        .replace(/(^|[\s(])_([^_\n]+)_(?=$|[\s).,;:!?])/g, '$1<em>$2</em>')
        .replace(/~([^~\n]+)~/g, '<del>$1</del>')
        .replace(/:([a-z0-9_+-]+):/g, (m, name: string) => emojiHtml(name) ?? m)
        .replace(/\n/g, '<br>');
    })
    .join('');
}

function token(inner: string): string {
  const [target = '', label] = inner.split('|', 2);
  if (target.startsWith('@') || target.startsWith('#'))
    return `<span class="mention">${escapeHtml(label ?? target)}</span>`;
  if (target.startsWith('!')) return `<span class="mention">@${escapeHtml(target.slice(1))}</span>`;
  const href = safeUrl(target);
  const text = escapeHtml(label ?? target);
  return href === null ? text : `<a href="${escapeHtml(href)}">${text}</a>`;
}

/**
 * Converts one mrkdwn text to HTML.
 *
 * @example mrkdwnToHtml('*Spend* <https://x.io|docs>') // '<strong>Spend</strong> <a href="https://x.io">docs</a>'
 */
export function mrkdwnToHtml(text: string): string {
  return text
    .split(/(```[\s\S]*?```)/)
    .map((part) => {
      if (part.startsWith('```') && part.endsWith('```') && part.length >= 6) {
        return `<pre>${escapeHtml(unescapeSlack(part.slice(3, -3).replace(/^\n/, '')))}</pre>`;
      }
      return part
        .split(/(<[^<>\n]+>)/)
        .map((piece) =>
          /^<[^<>\n]+>$/.test(piece) ? token(unescapeSlack(piece.slice(1, -1))) : inline(unescapeSlack(piece)),
        )
        .join('');
    })
    .join('');
}
