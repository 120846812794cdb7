/** `/pivot list` names a broken report file instead of leaving it out in silence. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadReports } from '../../../../../src/reports/index.js';
import { listMessage } from '../../../../../src/slack/app/screens/index.js';

describe('/pivot list', () => {
  it('lists the good reports and names the broken file, pointing to pivotbot validate', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pivotbot-list-'));
    try {
      await writeFile(join(dir, 'good.yaml'), 'title: Good\nquery:\n  metrics: [spend]\n  range: yesterday\n');
      await writeFile(join(dir, 'broken.yaml'), 'title: Broken\nquery:\n  metrics: [cpii]\n  range: yesterday\n');
      const loaded = await loadReports(dir, { now: new Date('2026-11-20T12:00:00Z') });
      const text = JSON.stringify(listMessage(loaded, 'UTC').blocks);
      expect(text).toContain('`good`');
      expect(text).toContain('1 definition(s) have problems: `broken`');
      expect(text).toContain('pivotbot validate');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
