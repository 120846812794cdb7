import { mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reportCache } from '../../../src/reports/reportCache.js';

describe('reportCache', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pivotbot-cache-'));
    await writeFile(join(dir, 'daily-kpi.yaml'), await readFile('reports/daily-kpi.yaml', 'utf8'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('loads once, shares concurrent calls, and reloads when a file changes or is added', async () => {
    let now = Date.parse('2026-11-21T09:00:00Z');
    const reports = reportCache(dir, { now: () => new Date(now) });
    const [a, b] = await Promise.all([reports(), reports()]);
    expect(a).toBe(b);
    expect(a.reports.map((r) => r.id)).toEqual(['daily-kpi']);
    expect(await reports()).toBe(a);

    await writeFile(join(dir, 'broken.yaml'), 'title: [unclosed\n');
    const withBroken = await reports();
    expect(withBroken).not.toBe(a);
    expect(withBroken.broken).toEqual(['broken']);

    const text = (await readFile(join(dir, 'daily-kpi.yaml'), 'utf8')).replace(/^title: .*$/m, 'title: Renamed KPIs');
    await writeFile(join(dir, 'daily-kpi.yaml'), text);
    await utimes(join(dir, 'daily-kpi.yaml'), new Date(now / 1000 + 5), new Date(now / 1000 + 5));
    expect((await reports()).reports[0]?.definition.title).toBe('Renamed KPIs');

    const current = await reports();
    now += 61_000;
    expect(await reports()).not.toBe(current);
  });
});
