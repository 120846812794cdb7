/**
 * Alert checks in `/pivot schedule` and alert runs in `/pivot history`: listed as evaluations
 * (next evaluation, last outcome, what it opened and resolved), never as digests that "posted".
 */
import { type LoadedReport, parseReportText } from '../../../src/reports/index.js';
import {
  alertChanges,
  historyMessage,
  scheduleListMessage,
  scheduleOverview,
} from '../../../src/slack/app/screens/scheduleMessages.js';
import type { AlertEvaluation, AlertIncident, Run } from '../../../src/store/index.js';

const now = new Date('2026-11-23T09:10:00Z');
const SLOT = '2026-11-23T09:00:00.000Z';

const report = parseReportText(
  `title: Daily KPIs
query:
  dimensions: [countryCode]
  metrics: [installsCpi, installs]
  range: yesterday
  timezone: UTC
schedule: { at: "08:00", timezone: UTC }
deliver:
  channels: [C0ALERTS1]
alerts:
  - id: cpi-high
    metric: installsCpi
    above: 6
    check: { cron: "*/30 * * * *", timezone: UTC }
`,
  { file: 'reports/daily-kpi.yaml', id: 'daily-kpi', now },
).report as LoadedReport;
const reports = { reports: [report], problems: [], broken: [] };

const run = (key: string, fields: Partial<Run> = {}): Run => ({
  id: `run_${key}`,
  report: 'daily-kpi',
  trigger: 'schedule',
  scheduledFor: SLOT,
  idempotencyKey: key,
  attempt: 1,
  status: 'succeeded',
  channel: 'C0ALERTS1',
  startedAt: SLOT,
  finishedAt: SLOT,
  durationMs: 800,
  ...fields,
});

const incident = (entity: string, fields: Partial<AlertIncident>): AlertIncident => ({
  id: `inc_${entity}`,
  ruleId: 'cpi-high',
  reportId: 'daily-kpi',
  entityKey: `countryCode=${entity}`,
  state: 'open',
  channel: 'C0ALERTS1',
  values: [],
  openedAt: '2026-11-22T09:00:00.000Z',
  updatedAt: SLOT,
  ...fields,
});

const incidents = [
  incident('BR', { openedAt: SLOT }),
  incident('US', { openedAt: '2026-11-20T09:00:00.000Z', reopenedAt: SLOT }),
  incident('DE', { state: 'resolved', resolvedAt: SLOT }),
  incident('FR', {}),
];
const evaluation: AlertEvaluation = {
  ruleKey: 'daily-kpi/cpi-high',
  reportId: 'daily-kpi',
  ruleId: 'cpi-high',
  lastEvaluatedAt: SLOT,
  evaluated: 12,
  breaching: 3,
  skipped: 2,
  pending: [],
};
const records = {
  getEvaluation: (reportId: string, ruleId: string) =>
    reportId === 'daily-kpi' && ruleId === 'cpi-high' ? evaluation : undefined,
  listByReportRule: () => incidents,
};
const alertRun = run(`alert:daily-kpi:cpi-high:${SLOT}`);
const digestRun = run(`digest:daily-kpi:C0ALERTS1:${SLOT}`);
const runs = { listByReport: () => [alertRun, digestRun] };

const text = (message: { blocks?: unknown[] }) => JSON.stringify(message.blocks);

describe('alert checks in /pivot schedule', () => {
  it('lists each rule that can run as an alert check with its next evaluation and what its last one found', () => {
    const overview = scheduleOverview({ reports, subscriptions: [], runs, incidents: records, timezone: 'UTC', now });
    expect(overview.lines.map((l) => l.spec.kind ?? 'digest')).toEqual(['digest']);
    expect(overview.alerts.map((l) => [l.spec.rule, l.next?.toISOString(), l.lastRun?.id])).toEqual([
      ['cpi-high', '2026-11-23T09:30:00.000Z', alertRun.id],
    ]);
    const message = scheduleListMessage(overview);
    expect(message.text).toBe('1 schedule(s), 1 alert check(s)');
    const body = text(message);
    expect(body).toContain('Alert checks (1)');
    expect(body).toContain('`cpi-high`');
    expect(body).toContain('next evaluation Mon 23 Nov 09:30');
    expect(body).toContain('evaluated: 2 opened, 1 resolved · 12 checked, 3 in breach, 2 skipped');
    // The digest line is still a post.
    expect(body).toContain('posted');
  });

  it('says "no run yet" for a check that never ran, and lists no alert section without rules', () => {
    const overview = scheduleOverview({
      reports,
      subscriptions: [],
      runs: { listByReport: () => [] },
      timezone: 'UTC',
      now,
    });
    expect(text(scheduleListMessage(overview))).toContain('last: no run yet');
    const none = scheduleListMessage({ ...overview, alerts: [] });
    expect(text(none)).not.toContain('Alert checks');
  });
});

describe('alert runs in /pivot history', () => {
  it.each([
    ['succeeded', 'evaluated: 2 opened, 1 resolved', incidents],
    ['succeeded', 'evaluated: nothing opened or resolved', [incident('FR', {})]],
    ['failed', 'failed (attempt 1)', incidents],
  ] as const)('a %s alert run reads "%s"', (status, expected, list) => {
    const failed = status === 'failed' ? { error: { code: 'X', message: 'boom' } } : {};
    const message = historyMessage(
      { id: 'daily-kpi', title: 'Daily KPIs' },
      [run(alertRun.idempotencyKey, { status, ...failed })],
      { listByReportRule: () => list },
    );
    const body = text(message);
    expect(body).toContain('alert check `cpi-high`');
    expect(body).toContain(expected);
    expect(body).not.toContain('posted');
  });

  it('keeps "posted" for digest runs', () => {
    expect(text(historyMessage({ id: 'daily-kpi', title: 'Daily KPIs' }, [digestRun]))).toContain('posted');
  });

  it('counts only the incidents stamped with the slot', () => {
    expect(alertChanges(incidents, '2026-11-23T09:00:00Z')).toEqual({ opened: 2, resolved: 1 });
    expect(alertChanges(incidents, '2026-11-23T09:30:00.000Z')).toEqual({ opened: 0, resolved: 0 });
  });
});
