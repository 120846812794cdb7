import { type LoadedReport, parseReportText } from '../../../src/reports/index.js';
import {
  alertRunKey,
  listAlertSchedules,
  parseAlertRunKey,
  parseRunKey,
  specRunKey,
  specRunKeyPrefix,
} from '../../../src/scheduler/index.js';

const now = new Date('2026-11-20T12:00:00Z');
function report(id: string, extra: string): LoadedReport {
  const text = `title: ${id}\nquery:\n  dimensions: [appPlatform]\n  metrics: [spend, installs]\n  range: yesterday\n${extra}`;
  const parsed = parseReportText(text, { file: `reports/${id}.yaml`, id, now });
  if (!parsed.report) throw new Error(JSON.stringify(parsed.problems));
  return parsed.report;
}
const rule = (id: string, more = '') => `  - id: ${id}\n    metric: spend\n    above: 10\n${more}`;

const scheduled = report(
  'daily',
  `schedule:\n  at: "09:00"\n  days: weekdays\n  timezone: America/Sao_Paulo\ndeliver:\n  channels: ["#ua", C0123ABCD]\nalerts:\n${rule('on-report')}${rule('own-check', '    check: { cron: "*/30 * * * *", timezone: Europe/Berlin }\n')}`,
);
const unscheduled = report(
  'adhoc',
  `deliver:\n  channels: ["#x"]\nalerts:\n${rule('never-run')}${rule('checked', '    check: { cron: "0 * * * *" }\n')}`,
);
const nowhere = report('nowhere', `schedule:\n  at: "08:00"\nalerts:\n${rule('no-channel')}`);
const defaults = { timezone: 'UTC' };

describe('listAlertSchedules', () => {
  const { schedules, problems } = listAlertSchedules({ reports: [scheduled, unscheduled, nowhere] }, defaults);

  it.each([
    [
      'daily',
      'on-report',
      'alert:daily:on-report:09:00 weekdays@America/Sao_Paulo',
      '#ua',
      { at: '09:00', days: 'weekdays' },
    ],
    ['daily', 'own-check', 'alert:daily:own-check:*/30 * * * *@Europe/Berlin', '#ua', { cron: '*/30 * * * *' }],
    ['adhoc', 'checked', 'alert:adhoc:checked:0 * * * *@UTC', '#x', { cron: '0 * * * *' }],
  ])('%s/%s runs on its check or its report schedule', (reportId, ruleId, id, channel, timing) => {
    const spec = schedules.find((s) => s.rule === ruleId);
    expect(spec).toMatchObject({ kind: 'alert', report: reportId, rule: ruleId, id, channel, ...timing });
  });

  it('names every rule that cannot be evaluated, and why, instead of skipping it', () => {
    expect(schedules).toHaveLength(3);
    expect(problems).toEqual([
      expect.objectContaining({ report: 'adhoc', rule: 'never-run', message: expect.stringContaining('no schedule') }),
      expect.objectContaining({
        report: 'nowhere',
        rule: 'no-channel',
        message: expect.stringContaining('no deliver.channels'),
      }),
    ]);
  });
});

describe('alert run keys', () => {
  const slot = new Date('2026-11-23T12:00:00Z');

  it('names the report, rule and slot, and parses back', () => {
    const key = alertRunKey('daily-kpi', 'cpi-too-high', slot);
    expect(key).toBe('alert:daily-kpi:cpi-too-high:2026-11-23T12:00:00.000Z');
    expect(parseAlertRunKey(key)).toEqual({ report: 'daily-kpi', rule: 'cpi-too-high', slot });
    expect(parseRunKey(key)).toBeUndefined();
    expect(parseAlertRunKey('digest:daily-kpi:C1:2026-11-23T12:00:00.000Z')).toBeUndefined();
  });

  it.each([
    [{ report: 'r', channel: 'C1' }, 'digest:r:C1:2026-11-23T12:00:00.000Z', 'digest:r:C1:'],
    [{ kind: 'digest' as const, report: 'r', channel: 'C1' }, 'digest:r:C1:2026-11-23T12:00:00.000Z', 'digest:r:C1:'],
    [
      { kind: 'alert' as const, report: 'r', channel: 'C1', rule: 'x' },
      'alert:r:x:2026-11-23T12:00:00.000Z',
      'alert:r:x:',
    ],
  ])('keys a %j slot by its kind', (spec, key, prefix) => {
    expect(specRunKey(spec, slot)).toBe(key);
    expect(specRunKeyPrefix(spec)).toBe(prefix);
  });
});
