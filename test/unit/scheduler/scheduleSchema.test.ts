import { formatReportProblem, parseReportText } from '../../../src/reports/index.js';

const now = new Date('2026-11-20T12:00:00Z');
const withSchedule = (schedule: string) =>
  `title: Daily\nquery:\n  metrics: [spend]\n  range: yesterday\nschedule:\n${schedule
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n')}\n`;
const parse = (schedule: string) => parseReportText(withSchedule(schedule), { file: 'reports/x.yaml', id: 'x', now });
const messages = (schedule: string) => parse(schedule).problems.map(formatReportProblem);

describe('schedule in a report definition', () => {
  it('applies the defaults: catch up 6h, 3 attempts 2m apart, no data wait', () => {
    const schedule = parse('at: "09:00"').report?.definition.schedule;
    expect(schedule).toEqual({ at: '09:00', catchUp: '6h', retry: { attempts: 3, backoff: '2m' } });
  });

  it('reads catchUp none, a retry policy, waitForData and a 6-field cron', () => {
    const schedule = parse(
      'cron: "*/30 * * * * *"\ncatchUp: none\nretry: { attempts: 5, backoff: 30s }\nwaitForData: { metric: impressions, minShare: 0.6, wait: 90m }',
    ).report?.definition.schedule;
    expect(schedule).toEqual({
      cron: '*/30 * * * * *',
      catchUp: 'none',
      retry: { attempts: 5, backoff: '30s' },
      waitForData: { metric: 'impressions', minShare: 0.6, wait: '90m' },
    });
  });

  it.each([
    ['cron: "61 9 * * *"', /schedule\.cron: "61 9 \* \* \*": the minute field "61" is out of range 0-59/],
    ['cron: "0 9 * *"', /has 5 fields/],
    ['cron: "0 0 31 2 *"', /never fires/],
    [
      'at: "09:00"\ntimezone: Europe/Berln',
      /schedule\.timezone: "Europe\/Berln" is not an IANA time zone .*Did you mean "Europe\/Berlin"/,
    ],
    ['at: "09:00"\ntimezone: Sao Paulo', /Did you mean "America\/Sao_Paulo"/],
    ['at: "09:00"\ncatchUp: 6 hours', /schedule\.catchUp: "6 hours": must be a duration like 90s, 30m, 6h or 1d/],
    ['at: "09:00"\nretry: { attempts: 0 }', /schedule\.retry\.attempts/],
    [
      'at: "09:00"\nretry: { tries: 3 }',
      /schedule\.retry\.tries: unknown field "tries" \(allowed: attempts, backoff\)/,
    ],
    ['at: "09:00"\nwaitForData: { metric: impressions, minShare: 2 }', /schedule\.waitForData\.minShare/],
    ['at: "09:00"\ncatchup: 1h', /catchup.*Did you mean "catchUp"\?/],
  ])('%s is refused with a clear message', (schedule, message) => {
    expect(messages(schedule).join('\n')).toMatch(message);
  });
});
