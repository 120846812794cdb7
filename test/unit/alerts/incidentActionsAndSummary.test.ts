import {
  acknowledge,
  anomalyScore,
  IncidentActionError,
  median,
  snooze,
  summarizeAlerts,
} from '../../../src/alerts/index.js';
import type { AlertEvaluation, AlertIncident } from '../../../src/store/index.js';
import { rule } from './alertFixtures.js';

const NOW = new Date('2026-11-20T09:00:00.000Z');
const open: AlertIncident = {
  id: 'inc_1',
  ruleId: 'cpi-high',
  reportId: 'daily-kpi',
  entityKey: 'countryCode=BR',
  entityLabel: 'Country BR',
  state: 'open',
  channel: 'C1',
  values: [],
  openedAt: '2026-11-20T06:00:00.000Z',
  updatedAt: '2026-11-20T06:00:00.000Z',
};

describe('acknowledge and snooze', () => {
  it('records who acknowledged and when, once', () => {
    const acked = acknowledge(open, 'U024BE7LH', NOW);
    expect(acked).toMatchObject({ acknowledgedBy: 'U024BE7LH', acknowledgedAt: NOW.toISOString() });
    expect(acknowledge(acked, 'U999', new Date(NOW.getTime() + 60_000))).toBe(acked);
  });

  it.each([1, 4, 24])('snoozes for %i h', (hours) => {
    expect(snooze(open, hours, NOW).snoozedUntil).toBe(new Date(NOW.getTime() + hours * 3_600_000).toISOString());
  });

  it.each([
    ['a resolved incident', () => acknowledge({ ...open, state: 'resolved' }, 'U1', NOW), /already resolved/],
    ['zero hours', () => snooze(open, 0, NOW), /1 to 168 whole hours/],
    ['a fraction', () => snooze(open, 1.5, NOW), /1 to 168 whole hours/],
    ['a resolved snooze', () => snooze({ ...open, state: 'resolved' }, 1, NOW), /already resolved/],
  ])('refuses %s with a clear error', (_name, act, message) => {
    expect(act).toThrow(IncidentActionError);
    expect(act).toThrow(message);
  });
});

describe('anomalyScore', () => {
  it.each([
    ['odd count', [3, 1, 2], 2],
    ['even count', [4, 1, 3, 2], 2.5],
  ])('median of an %s', (_name, values, expected) => {
    expect(median(values)).toBe(expected);
  });

  it('corrects the MAD of a small baseline (×1.363 for four weeks) and floors it at 10 % of the median', () => {
    // [1, 2, 3, 4]: median 2.5, MAD 1
    expect(anomalyScore(2.5, [1, 2, 3, 4], 3)?.spread).toBeCloseTo(1.4826 * 1.363, 9);
    // [100, 101, 99, 100]: MAD 0.5 → 1.01, under the floor of 10
    expect(anomalyScore(100, [100, 101, 99, 100], 3)?.spread).toBe(10);
  });

  it('is undefined with fewer than three baseline values', () => {
    expect(anomalyScore(5, [1, 2], 3)).toBeUndefined();
  });

  it('scores a series that was always 0 as infinitely far from any other value', () => {
    expect(anomalyScore(1, [0, 0, 0, 0], 3)?.score).toBe(Number.POSITIVE_INFINITY);
    expect(anomalyScore(0, [0, 0, 0, 0], 3)?.score).toBe(0);
  });

  it('is not moved by one wild week', () => {
    const calm = anomalyScore(10, [10, 10.5, 9.5, 10, 500], 3);
    expect(calm?.median).toBe(10);
    expect(Math.abs(calm?.score ?? 99)).toBeLessThan(1);
  });
});

describe('summarizeAlerts', () => {
  const reports = [
    { id: 'daily-kpi', title: 'Daily KPIs', rules: [rule({ id: 'cpi-high', name: 'CPI above target', above: 6 })] },
    { id: 'country-breakdown', title: 'Country breakdown', rules: [rule({ id: 'ctr-low', below: 0.002 })] },
  ];
  const evaluation: AlertEvaluation = {
    ruleKey: 'daily-kpi/cpi-high',
    reportId: 'daily-kpi',
    ruleId: 'cpi-high',
    lastEvaluatedAt: '2026-11-20T08:00:00.000Z',
    evaluated: 2,
    breaching: 1,
    skipped: 0,
    pending: [],
  };

  it('tells a never-evaluated rule from an evaluated one', () => {
    const summary = summarizeAlerts({ reports, evaluations: [], openIncidents: [] });
    expect(summary).toMatchObject({ evaluatedRules: 0, neverEvaluated: 2, open: [] });
    expect(summary.rules.every((r) => r.lastEvaluatedAt === undefined)).toBe(true);
    const later = summarizeAlerts({ reports, evaluations: [evaluation], openIncidents: [open] });
    expect(later).toMatchObject({ evaluatedRules: 1, neverEvaluated: 1 });
    expect(later.rules[0]).toMatchObject({
      ruleName: 'CPI above target',
      lastEvaluatedAt: evaluation.lastEvaluatedAt,
      openIncidents: 1,
    });
    expect(later.rules[1]?.lastEvaluatedAt).toBeUndefined();
    expect(later.open).toEqual([
      { incident: open, reportId: 'daily-kpi', reportTitle: 'Daily KPIs', ruleName: 'CPI above target' },
    ]);
  });

  it('still lists an incident whose rule was removed', () => {
    const orphan = { ...open, ruleId: 'gone', reportId: 'old-report' };
    expect(summarizeAlerts({ reports, evaluations: [], openIncidents: [orphan] }).open[0]).toMatchObject({
      reportTitle: 'old-report',
      ruleName: 'gone',
    });
  });
});
