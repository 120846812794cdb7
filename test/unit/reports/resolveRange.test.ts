import { previousRange, RangeSpecError, resolveRange } from '../../../src/reports/index.js';
import { wallToEpoch } from '../../../src/time/index.js';

const at = (iso: string) => new Date(iso);
const span = (spec: Parameters<typeof resolveRange>[0], zone: string, now: string) => {
  const r = resolveRange(spec, zone, at(now));
  return [r.from, r.to];
};
const hours = (spec: string, zone: string, now: string) => {
  const r = resolveRange(spec, zone, at(now));
  return (r.toMs - r.fromMs) / 3_600_000;
};

describe('resolveRange on ordinary days', () => {
  it.each([
    ['today', '2026-11-20T00:00:00+00:00', '2026-11-21T00:00:00+00:00'],
    ['yesterday', '2026-11-19T00:00:00+00:00', '2026-11-20T00:00:00+00:00'],
    ['last_7_days', '2026-11-13T00:00:00+00:00', '2026-11-20T00:00:00+00:00'],
    ['LAST_1_DAY', '2026-11-19T00:00:00+00:00', '2026-11-20T00:00:00+00:00'],
    ['this_week', '2026-11-16T00:00:00+00:00', '2026-11-21T00:00:00+00:00'],
    ['last_week', '2026-11-09T00:00:00+00:00', '2026-11-16T00:00:00+00:00'],
    ['month_to_date', '2026-11-01T00:00:00+00:00', '2026-11-21T00:00:00+00:00'],
    ['last_month', '2026-10-01T00:00:00+00:00', '2026-11-01T00:00:00+00:00'],
    ['quarter_to_date', '2026-10-01T00:00:00+00:00', '2026-11-21T00:00:00+00:00'],
    ['last_quarter', '2026-07-01T00:00:00+00:00', '2026-10-01T00:00:00+00:00'],
    ['year_to_date', '2026-01-01T00:00:00+00:00', '2026-11-21T00:00:00+00:00'],
    ['last_24_hours', '2026-11-19T12:00:00+00:00', '2026-11-20T12:00:00+00:00'],
    ['2026-11-03', '2026-11-03T00:00:00+00:00', '2026-11-04T00:00:00+00:00'],
    ['2026-11-01..2026-11-08', '2026-11-01T00:00:00+00:00', '2026-11-08T00:00:00+00:00'],
  ])('%s', (spec, from, to) => {
    expect(span(spec, 'UTC', '2026-11-20T12:34:56Z')).toEqual([from, to]);
  });

  it('resolves in the zone, not in UTC: it is already Friday in Tokyo', () => {
    expect(span('yesterday', 'Asia/Tokyo', '2026-11-19T20:00:00Z')).toEqual([
      '2026-11-19T00:00:00+09:00',
      '2026-11-20T00:00:00+09:00',
    ]);
  });

  it('takes absolute { from, to } with date-times and offsets', () => {
    expect(
      span({ from: '2026-11-01T06:00', to: '2026-11-01T18:00:00Z' }, 'America/Sao_Paulo', '2026-11-20T00:00:00Z'),
    ).toEqual(['2026-11-01T06:00:00-03:00', '2026-11-01T15:00:00-03:00']);
  });

  it('takes calendar quarters in the zone: at UTC+14 it is already the 21st, and January is Q1', () => {
    expect(span('quarter_to_date', 'Pacific/Kiritimati', '2026-11-20T12:00:00Z')).toEqual([
      '2026-10-01T00:00:00+14:00',
      '2026-11-22T00:00:00+14:00',
    ]);
    expect(span('last_quarter', 'America/Sao_Paulo', '2027-01-02T12:00:00Z')).toEqual([
      '2026-10-01T00:00:00-03:00',
      '2027-01-01T00:00:00-03:00',
    ]);
  });

  it('rolls last_month over the new year', () => {
    expect(span('last_month', 'UTC', '2027-01-15T00:00:00Z')).toEqual([
      '2026-12-01T00:00:00+00:00',
      '2027-01-01T00:00:00+00:00',
    ]);
  });

  it.each([
    ['yesterday', 'Yesterday (Thu 19 Nov 2026)'],
    ['last_7_days', 'Last 7 days (13–19 Nov 2026)'],
    ['last_month', 'Last month (Oct 2026)'],
    ['last_week', 'Last week (9–15 Nov 2026)'],
    ['2026-10-28..2026-11-03', '28 Oct – 2 Nov 2026'],
    ['last_2_hours', 'Last 2 hours (20 Nov 2026 10:00 – 20 Nov 2026 12:00)'],
  ])('labels %s as %j', (spec, label) => {
    expect(resolveRange(spec, 'UTC', at('2026-11-20T12:10:00Z')).label).toBe(label);
  });

  it.each([
    ['yesteday', /Did you mean "yesterday"/],
    ['last_0_days', /between 1 and 1000/],
    ['2026-11-08..2026-11-01', /empty/],
    ['2026-02-30', /not a date/],
  ])('rejects %j', (spec, message) => {
    expect(() => resolveRange(spec, 'UTC', at('2026-11-20T12:00:00Z'))).toThrow(message);
    expect(() => resolveRange(spec, 'UTC', at('2026-11-20T12:00:00Z'))).toThrow(RangeSpecError);
  });

  it('rejects an unknown time zone', () => {
    expect(() => resolveRange('today', 'Mars/Olympus', at('2026-11-20T12:00:00Z'))).toThrow(/not an IANA time zone/);
  });
});

describe('resolveRange on DST days', () => {
  it.each([
    // Northern hemisphere, spring forward: the day has 23 hours.
    [
      'America/New_York',
      'yesterday',
      '2026-03-09T12:00:00Z',
      '2026-03-08T00:00:00-05:00',
      '2026-03-09T00:00:00-04:00',
      23,
    ],
    ['Europe/Berlin', 'today', '2026-03-29T10:00:00Z', '2026-03-29T00:00:00+01:00', '2026-03-30T00:00:00+02:00', 23],
    // Northern hemisphere, fall back: 25 hours.
    [
      'America/New_York',
      'yesterday',
      '2026-11-02T12:00:00Z',
      '2026-11-01T00:00:00-04:00',
      '2026-11-02T00:00:00-05:00',
      25,
    ],
    [
      'Europe/Berlin',
      'yesterday',
      '2026-10-26T10:00:00Z',
      '2026-10-25T00:00:00+02:00',
      '2026-10-26T00:00:00+01:00',
      25,
    ],
    // Southern hemisphere: Sydney springs forward in October and falls back in April.
    [
      'Australia/Sydney',
      'yesterday',
      '2026-10-05T00:00:00Z',
      '2026-10-04T00:00:00+10:00',
      '2026-10-05T00:00:00+11:00',
      23,
    ],
    [
      'Australia/Sydney',
      'yesterday',
      '2026-04-06T00:00:00Z',
      '2026-04-05T00:00:00+11:00',
      '2026-04-06T00:00:00+10:00',
      25,
    ],
    // São Paulo (2018): clocks jumped from 00:00 to 01:00, so the day had no midnight.
    [
      'America/Sao_Paulo',
      'yesterday',
      '2018-11-05T12:00:00Z',
      '2018-11-04T01:00:00-02:00',
      '2018-11-05T00:00:00-02:00',
      23,
    ],
    // São Paulo (2019): midnight came back to 23:00 on the 16th.
    [
      'America/Sao_Paulo',
      'yesterday',
      '2019-02-17T12:00:00Z',
      '2019-02-16T00:00:00-02:00',
      '2019-02-17T00:00:00-03:00',
      25,
    ],
    [
      'America/Sao_Paulo',
      'yesterday',
      '2019-02-18T12:00:00Z',
      '2019-02-17T00:00:00-03:00',
      '2019-02-18T00:00:00-03:00',
      24,
    ],
  ])('%s %s at %s', (zone, spec, now, from, to, length) => {
    expect(span(spec, zone, now)).toEqual([from, to]);
    expect(hours(spec, zone, now)).toBe(length);
  });

  it('keeps whole local days in a week that crosses the change', () => {
    expect(span('last_7_days', 'Europe/Berlin', '2026-03-31T10:00:00Z')).toEqual([
      '2026-03-24T00:00:00+01:00',
      '2026-03-31T00:00:00+02:00',
    ]);
    expect(hours('last_7_days', 'Europe/Berlin', '2026-03-31T10:00:00Z')).toBe(167);
    expect(span('last_week', 'Australia/Sydney', '2026-10-07T00:00:00Z')).toEqual([
      '2026-09-28T00:00:00+10:00',
      '2026-10-05T00:00:00+11:00',
    ]);
  });

  it('counts last N hours in real hours across the change', () => {
    expect(span('last_3_hours', 'Europe/Berlin', '2026-03-29T03:30:00Z')).toEqual([
      '2026-03-29T01:00:00+01:00',
      '2026-03-29T05:00:00+02:00',
    ]);
    expect(hours('last_2_hours', 'America/New_York', '2026-11-01T07:10:00Z')).toBe(2);
    expect(span('last_2_hours', 'America/New_York', '2026-11-01T07:10:00Z')).toEqual([
      '2026-11-01T01:00:00-04:00',
      '2026-11-01T02:00:00-05:00',
    ]);
  });

  it('reads an ambiguous wall time as its first occurrence and moves a skipped one forward by the gap', () => {
    expect(new Date(wallToEpoch(Date.UTC(2026, 10, 1, 1, 30), 'America/New_York')).toISOString()).toBe(
      '2026-11-01T05:30:00.000Z',
    );
    expect(new Date(wallToEpoch(Date.UTC(2026, 2, 8, 2, 30), 'America/New_York')).toISOString()).toBe(
      '2026-03-08T07:30:00.000Z',
    );
  });
});

describe('previousRange', () => {
  const now = at('2026-11-20T12:00:00Z');
  it('moves a day range back by its number of days', () => {
    const prev = previousRange(resolveRange('last_7_days', 'UTC', now), 'previous_period');
    expect([prev.from, prev.to]).toEqual(['2026-11-06T00:00:00+00:00', '2026-11-13T00:00:00+00:00']);
  });

  it('compares last month with the month before, whatever their lengths', () => {
    const prev = previousRange(resolveRange('last_month', 'UTC', at('2026-03-10T00:00:00Z')), 'previous_period');
    expect([prev.from, prev.to]).toEqual(['2026-01-01T00:00:00+00:00', '2026-02-01T00:00:00+00:00']);
  });

  it('compares last quarter with the quarter before', () => {
    const prev = previousRange(resolveRange('last_quarter', 'UTC', now), 'previous_period');
    expect([prev.from, prev.to]).toEqual(['2026-04-01T00:00:00+00:00', '2026-07-01T00:00:00+00:00']);
  });

  it('takes the same wall-clock span a week earlier, across a DST change', () => {
    const prev = previousRange(
      resolveRange('yesterday', 'Europe/Berlin', at('2026-03-30T10:00:00Z')),
      'same_period_last_week',
    );
    expect([prev.from, prev.to]).toEqual(['2026-03-22T00:00:00+01:00', '2026-03-23T00:00:00+01:00']);
  });

  it('takes the same days a month earlier, month to date against the same days of last month', () => {
    const prev = previousRange(resolveRange('month_to_date', 'UTC', now), 'same_period_last_month');
    expect([prev.from, prev.to]).toEqual(['2026-10-01T00:00:00+00:00', '2026-10-21T00:00:00+00:00']);
    expect(prev.label).toBe('Same period last month (1–20 Oct 2026)');
  });

  it('clamps days a shorter month does not have to its last day', () => {
    const march = (range: string) =>
      previousRange(resolveRange(range, 'UTC', at('2026-03-31T12:00:00Z')), 'same_period_last_month');
    const mtd = march('month_to_date');
    expect([mtd.from, mtd.to]).toEqual(['2026-02-01T00:00:00+00:00', '2026-03-01T00:00:00+00:00']);
    const end = march('2026-03-29..2026-04-01');
    expect([end.from, end.to]).toEqual(['2026-02-28T00:00:00+00:00', '2026-03-01T00:00:00+00:00']);
    const across = march('last_7_days');
    expect([across.from, across.to]).toEqual(['2026-02-24T00:00:00+00:00', '2026-03-01T00:00:00+00:00']);
  });

  it('compares last month with the whole month before, and keeps wall-clock days across DST', () => {
    const prev = previousRange(resolveRange('last_month', 'UTC', at('2026-12-05T00:00:00Z')), 'same_period_last_month');
    expect([prev.from, prev.to, prev.label]).toEqual([
      '2026-10-01T00:00:00+00:00',
      '2026-11-01T00:00:00+00:00',
      'Same period last month (Oct 2026)',
    ]);
    const berlin = previousRange(
      resolveRange('yesterday', 'Europe/Berlin', at('2026-04-10T10:00:00Z')),
      'same_period_last_month',
    );
    expect([berlin.from, berlin.to]).toEqual(['2026-03-09T00:00:00+01:00', '2026-03-10T00:00:00+01:00']);
  });

  it('moves an hour range back by its length', () => {
    const prev = previousRange(resolveRange('last_6_hours', 'UTC', now), 'previous_period');
    expect([prev.from, prev.to]).toEqual(['2026-11-20T00:00:00+00:00', '2026-11-20T06:00:00+00:00']);
  });
});
