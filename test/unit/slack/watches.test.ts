import { listAlertSchedules, listSchedules } from '../../../src/scheduler/index.js';
import { savedQueryYaml, withSavedQueryReports } from '../../../src/slack/index.js';
import type { Subscription } from '../../../src/store/index.js';

const now = new Date('2026-03-10T12:00:00Z');
const watch: Subscription = {
  id: 'sub-1',
  report: 'watch-cpi-by-country',
  channel: 'C0GENERAL1',
  query: 'installsCpi by countryCode yesterday',
  watch: {
    id: 'cpi-by-country',
    metric: 'installsCpi',
    anomaly: { baseline: 'same_weekday', weeks: 4 },
    check: { cron: '0 9 * * *' },
  },
  createdBy: 'U0ADMIN1',
  createdAt: now.toISOString(),
  updatedAt: now.toISOString(),
};
const empty = { reports: [], problems: [], broken: [], glossary: undefined } as never;

describe('watches ("Watch this") as reports', () => {
  it('become a report whose one alert rule the scheduler evaluates on its check, with no digest', () => {
    const loaded = withSavedQueryReports(empty, [watch], { now, defaultTimeZone: 'UTC' });
    const report = loaded.reports.find((r) => r.id === 'watch-cpi-by-country');
    expect(report?.definition.alerts?.[0]?.metric).toBe('installsCpi');
    expect(report?.definition.deliver?.channels).toEqual(['C0GENERAL1']);
    expect(report?.definition.schedule).toBeUndefined();
    const alerts = listAlertSchedules(loaded, { timezone: 'UTC' });
    expect(alerts.problems).toEqual([]);
    expect(alerts.schedules.map((s) => [s.kind, s.report])).toEqual([['alert', 'watch-cpi-by-country']]);
    const digests = listSchedules(loaded, [watch], { timezone: 'UTC' });
    expect(digests).toEqual({ schedules: [], problems: [] });
  });

  it('a rule that does not parse makes the watch broken, with why', () => {
    const bad = { ...watch, watch: { id: 'x', metric: 'installsCpi' } };
    const loaded = withSavedQueryReports(empty, [bad], { now, defaultTimeZone: 'UTC' });
    expect(loaded.broken).toEqual(['watch-cpi-by-country']);
    expect(loaded.problems[0]?.message).toContain('exactly one condition');
  });

  it('prints as a report file with its rule (pivotbot export)', () => {
    const yaml = savedQueryYaml(watch, { now, defaultTimeZone: 'UTC' });
    expect(yaml).toContain('# pivotbot export cpi-by-country: the watch on');
    expect(yaml).toContain('alerts:');
    expect(yaml).toContain('baseline: same_weekday');
    expect(yaml).toContain('- C0GENERAL1');
  });
});
