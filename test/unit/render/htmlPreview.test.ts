import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { digestMessage, mrkdwnToHtml, renderHtmlPreview, type SlackMessage } from '../../../src/render/index.js';
import { timeSeriesView } from '../../support/renderFixtures.js';

describe('mrkdwnToHtml', () => {
  it.each([
    ['*bold* _italic_ ~gone~', '<strong>bold</strong> <em>italic</em> <del>gone</del>'],
    ['`*not bold*`', '<code>*not bold*</code>'],
    ['<https://example.com/a?b=1&c=2|the docs>', '<a href="https://example.com/a?b=1&amp;c=2">the docs</a>'],
    ['<@U123> and <!here>', '<span class="mention">@U123</span> and <span class="mention">@here</span>'],
    ['a\nb', 'a<br>b'],
    ['```\nx < y\n```', '<pre>x &lt; y\n</pre>'],
    ['&lt;script&gt;alert(1)&lt;/script&gt;', '&lt;script&gt;alert(1)&lt;/script&gt;'],
    ['<javascript:alert(1)|click>', 'click'],
    ['"quoted" \'single\'', '&quot;quoted&quot; &#39;single&#39;'],
  ])('%j → %j', (input, expected) => {
    expect(mrkdwnToHtml(input)).toBe(expected);
  });

  it('shows tone dots as coloured glyphs and other shortcodes as emoji', () => {
    expect(mrkdwnToHtml(':red_circle: ▲')).toContain('class="dot dot-bad"');
    expect(mrkdwnToHtml(':warning: x')).toContain('⚠️');
    expect(mrkdwnToHtml(':unknown_code:')).toBe(':unknown_code:');
  });

  it('knows every shortcode the messages in src/ use (none shows as raw :text: in the preview)', async () => {
    const root = fileURLToPath(new URL('../../../src/', import.meta.url));
    const files = (await readdir(root, { recursive: true })).filter((f) => f.endsWith('.ts'));
    // Not emoji: `file:line:col`, DuckDB's `:memory:`, `::ffff:` addresses, `http:` in URLs, run keys `slack:msg:…`.
    const notEmoji = new Set(['line', 'memory', 'ffff', 'http', 'msg']);
    const used = new Set<string>();
    for (const file of files) {
      const text = await readFile(join(root, file), 'utf8');
      // A shortcode starts a word: `report:daily:C1` and `slack:msg:…` (keys in comments) are not emoji.
      for (const m of text.matchAll(/(?<![A-Za-z0-9]):([a-z][a-z0-9_+]+):/g))
        if (!notEmoji.has(m[1] as string)) used.add(m[1] as string);
    }
    expect(used.size).toBeGreaterThan(20);
    const raw = [...used].filter((name) => mrkdwnToHtml(`:${name}:`) === `:${name}:`);
    expect(raw).toEqual([]);
  });
});

describe('renderHtmlPreview', () => {
  const hostile: SlackMessage = {
    text: 't',
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: '<img src=x onerror=alert(1)>' } },
      { type: 'section', text: { type: 'plain_text', text: '<script>alert(1)</script>' } },
      { type: 'image', image_url: 'javascript:alert(1)', alt_text: '"><script>alert(2)</script>' },
      { type: 'table', rows: [[{ type: 'raw_text', text: '<b>cell</b>' }]] },
      {
        type: 'actions',
        elements: [
          {
            type: 'button',
            text: { type: 'plain_text', text: '</button><script>' },
            action_id: 'a"b',
            value: '{"x":"<y>"}',
          },
        ],
      },
    ],
  };
  const html = renderHtmlPreview({
    title: 'demo <1>',
    generatedAt: '2026-11-20T09:00:00Z',
    durationMs: 2500,
    entries: [
      {
        id: 'daily-kpi',
        title: 'Daily KPIs',
        kind: 'digest',
        ok: true,
        message: digestMessage(timeSeriesView(), { chart: { url: 'daily-kpi.png', alt: 'chart' } }),
        files: [{ name: 'daily-kpi.csv', href: 'daily-kpi.csv' }],
      },
      { id: 'evil"id', title: '<i>evil</i>', kind: 'digest', ok: false, message: hostile },
    ],
    failures: [{ id: 'broken', reason: 'reports/broken.yaml:3:1 <bad>' }],
  });

  it('escapes everything that comes from a message', () => {
    expect(html).not.toMatch(/<script>|<img src=x|<b>cell|<i>evil/);
    expect(html).not.toContain('javascript:');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('data-report="evil&quot;id"');
  });

  it('shows the summary: reports, time taken and failures', () => {
    expect(html).toContain('<strong>2</strong> reports');
    expect(html).toContain('<strong>2.5 s</strong>');
    expect(html).toContain('<strong>2</strong> failures');
    expect(html).toContain('reports/broken.yaml:3:1 &lt;bad&gt;');
  });

  it('renders header, fields, image, table, context and buttons like Slack', () => {
    for (const cls of ['b-header', 'b-fields', 'b-image', 'b-table', 'b-context', 'b-actions'])
      expect(html).toContain(`class="${cls}"`);
    expect(html).toContain('<img class="chart" src="daily-kpi.png" alt="chart"');
    expect(html).toContain('<button type="button" class="btn btn-primary" data-action-id="pivot_rerun"');
    expect(html).toContain('<a href="daily-kpi.csv">daily-kpi.csv</a>');
  });
});
