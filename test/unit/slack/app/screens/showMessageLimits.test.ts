/** `/pivot show` cuts a long report description to Slack's limit without breaking a channel link. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SLACK_LIMITS } from '../../../../../src/render/index.js';
import { loadReports } from '../../../../../src/reports/index.js';
import { showMessage } from '../../../../../src/slack/app/screens/infoMessages.js';
import type { Subscription } from '../../../../../src/store/index.js';

describe('/pivot show', () => {
  it('cuts a section past 3,000 characters before a channel link, never inside one, and marks the cut', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pivotbot-show-'));
    try {
      await writeFile(join(dir, 'daily.yaml'), 'title: Daily\nquery:\n  metrics: [spend]\n  range: yesterday\n');
      const loaded = await loadReports(dir, { now: new Date('2026-11-20T12:00:00Z') });
      const report = loaded.reports[0];
      if (!report) throw new Error('the report did not load');
      // 200 subscribed channels: their links alone are past the limit.
      const subscriptions: Subscription[] = Array.from({ length: 200 }, (_, i) => ({
        id: `s${i}`,
        report: 'daily',
        channel: `C${String(i).padStart(10, '0')}`,
        createdBy: 'U1',
        createdAt: '2026-11-20T12:00:00Z',
        updatedAt: '2026-11-20T12:00:00Z',
      }));
      const [section] = showMessage(report, subscriptions, 'UTC').blocks;
      const text = section?.type === 'section' ? (section.text?.text ?? '') : '';
      expect(text.length).toBeLessThanOrEqual(SLACK_LIMITS.sectionText);
      expect(text.endsWith('…')).toBe(true);
      // Every `<` opens a link that is closed: none is cut in half.
      expect(text.split('<').length).toBe(text.split('>').length);
      expect(text).not.toMatch(/<[^>]*…$/);
      expect(text).toContain('<#C0000000000>');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
