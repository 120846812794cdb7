import { type LoadedReport, parseReportText } from '../../../src/reports/index.js';
import { listSchedules } from '../../../src/scheduler/index.js';
import type { Subscription } from '../../../src/store/index.js';

const now = new Date('2026-11-20T12:00:00Z');
function report(id: string, extra: string): LoadedReport {
  const text = `title: ${id}\nquery:\n  metrics: [spend]\n  range: yesterday\n${extra}`;
  const parsed = parseReportText(text, { file: `reports/${id}.yaml`, id, now });
  if (!parsed.report) throw new Error(JSON.stringify(parsed.problems));
  return parsed.report;
}
const sub = (over: Partial<Subscription>): Subscription => ({
  id: 'sub_1',
  report: 'daily',
  channel: 'C9',
  createdBy: 'U1',
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
  ...over,
});

const daily = report(
  'daily',
  'schedule:\n  at: "09:00"\n  days: weekdays\n  timezone: America/Sao_Paulo\n  catchUp: none\n  retry: { attempts: 2, backoff: 30s }\n  waitForData: { metric: impressions }\ndeliver:\n  channels: ["#ua", C0123ABCD]\n',
);
const weekly = report('weekly', 'schedule:\n  cron: "0 8 * * 1"\ndeliver:\n  channels: ["#growth"]\n');
const unscheduled = report('adhoc', 'deliver:\n  channels: ["#x"]\n');
const queryZone = report(
  'tokyo',
  'schedule:\n  at: "07:00"\ndeliver:\n  channels: ["#jp"]\n'.replace('range: yesterday', ''),
);
queryZone.definition.query.timezone = 'Asia/Tokyo';

const reports = { reports: [daily, weekly, unscheduled, queryZone], broken: ['broken-one'] };
const defaults = { timezone: 'Europe/Berlin' };

describe('listSchedules', () => {
  it('makes one schedule per report and delivery channel, with the report settings', () => {
    const { schedules } = listSchedules(reports, [], defaults);
    expect(schedules.map((s) => s.id)).toEqual([
      'report:daily:#ua:09:00 weekdays@America/Sao_Paulo',
      'report:daily:C0123ABCD:09:00 weekdays@America/Sao_Paulo',
      'report:weekly:#growth:0 8 * * 1@Europe/Berlin',
      'report:tokyo:#jp:07:00 daily@Asia/Tokyo',
    ]);
    expect(schedules[0]).toEqual({
      id: 'report:daily:#ua:09:00 weekdays@America/Sao_Paulo',
      report: 'daily',
      channel: '#ua',
      source: 'report',
      timezone: 'America/Sao_Paulo',
      at: '09:00',
      days: 'weekdays',
      catchUp: null,
      retry: { attempts: 2, backoffMs: 30_000 },
      waitForData: { metric: 'impressions', minShare: 0.5, waitMs: 7_200_000 },
    });
    expect(schedules[2]).toMatchObject({ catchUp: 6 * 3_600_000, retry: { attempts: 3, backoffMs: 120_000 } });
  });

  it.each<[string, Partial<Subscription>, Record<string, unknown>]>([
    [
      'the report schedule and zone when it names none',
      {},
      { at: '09:00', days: 'weekdays', timezone: 'America/Sao_Paulo' },
    ],
    ['its own at, in the report zone', { at: '07:30' }, { at: '07:30', timezone: 'America/Sao_Paulo' }],
    [
      'its own cron and zone',
      { cron: '0 18 * * 5', timezone: 'asia/kolkata' },
      { cron: '0 18 * * 5', timezone: 'Asia/Kolkata' },
    ],
    ['the older schedule field as its cron', { schedule: '15 9 * * *' }, { cron: '15 9 * * *' }],
  ])('gives a subscription %s', (_name, over, expected) => {
    const { schedules, problems } = listSchedules(reports, [sub(over)], defaults);
    expect(problems.filter((p) => p.source === 'subscription')).toEqual([]);
    const spec = schedules.find((s) => s.source === 'subscription');
    expect(spec).toMatchObject({ report: 'daily', channel: 'C9', subscriptionId: 'sub_1', ...expected });
    expect(spec?.id.startsWith('subscription:sub_1:')).toBe(true);
  });

  it('uses PIVOTBOT_TIMEZONE for a subscription time when neither it nor the report names a zone', () => {
    const { schedules } = listSchedules(reports, [sub({ report: 'adhoc', at: '10:00' })], defaults);
    expect(schedules.find((s) => s.source === 'subscription')).toMatchObject({
      timezone: 'Europe/Berlin',
      catchUp: 6 * 3_600_000,
      retry: { attempts: 3, backoffMs: 120_000 },
    });
  });

  it.each<[string, Partial<Subscription>, string]>([
    [
      'to a report without schedule and without a time of its own',
      { report: 'adhoc' },
      'report "adhoc" has no schedule and the subscription names no time; subscribe again with "at HH:MM" or "cron …"',
    ],
    ['to a report that is gone', { report: 'dayly' }, 'there is no report "dayly". Did you mean "daily"?'],
    ['with a bad zone', { at: '09:00', timezone: 'Europe/Berln' }, '"Europe/Berln" is not an IANA time zone'],
    ['with a bad cron', { cron: '0 25 * * *' }, 'the hour field "25" is out of range 0-23'],
  ])('reports a subscription %s as a problem', (_name, over, message) => {
    const { schedules, problems } = listSchedules(reports, [sub(over)], defaults);
    expect(schedules.filter((s) => s.source === 'subscription')).toEqual([]);
    const problem = problems.find((p) => p.source === 'subscription');
    expect(problem).toMatchObject({ report: over.report ?? 'daily', channel: 'C9', subscriptionId: 'sub_1' });
    expect(problem?.message).toContain(message);
  });

  it('reports a broken report file once, and not again for its subscriptions', () => {
    const { problems } = listSchedules(reports, [sub({ report: 'broken-one' })], defaults);
    expect(problems).toEqual([
      {
        source: 'report',
        report: 'broken-one',
        message: 'the report file has errors, so its schedules are paused until it is fixed (see pivotbot validate)',
      },
    ]);
  });
});
