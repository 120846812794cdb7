import { savedQueryYaml, withSavedQueryReports } from '../../../../src/query/index.js';
import { listAlertSchedules, listSchedules } from '../../../../src/scheduler/index.js';
import { suggestionTag, validateWatchForm, watchModalView } from '../../../../src/slack/app/watchModal.js';
import type { Subscription } from '../../../../src/store/index.js';

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

describe('the Watch this form', () => {
  const form = {
    name: 'br-spend',
    metric: 'spend',
    on: 'row:countryCode=BR',
    rule: 'anomaly',
    threshold: '',
    time: '07:45',
  };
  const context = { metrics: ['spend', 'installs'], taken: () => false, timezone: 'Europe/Berlin' };

  it('a suggested threshold becomes the rule, for the row picked; the caller narrows the query to that row', () => {
    const rule = `suggest-below:402.1:${suggestionTag('spend', 'row:countryCode=BR')}`;
    expect(validateWatchForm({ ...form, rule }, context)).toEqual({
      ok: true,
      name: 'br-spend',
      row: 'countryCode=BR',
      rule: {
        id: 'br-spend',
        metric: 'spend',
        on: 'entity',
        below: 402.1,
        check: { cron: '45 7 * * *', timezone: 'Europe/Berlin' },
      },
    });
  });

  it('a suggestion computed for another metric or row is refused under the rule', () => {
    const rule = `suggest-above:812.4:${suggestionTag('spend', 'total')}`;
    expect(validateWatchForm({ ...form, rule }, context)).toEqual({
      ok: false,
      errors: { watch_rule: 'That suggestion was for another metric or row; pick the rule again.' },
    });
  });

  it.each([
    ['the total', 'total', 'total', undefined],
    ['each row', 'entity', 'entity', undefined],
    ['a row of two dimensions', 'row:countryCode=BR|source=6', 'entity', 'countryCode=BR|source=6'],
    [
      'a campaign whose name holds |',
      'row:campaign=US | iOS | Summer|countryCode=BR',
      'entity',
      'campaign=US | iOS | Summer|countryCode=BR',
    ],
  ])('watching %s', (_name, on, expected, row) => {
    const verdict = validateWatchForm({ ...form, on }, context);
    if (!verdict.ok) throw new Error(JSON.stringify(verdict.errors));
    expect(verdict.rule.on).toBe(expected);
    expect(verdict.row).toBe(row);
  });

  it('a row value that is not dimension=value pairs, or an unknown rule, is refused', () => {
    expect(validateWatchForm({ ...form, on: 'row:nonsense' }, context)).toMatchObject({
      ok: false,
      errors: { watch_on: expect.stringContaining('one row') },
    });
    expect(validateWatchForm({ ...form, rule: 'between' }, context)).toMatchObject({
      ok: false,
      errors: { watch_rule: 'Pick a rule.' },
    });
  });

  it('the modal offers the rows and, for one row, the suggested thresholds with what they are', () => {
    const view = watchModalView({
      query: 'spend by country yesterday',
      channel: 'C1',
      metrics: ['spend'],
      byEntity: true,
      timezone: 'UTC',
      selected: { metric: 'spend', on: 'row:countryCode=BR' },
      choices: {
        rows: [
          { key: 'countryCode=US', label: 'Country US' },
          { key: 'countryCode=BR', label: 'Country BR' },
        ],
        suggestion: { above: 812.4, below: 402.1, days: 14 },
      },
    });
    const text = JSON.stringify(view);
    expect(text).toContain('"text":"Only Country BR"},"value":"row:countryCode=BR"');
    expect(text).toContain(`"value":"suggest-below:402.1:${suggestionTag('spend', 'row:countryCode=BR')}"`);
    expect(text).toContain('Below 402.1, the lowest of the 14 days before');
    expect(text).toContain('the highest and lowest daily values of the 14 days before the answer’s day');
    // The row picked stays picked in the redraw.
    const on = (view.blocks as Array<{ block_id?: string; element?: { initial_option?: { value: string } } }>).find(
      (b) => b.block_id === 'watch_on',
    );
    expect(on?.element?.initial_option?.value).toBe('row:countryCode=BR');
  });
});
