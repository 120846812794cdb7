import type { ScheduleSpec } from '../../../src/scheduler/index.js';
import { CronSyntaxError, firesBetween, nextFires, parseCron } from '../../../src/time/index.js';

type Timing = Pick<ScheduleSpec, 'cron' | 'at' | 'days' | 'timezone'>;
const iso = (dates: Date[]) => dates.map((d) => d.toISOString().replace('.000Z', 'Z'));
const next = (timing: Timing, from: string, count: number) => iso(nextFires(timing, new Date(from), count));

describe('nextFires on daylight-saving days (RFC 5545 / Temporal "compatible")', () => {
  it.each<[string, Timing, string, string[]]>([
    // America/New_York: 2026-03-08 02:00 EST → 03:00 EDT; 2026-11-01 02:00 EDT → 01:00 EST.
    [
      'New York: 02:30 in the spring gap fires at 03:30 EDT',
      { cron: '30 2 * * *', timezone: 'America/New_York' },
      '2026-03-07T12:00:00Z',
      ['2026-03-08T07:30:00Z', '2026-03-09T06:30:00Z'],
    ],
    [
      'New York: 01:30, repeated at fall back, fires once, at its first (EDT) occurrence',
      { cron: '30 1 * * *', timezone: 'America/New_York' },
      '2026-10-31T12:00:00Z',
      ['2026-11-01T05:30:00Z', '2026-11-02T06:30:00Z'],
    ],
    [
      'New York: every hour fires every real hour through the repeated hour',
      { cron: '0 * * * *', timezone: 'America/New_York' },
      '2026-11-01T03:30:00Z',
      ['2026-11-01T04:00:00Z', '2026-11-01T05:00:00Z', '2026-11-01T06:00:00Z', '2026-11-01T07:00:00Z'],
    ],
    [
      'New York: every hour neither doubles nor drops across the spring gap',
      { cron: '0 * * * *', timezone: 'America/New_York' },
      '2026-03-08T05:30:00Z',
      ['2026-03-08T06:00:00Z', '2026-03-08T07:00:00Z', '2026-03-08T08:00:00Z'],
    ],
    [
      'New York: every 15 minutes runs on real time through the gap',
      { cron: '*/15 * * * *', timezone: 'America/New_York' },
      '2026-03-08T06:40:00Z',
      ['2026-03-08T06:45:00Z', '2026-03-08T07:00:00Z', '2026-03-08T07:15:00Z'],
    ],
    [
      'New York: a fixed hour with a minute step fires only the first pass of the repeated hour',
      { cron: '*/30 1 * * *', timezone: 'America/New_York' },
      '2026-11-01T04:00:00Z',
      ['2026-11-01T05:00:00Z', '2026-11-01T05:30:00Z', '2026-11-02T06:00:00Z'],
    ],
    // Europe/Berlin: 2026-03-29 02:00 CET → 03:00 CEST; 2026-10-25 03:00 CEST → 02:00 CET.
    [
      'Berlin: 02:30 on the spring-forward night fires at 03:30 CEST',
      { at: '02:30', timezone: 'Europe/Berlin' },
      '2026-03-28T00:00:00Z',
      ['2026-03-28T01:30:00Z', '2026-03-29T01:30:00Z', '2026-03-30T00:30:00Z'],
    ],
    [
      'Berlin: 02:30 on the fall-back night fires at 02:30 CEST only',
      { at: '02:30', timezone: 'Europe/Berlin' },
      '2026-10-24T12:00:00Z',
      ['2026-10-25T00:30:00Z', '2026-10-26T01:30:00Z'],
    ],
    // Australia/Sydney (southern hemisphere): 2026-04-05 03:00 AEDT → 02:00 AEST; 2026-10-04 02:00 AEST → 03:00 AEDT.
    [
      'Sydney: 02:30 on the October gap fires at 03:30 AEDT',
      { cron: '30 2 * * *', timezone: 'Australia/Sydney' },
      '2026-10-02T12:00:00Z',
      ['2026-10-02T16:30:00Z', '2026-10-03T16:30:00Z', '2026-10-04T15:30:00Z'],
    ],
    [
      'Sydney: 02:30 repeated in April fires at its AEDT occurrence',
      { cron: '30 2 * * *', timezone: 'Australia/Sydney' },
      '2026-04-04T00:00:00Z',
      ['2026-04-04T15:30:00Z', '2026-04-05T16:30:00Z'],
    ],
    // Pacific/Auckland: 2026-09-27 02:00 NZST → 03:00 NZDT; 2026-04-05 03:00 NZDT → 02:00 NZST.
    [
      'Auckland: 02:15 in the September gap fires at 03:15 NZDT',
      { cron: '15 2 * * *', timezone: 'Pacific/Auckland' },
      '2026-09-26T00:00:00Z', // 12:00 NZST on the 26th
      ['2026-09-26T14:15:00Z', '2026-09-27T13:15:00Z'],
    ],
    [
      'Auckland: 09:00 on weekdays keeps 09:00 local across the April change',
      { at: '09:00', days: 'weekdays', timezone: 'Pacific/Auckland' },
      '2026-04-02T00:00:00Z',
      ['2026-04-02T20:00:00Z', '2026-04-05T21:00:00Z', '2026-04-06T21:00:00Z'],
    ],
    // America/Sao_Paulo, when it still had DST: 2018-11-04 00:00 → 01:00; 2019-02-16 24:00 → 23:00.
    [
      'São Paulo 2018: a midnight that does not exist fires at 01:00 -02',
      { cron: '0 0 * * *', timezone: 'America/Sao_Paulo' },
      '2018-11-02T12:00:00Z',
      ['2018-11-03T03:00:00Z', '2018-11-04T03:00:00Z', '2018-11-05T02:00:00Z'],
    ],
    [
      'São Paulo 2019: 23:30, repeated when summer time ended, fires at its -02 occurrence',
      { cron: '30 23 * * *', timezone: 'America/Sao_Paulo' },
      '2019-02-16T12:00:00Z',
      ['2019-02-17T01:30:00Z', '2019-02-18T02:30:00Z'],
    ],
    [
      'São Paulo today: no DST, 09:00 is 12:00 UTC all year',
      { at: '09:00', timezone: 'America/Sao_Paulo' },
      '2026-11-01T00:00:00Z',
      ['2026-11-01T12:00:00Z', '2026-11-02T12:00:00Z'],
    ],
    [
      'Kolkata: a half-hour offset (09:00 IST is 03:30 UTC)',
      { cron: '0 9 * * *', timezone: 'Asia/Kolkata' },
      '2026-11-23T00:00:00Z',
      ['2026-11-23T03:30:00Z', '2026-11-24T03:30:00Z'],
    ],
  ])('%s', (_name, timing, from, expected) => {
    expect(next(timing, from, expected.length)).toEqual(expected);
  });
});

describe('nextFires on cron edge cases (UTC)', () => {
  const utc = (cron: string): Timing => ({ cron, timezone: 'UTC' });
  it.each<[string, Timing, string, string[]]>([
    [
      'weekdays at 09:00 skip the weekend',
      utc('0 9 * * 1-5'),
      '2026-11-20T10:00:00Z', // a Friday
      ['2026-11-23T09:00:00Z', '2026-11-24T09:00:00Z'],
    ],
    [
      'days: weekdays compiles to the same',
      { at: '09:00', days: 'weekdays', timezone: 'UTC' },
      '2026-11-20T10:00:00Z',
      ['2026-11-23T09:00:00Z', '2026-11-24T09:00:00Z'],
    ],
    [
      'days: weekends',
      { at: '10:15', days: 'weekends', timezone: 'UTC' },
      '2026-11-20T10:00:00Z',
      ['2026-11-21T10:15:00Z', '2026-11-22T10:15:00Z', '2026-11-28T10:15:00Z'],
    ],
    [
      'days as a list',
      { at: '08:00', days: ['mon', 'wed'], timezone: 'UTC' },
      '2026-11-23T08:00:00Z', // Monday 08:00 itself is not after `from`
      ['2026-11-25T08:00:00Z', '2026-11-30T08:00:00Z'],
    ],
    [
      'every 15 minutes',
      utc('*/15 * * * *'),
      '2026-11-23T09:07:00Z',
      ['2026-11-23T09:15:00Z', '2026-11-23T09:30:00Z', '2026-11-23T09:45:00Z', '2026-11-23T10:00:00Z'],
    ],
    [
      'day 31 only in months that have it',
      utc('0 0 31 * *'),
      '2026-01-31T01:00:00Z',
      ['2026-03-31T00:00:00Z', '2026-05-31T00:00:00Z', '2026-07-31T00:00:00Z', '2026-08-31T00:00:00Z'],
    ],
    [
      'February 29 waits for leap years, and 2100 is not one',
      utc('0 0 29 2 *'),
      '2096-03-01T00:00:00Z',
      ['2104-02-29T00:00:00Z'],
    ],
    [
      'February 29 from 2026',
      utc('0 0 29 2 *'),
      '2026-01-01T00:00:00Z',
      ['2028-02-29T00:00:00Z', '2032-02-29T00:00:00Z'],
    ],
    [
      'day-of-month and day-of-week both restricted: either matches (Vixie)',
      utc('0 12 1 * mon'),
      '2026-05-31T00:00:00Z', // Mon 1 June, Mon 8, Mon 15 …, Wed 1 July
      [
        '2026-06-01T12:00:00Z',
        '2026-06-08T12:00:00Z',
        '2026-06-15T12:00:00Z',
        '2026-06-22T12:00:00Z',
        '2026-06-29T12:00:00Z',
        '2026-07-01T12:00:00Z',
      ],
    ],
    [
      'a day-of-month starting with * ANDs with day-of-week (Vixie)',
      utc('0 0 */10 * 1'),
      '2026-01-01T00:00:00Z', // days 1, 11, 21, 31 that are Mondays
      ['2026-05-11T00:00:00Z', '2026-06-01T00:00:00Z', '2026-08-31T00:00:00Z'],
    ],
    [
      'a leading seconds field (6 fields)',
      utc('*/20 * * * * *'),
      '2026-11-23T09:00:05Z',
      ['2026-11-23T09:00:20Z', '2026-11-23T09:00:40Z', '2026-11-23T09:01:00Z'],
    ],
    ['Sunday as 7', utc('0 0 * * 7'), '2026-11-23T00:00:00Z', ['2026-11-29T00:00:00Z']],
    [
      'month names and a range',
      utc('0 6 1 jan-feb *'),
      '2026-11-23T00:00:00Z',
      ['2027-01-01T06:00:00Z', '2027-02-01T06:00:00Z'],
    ],
  ])('%s', (_name, timing, from, expected) => {
    expect(next(timing, from, expected.length)).toEqual(expected);
  });

  it('is strictly after `from`', () => {
    expect(next(utc('0 9 * * *'), '2026-11-23T09:00:00Z', 1)).toEqual(['2026-11-24T09:00:00Z']);
  });
});

describe('firesBetween', () => {
  it('lists slots after `after` up to and including `until`', () => {
    const slots = firesBetween(
      { cron: '0 * * * *', timezone: 'UTC' },
      new Date('2026-11-23T09:00:00Z'),
      new Date('2026-11-23T12:00:00Z'),
    );
    expect(iso(slots)).toEqual(['2026-11-23T10:00:00Z', '2026-11-23T11:00:00Z', '2026-11-23T12:00:00Z']);
  });

  it('counts 25 hourly slots on a fall-back day and 23 on a spring-forward day (Berlin)', () => {
    const hourly = { cron: '0 * * * *', timezone: 'Europe/Berlin' };
    const day = (from: string, to: string) => firesBetween(hourly, new Date(from), new Date(to)).length;
    expect(day('2026-10-24T21:59:59Z', '2026-10-25T22:59:59Z')).toBe(25);
    expect(day('2026-03-28T22:59:59Z', '2026-03-29T21:59:59Z')).toBe(23);
  });

  it('stops at the limit', () => {
    const every = { cron: '* * * * * *', timezone: 'UTC' };
    expect(firesBetween(every, new Date('2026-01-01T00:00:00Z'), new Date('2026-02-01T00:00:00Z'), 5)).toHaveLength(5);
  });
});

describe('parseCron', () => {
  it.each([
    ['0 9 * *', /5 fields/],
    ['61 9 * * *', /minute field "61" is out of range 0-59/],
    ['0 24 * * *', /hour field "24" is out of range 0-23/],
    ['0 9 * * funday', /day-of-week field "funday" is not a number or a name/],
    ['0 9 5-1 * *', /runs backwards/],
    ['0 0 31 2 *', /never fires/],
    ['0 0 30 feb *', /never fires/],
    ['*/0 * * * *', /step of 0/],
  ])('rejects %s', (text, message) => {
    expect(() => parseCron(text)).toThrow(CronSyntaxError);
    expect(() => parseCron(text)).toThrow(message);
  });

  it('accepts 31 in a day-of-month when day-of-week also decides (Vixie OR)', () => {
    expect(parseCron('0 0 31 2 mon').daysOfWeek.has(1)).toBe(true);
  });
});
