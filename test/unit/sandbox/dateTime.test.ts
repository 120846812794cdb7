import {
  dateTimeSql,
  isoWithOffset,
  isValidTimeZone,
  jodaToStrftime,
  parseDateTimeInput,
} from '../../../src/sandbox/sql/dateTime.js';
import { SqlParams } from '../../../src/sandbox/sql/SqlParams.js';

describe('parseDateTimeInput', () => {
  it.each([
    ['2026-11-01', { kind: 'local', local: '2026-11-01 00:00:00' }],
    ['2026-11-01T07:30', { kind: 'local', local: '2026-11-01 07:30:00' }],
    ['2026-11-01 07:30:15', { kind: 'local', local: '2026-11-01 07:30:15' }],
    ['2026-11-01T07:30:00Z', { kind: 'instant', iso: '2026-11-01T07:30:00.000Z' }],
    ['2026-11-01T07:30:00-03:00', { kind: 'instant', iso: '2026-11-01T10:30:00.000Z' }],
    ['2026-11-01T07:30:00+0530', { kind: 'instant', iso: '2026-11-01T02:00:00.000Z' }],
  ])('reads %s', (text, expected) => {
    expect(parseDateTimeInput(text)).toEqual(expected);
  });

  it.each(['yesterday', '2026-13-01', '2026-02-30', '2026-11-01T25:00', ''])('refuses %s', (text) => {
    expect(parseDateTimeInput(text)).toBeNull();
  });
});

describe('isoWithOffset', () => {
  it.each([
    ['2026-11-01', 'UTC', '2026-11-01T00:00:00+00:00'],
    ['2026-11-01', 'America/New_York', '2026-11-01T00:00:00-04:00'],
    ['2026-11-02', 'America/New_York', '2026-11-02T00:00:00-05:00'],
    ['2026-11-01T01:30', 'America/New_York', '2026-11-01T01:30:00-04:00'], // repeated hour: the first one
    ['2026-10-04T02:30', 'Australia/Sydney', '2026-10-04T03:30:00+11:00'], // skipped hour: moved past the gap
    ['2026-11-01T07:30:15.250', 'Asia/Kolkata', '2026-11-01T07:30:15.250+05:30'],
    ['2026-11-01T07:30:00-03:00', 'UTC', '2026-11-01T10:30:00+00:00'],
    ['2026-11-01T07:30:00Z', 'America/Sao_Paulo', '2026-11-01T04:30:00-03:00'],
  ])('writes %s in %s as %s', (text, zone, expected) => {
    const input = parseDateTimeInput(text);
    if (input === null) throw new Error(`unparsed ${text}`);
    expect(isoWithOffset(input, zone)).toBe(expected);
  });
});

describe('dateTimeSql', () => {
  it('reads zoneless inputs in the request time zone and keeps instants as they are', () => {
    const params = new SqlParams();
    expect(dateTimeSql({ kind: 'local', local: '2026-11-01 00:00:00' }, 'America/New_York', params)).toBe(
      'timezone($1, $2::TIMESTAMP)',
    );
    expect(dateTimeSql({ kind: 'instant', iso: '2026-11-01T10:30:00.000Z' }, 'UTC', params)).toBe('$3::TIMESTAMPTZ');
    expect(params.values).toEqual(['America/New_York', '2026-11-01 00:00:00', '2026-11-01 10:30:00.000+00']);
  });
});

describe('isValidTimeZone', () => {
  it('accepts Joda/IANA ids and refuses unknown or injected text', () => {
    expect(isValidTimeZone('America/Sao_Paulo')).toBe(true);
    expect(isValidTimeZone('UTC')).toBe(true);
    expect(isValidTimeZone('Mars/Olympus')).toBe(false);
    expect(isValidTimeZone("UTC'; DROP TABLE facts; --")).toBe(false);
  });
});

describe('jodaToStrftime', () => {
  it.each([
    ['yyyy-MM-dd', '%Y-%m-%d'],
    ['dd/MM/yy HH:mm:ss', '%d/%m/%y %H:%M:%S'],
    ['EEE d MMM yyyy', '%a %-d %b %Y'],
    ['EEEE, MMMM d', '%A, %B %-d'],
    ["yyyy-MM-dd'T'HH", '%Y-%m-%dT%H'],
    ["h a 'o''clock'", "%-I %p o'clock"],
    ['100%', '100%%'],
  ])('converts %s', (joda, expected) => {
    expect(jodaToStrftime(joda)).toBe(expected);
  });
});
