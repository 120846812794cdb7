import { findAlertParent } from '../../../../src/delivery/alertParents.js';
import { parentsOf, threadUrl } from '../../../../src/delivery/alertThreads.js';
import { type LoadedReport, parseReportText } from '../../../../src/reports/index.js';
import { parseAlertClick } from '../../../../src/slack/app/alertActions.js';
import { alertsOverview } from '../../../../src/slack/app/screens/alertsOverview.js';
import type { AlertEvaluation, AlertIncident } from '../../../../src/store/index.js';

const now = new Date('2026-11-23T12:00:00Z');
function report(id: string, extra: string): LoadedReport {
  const text = `title: ${id} title\nquery:\n  dimensions: [appPlatform]\n  metrics: [spend]\n  range: yesterday\n${extra}`;
  const parsed = parseReportText(text, { file: `reports/${id}.yaml`, id, now });
  if (!parsed.report) throw new Error(JSON.stringify(parsed.problems));
  return parsed.report;
}
const incident = (over: Partial<AlertIncident> = {}): AlertIncident => ({
  id: 'inc_1',
  ruleId: 'spend-high',
  reportId: 'watch',
  entityKey: 'appPlatform=IOS',
  entityLabel: 'App platform IOS',
  state: 'open',
  channel: 'C0ALERTS1',
  values: [{ at: '2026-11-23T10:00:00.000Z', value: 870 }],
  openedAt: '2026-11-23T10:00:00.000Z',
  updatedAt: '2026-11-23T10:00:00.000Z',
  lastValue: 870,
  ...over,
});

describe('parseAlertClick', () => {
  const value = JSON.stringify({ incidentId: 'inc_1', ruleId: 'r', reportId: 'p', hours: 4 });
  it.each([
    ['alert_ack', value, { incidentId: 'inc_1', action: 'ack' }],
    ['alert_snooze_1h', value, { incidentId: 'inc_1', action: 'snooze', hours: 1 }],
    ['alert_snooze_24h', value, { incidentId: 'inc_1', action: 'snooze', hours: 24 }],
    // The older single Snooze button: its value says how long.
    ['alert_snooze', value, { incidentId: 'inc_1', action: 'snooze', hours: 4 }],
    ['alert_ack', 'not json', undefined],
    ['alert_ack', JSON.stringify({ reportId: 'p' }), undefined],
    ['pivot_rerun', value, undefined],
  ])('%s with %s → %j', (actionId, raw, expected) => {
    expect(parseAlertClick(actionId, raw)).toEqual(expected);
  });
});

describe('alert parents', () => {
  const meta = (entity: string, rule = 'spend-high') => ({
    event_type: 'pivotbot_alert',
    event_payload: { report: 'watch', rule, entity, state: 'open' },
  });

  it('finds the parent of the same report, rule and entity in a channel history, never a reply', () => {
    const history = [
      { ts: '5.0', text: '', threadTs: '1.0', metadata: meta('appPlatform=IOS') },
      { ts: '4.0', text: '', metadata: meta('appPlatform=IOS', 'other-rule') },
      { ts: '3.0', text: '', metadata: meta('appPlatform=ANDROID') },
      { ts: '2.0', text: '', metadata: { event_type: 'pivotbot_digest', event_payload: {} } },
      { ts: '1.0', text: '', metadata: meta('appPlatform=IOS') },
    ];
    expect(findAlertParent(history, incident())?.ts).toBe('1.0');
    expect(findAlertParent(history.slice(0, 4), incident())).toBeUndefined();
  });

  it('lists the parents of every channel, the first channel first', () => {
    expect(parentsOf(incident())).toEqual([]);
    expect(parentsOf(incident({ threadTs: '1.1', threads: [{ channel: 'C2', ts: '2.2' }] }))).toEqual([
      { channel: 'C0ALERTS1', ts: '1.1' },
      { channel: 'C2', ts: '2.2' },
    ]);
  });

  it('links a thread by channel id and ts, and not a channel given by name', () => {
    expect(threadUrl('C0ALERTS1', '1700000000.000100')).toBe('https://slack.com/archives/C0ALERTS1/p1700000000000100');
    expect(threadUrl('#ua-daily', '1700000000.000100')).toBeUndefined();
  });
});

describe('alertsOverview', () => {
  const rules =
    'alerts:\n  - id: spend-high\n    metric: spend\n    above: 10\n  - id: spend-low\n    metric: spend\n    below: 1\n';
  const watched = report('watch', `schedule:\n  at: "09:00"\ndeliver:\n  channels: [C0ALERTS1]\n${rules}`);
  const lonely = report(
    'lonely',
    `deliver:\n  channels: [C0ALERTS1]\nalerts:\n  - id: never\n    metric: spend\n    above: 1\n`,
  );
  const evaluation: AlertEvaluation = {
    ruleKey: 'watch/spend-high',
    reportId: 'watch',
    ruleId: 'spend-high',
    lastEvaluatedAt: '2026-11-23T11:00:00.000Z',
    evaluated: 2,
    breaching: 1,
    skipped: 0,
    pending: [],
  };
  const text = (m: { blocks?: unknown; text: string }) => `${m.text} ${JSON.stringify(m.blocks)}`;

  it('never shows an all-clear for rules nobody evaluated, and names rules that cannot run', () => {
    const message = alertsOverview({
      reports: { reports: [watched, lonely] },
      incidents: { listEvaluations: () => [], listOpen: () => [] },
      now,
      timezone: 'UTC',
    });
    expect(text(message)).toContain('No rule has been evaluated yet');
    expect(text(message)).not.toContain('white_check_mark');
    expect(text(message)).toContain('Not evaluated (1)');
    expect(text(message)).toContain('alert never is not evaluated: no schedule');
  });

  it('names a rule whose latest evaluation failed, with the stored reason', () => {
    const run = (status: 'failed' | 'succeeded', at: string, rule = 'spend-high') => ({
      id: `run_${at}`,
      report: 'watch',
      trigger: 'schedule' as const,
      idempotencyKey: `alert:watch:${rule}:${at}`,
      attempt: 2,
      status,
      startedAt: at,
      finishedAt: at,
      ...(status === 'failed'
        ? { error: { code: 'REPORTING_HTTP', message: 'The Reporting Service answered 503' } }
        : {}),
    });
    const message = (runs: ReturnType<typeof run>[]) =>
      text(
        alertsOverview({
          reports: { reports: [watched] },
          incidents: { listEvaluations: () => [evaluation], listOpen: () => [] },
          runs: { listByReport: () => runs },
          now,
          timezone: 'UTC',
        }),
      );
    // Newest first, as the store lists them.
    const failing = message([run('failed', '2026-11-23T11:30:00.000Z'), run('succeeded', '2026-11-23T11:00:00.000Z')]);
    expect(failing).toContain('Latest evaluation failed (1)');
    expect(failing).toContain('The Reporting Service answered 503');
    const recovered = message([
      run('succeeded', '2026-11-23T11:30:00.000Z'),
      run('failed', '2026-11-23T11:00:00.000Z'),
    ]);
    expect(recovered).not.toContain('Latest evaluation failed');
  });

  it('shows the all-clear only when every rule ran, checked something and is not failing', () => {
    const both = (low: Partial<AlertEvaluation>, runs: unknown[] = []) =>
      text(
        alertsOverview({
          reports: { reports: [watched] },
          incidents: {
            listEvaluations: () => [
              { ...evaluation, breaching: 0 },
              { ...evaluation, ruleKey: 'watch/spend-low', ruleId: 'spend-low', breaching: 0, ...low },
            ],
            listOpen: () => [],
          },
          runs: { listByReport: () => runs as never },
          now,
          timezone: 'UTC',
        }),
      );
    expect(both({})).toContain('white_check_mark');
    // Every entity below the volume floor (a data outage can do that): nothing was looked at.
    const blind = both({ evaluated: 0, skipped: 4 });
    expect(blind).not.toContain('white_check_mark');
    expect(blind).toContain('1 checked nothing at their last run');
    expect(blind).toMatch(/spend-low.*checked nothing · 4 skipped/);
    // Its latest evaluation failed: the earlier success is no all-clear.
    const failed = both({}, [
      {
        id: 'run_1',
        report: 'watch',
        trigger: 'schedule',
        idempotencyKey: 'alert:watch:spend-low:2026-11-23T11:30:00.000Z',
        attempt: 3,
        status: 'failed',
        startedAt: '2026-11-23T11:30:00.000Z',
        finishedAt: '2026-11-23T11:30:00.000Z',
        error: { code: 'REPORTING_HTTP', message: 'The Reporting Service answered 503' },
      },
    ]);
    expect(failed).not.toContain('white_check_mark');
    expect(failed).toContain('1 failing or unable to run');
  });

  it('lists an open incident with its value, state and thread, and each rule with its last run', () => {
    const open = incident({ threadTs: '1700000000.000100', acknowledgedBy: 'U024BE7LH' });
    const message = text(
      alertsOverview({
        reports: { reports: [watched] },
        incidents: { listEvaluations: () => [evaluation], listOpen: () => [open] },
        now,
        timezone: 'UTC',
      }),
    );
    expect(message).toContain('1 open incident');
    expect(message).toContain('App platform IOS');
    expect(message).toContain('$870');
    expect(message).toContain('acknowledged by <@U024BE7LH>');
    expect(message).toContain('https://slack.com/archives/C0ALERTS1/p1700000000000100');
    expect(message).toContain('last ran');
    expect(message).toMatch(/spend-low.*not evaluated yet/);
  });
});
