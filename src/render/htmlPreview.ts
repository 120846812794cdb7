/**
 * Block Kit → one self-contained HTML page that shows messages the way Slack would (header,
 * section text and fields, images, tables, context, buttons), with a run summary on top. Every
 * string from a message is escaped; image and link URLs must be http(s) or relative paths.
 */
import type { Block, SlackMessage, TextObject } from './blocks/types.js';
import { escapeHtml, mrkdwnToHtml, safeUrl } from './mrkdwnToHtml.js';
import { PREVIEW_CSS } from './previewStyle.js';
import { cellText } from './slackLimits.js';

export interface PreviewFile {
  name: string;
  href: string;
}

export interface PreviewEntry {
  /** Stable id (the report id), used for anchors and `data-report`. */
  id: string;
  title: string;
  /** What the message is: `digest`, `alert opened`, … shown as a tag. */
  kind: string;
  ok: boolean;
  message: SlackMessage;
  /** Replies in the message's thread (alert updates). */
  thread?: readonly SlackMessage[];
  files?: readonly PreviewFile[];
  durationMs?: number;
}

export interface PreviewPage {
  title: string;
  generatedAt: string;
  /** Wall time of the whole run. */
  durationMs: number;
  /** Reports run; by default, the distinct entry ids (before any `--suffix`). */
  reportCount?: number;
  entries: readonly PreviewEntry[];
  /** Reports that could not even produce a message: id and reason. */
  failures?: ReadonlyArray<{ id: string; reason: string }>;
}

function text(t: TextObject | undefined): string {
  if (!t) return '';
  return t.type === 'mrkdwn' ? mrkdwnToHtml(t.text) : escapeHtml(t.text).replace(/\n/g, '<br>');
}

function image(src: string | undefined, alt: string, cls: string): string {
  const url = src === undefined ? null : safeUrl(src);
  if (url === null) return `<div class="${cls} missing">${escapeHtml(alt)}</div>`;
  return `<img class="${cls}" src="${escapeHtml(url)}" alt="${escapeHtml(alt)}" loading="eager">`;
}

/** An image's URL: its `image_url`, or the URL of the Slack file it names (none for a file id). */
function imageSource(
  image: { image_url: string } | { slack_file: { id: string } | { url: string } },
): string | undefined {
  if ('image_url' in image) return image.image_url;
  return 'url' in image.slack_file ? image.slack_file.url : undefined;
}

/** One block as HTML; a kind of block pivotbot never sends shows as nothing. */
export function blockToHtml(block: Block): string {
  switch (block.type) {
    case 'header':
      return `<h3 class="b-header">${escapeHtml(block.text.text)}</h3>`;
    case 'section': {
      const body = block.text ? `<div class="b-text">${text(block.text)}</div>` : '';
      const fields = block.fields
        ? `<div class="b-fields">${block.fields.map((f) => `<div class="b-field">${text(f)}</div>`).join('')}</div>`
        : '';
      return `<div class="b-section">${body}${fields}</div>`;
    }
    case 'divider':
      return '<hr class="b-divider">';
    case 'context':
      return `<div class="b-context">${block.elements
        .map((e) =>
          e.type === 'image' ? image(imageSource(e), e.alt_text, 'b-context-img') : `<span>${text(e)}</span>`,
        )
        .join('')}</div>`;
    case 'image': {
      const src = imageSource(block);
      const title = block.title ? `<div class="b-image-title">${escapeHtml(block.title.text)}</div>` : '';
      return `<figure class="b-image">${title}${image(src, block.alt_text, 'chart')}</figure>`;
    }
    case 'actions':
      return `<div class="b-actions">${block.elements
        .map((b) =>
          b.type === 'button'
            ? `<button type="button" class="btn${b.style ? ` btn-${b.style}` : ''}" data-action-id="${escapeHtml(b.action_id ?? '')}" title="${escapeHtml(b.value ?? '')}">${escapeHtml(b.text.text)}</button>`
            : '',
        )
        .join('')}</div>`;
    case 'table': {
      const align = block.column_settings ?? [];
      const cell = (tag: string, t: string, i: number) =>
        `<${tag}${align[i]?.align === 'right' ? ' class="num"' : ''}>${escapeHtml(t)}</${tag}>`;
      const [head, ...rows] = block.rows;
      const thead = head ? `<thead><tr>${head.map((c, i) => cell('th', cellText(c), i)).join('')}</tr></thead>` : '';
      const tbody = rows.map((r) => `<tr>${r.map((c, i) => cell('td', cellText(c), i)).join('')}</tr>`).join('');
      return `<div class="b-table"><table>${thead}<tbody>${tbody}</tbody></table></div>`;
    }
    default:
      return '';
  }
}

/** A message as Slack shows it: app avatar and name, then its blocks (or its text without blocks). */
export function messageToHtml(message: SlackMessage, time: string): string {
  const body =
    message.blocks.length > 0
      ? message.blocks.map(blockToHtml).join('')
      : `<div class="b-text">${mrkdwnToHtml(message.text)}</div>`;
  return `<div class="msg"><div class="avatar" aria-hidden="true">pb</div><div class="msg-body"><div class="msg-meta"><strong>pivotbot</strong><span class="app">APP</span><span class="time">${escapeHtml(time)}</span></div>${body}</div></div>`;
}

function entryHtml(entry: PreviewEntry, time: string): string {
  const files = (entry.files ?? [])
    .map((f) => {
      const href = safeUrl(f.href);
      return href === null ? '' : `<a href="${escapeHtml(href)}">${escapeHtml(f.name)}</a>`;
    })
    .filter((a) => a !== '')
    .join(' · ');
  const thread =
    entry.thread && entry.thread.length > 0
      ? `<div class="thread"><div class="thread-label">${entry.thread.length} ${entry.thread.length === 1 ? 'reply' : 'replies'}</div>${entry.thread.map((m) => messageToHtml(m, time)).join('')}</div>`
      : '';
  const duration = entry.durationMs === undefined ? '' : ` · ${Math.round(entry.durationMs)} ms`;
  return `<section class="entry${entry.ok ? '' : ' failed'}" id="${escapeHtml(entry.id)}" data-report="${escapeHtml(entry.id)}">
<div class="entry-head"><span class="tag">${escapeHtml(entry.kind)}</span><span class="entry-title">${escapeHtml(entry.title)}</span><span class="entry-files">${files}${duration}</span></div>
${messageToHtml(entry.message, time)}${thread}</section>`;
}

/**
 * The preview page.
 *
 * @example await writeFile('out/index.html', renderHtmlPreview({ title: 'pivotbot demo', generatedAt, durationMs, entries }));
 */
export function renderHtmlPreview(page: PreviewPage): string {
  const reports = page.reportCount ?? new Set(page.entries.map((e) => e.id.split('--')[0])).size;
  const failed = page.entries.filter((e) => !e.ok).length + (page.failures?.length ?? 0);
  const time = page.generatedAt.slice(11, 16);
  const failures = (page.failures ?? [])
    .map((f) => `<li><strong>${escapeHtml(f.id)}</strong>: ${escapeHtml(f.reason)}</li>`)
    .join('');
  const toc = page.entries
    .map(
      (e) =>
        `<li class="${e.ok ? 'ok' : 'bad'}"><a href="#${escapeHtml(e.id)}">${escapeHtml(e.title)}</a> <span class="tag">${escapeHtml(e.kind)}</span></li>`,
    )
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(page.title)}</title><style>${PREVIEW_CSS}</style></head>
<body><main>
<header class="summary" id="summary"><h1>${escapeHtml(page.title)}</h1>
<p class="stats"><span data-stat="reports"><strong>${reports}</strong> reports</span> · <span data-stat="messages"><strong>${page.entries.length}</strong> messages</span> · <span data-stat="duration"><strong>${(page.durationMs / 1000).toFixed(1)} s</strong></span> · <span data-stat="failures" class="${failed > 0 ? 'bad' : 'ok'}"><strong>${failed}</strong> failures</span></p>
<p class="generated">Generated ${escapeHtml(page.generatedAt)} · each message below is rendered from the Block Kit JSON next to it, the way Slack shows it.</p>
${failures ? `<ul class="failures">${failures}</ul>` : ''}<ol class="toc">${toc}</ol></header>
<div class="channel">${page.entries.map((e) => entryHtml(e, time)).join('\n')}</div>
</main></body></html>
`;
}
