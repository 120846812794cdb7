import { dateTimeSql, isValidTimeZone, jodaToStrftime, parseDateTimeInput } from '../../../src/sandbox/sql/dateTime.js';
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
