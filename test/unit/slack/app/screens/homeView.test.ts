/** App Home lists the latest runs across reports, as `/pivot history` lists one report's. */
import { parseReportText } from '../../../../../src/reports/index.js';
import { homeView, recentRuns } from '../../../../../src/slack/app/screens/index.js';
import { createMemoryStore } from '../../../../../src/store/index.js';

describe('App Home: recent runs', () => {
  it('lists the latest runs of every report and saved query, newest first, with outcome and duration', async () => {
    let now = Date.parse('2026-11-20T09:00:00Z');
    const store = createMemoryStore({ clock: () => new Date(now) });
    const run = async (report: string, slot: string, ok: boolean) => {
      const { run: started } = await store.runs.start({
        report,
        trigger: 'schedule',
        idempotencyKey: `digest:${report}:C1:${slot}`,
        scheduledFor: slot,
        channel: 'C1',
      });
      now += 2_000;
      await store.runs.finish(
        started.id,
        ok
          ? { status: 'succeeded', messageTs: '1.000001' }
          : { status: 'failed', error: { code: 'REPORTING_HTTP', message: 'The Reporting Service is having trouble' } },
      );
      now += 60_000;
    };
    await run('daily-kpi', '2026-11-20T09:00:00.000Z', true);
    await run('saved-spend', '2026-11-20T09:01:00.000Z', false);
    await run('daily-kpi', '2026-11-20T09:02:00.000Z', true);
    const parsed = parseReportText('title: Daily KPIs\nquery:\n  metrics: [spend]\n  range: yesterday\n', {
      file: 'reports/daily-kpi.yaml',
      id: 'daily-kpi',
      now: new Date(now),
    });
    const reports = { reports: parsed.report ? [parsed.report] : [], problems: [], broken: [] };
    const runs = recentRuns(store.runs, reports, [{ report: 'saved-spend' }]);
    expect(runs.map((r) => r.scheduledFor)).toEqual([
      '2026-11-20T09:02:00.000Z',
      '2026-11-20T09:01:00.000Z',
      '2026-11-20T09:00:00.000Z',
    ]);
    const view = homeView({
      reports,
      schedules: { lines: [], alerts: [], problems: [] },
      alerts: { text: '', blocks: [] },
      timezone: 'UTC',
      sandbox: false,
      recentRuns: runs,
    });
    const text = JSON.stringify(view.blocks);
    expect(text).toContain('Recent runs (3)');
    expect(text).toContain('slot 2026-11-20 09:01 UTC');
    expect(text).toContain('The Reporting Service is having trouble');
    expect(text).toContain('2.0 s');
    expect(text).toContain('saved-spend');
  });
});
