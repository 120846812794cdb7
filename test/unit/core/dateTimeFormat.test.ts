import { jest } from '@jest/globals';
import { dateTimeFormat } from '../../../src/core/index.js';
import { formatWhen } from '../../../src/render/blocks/alertMessages.js';
import { lateNote } from '../../../src/render/blocks/digestNotices.js';
import { isValidTimeZone } from '../../../src/sandbox/sql/dateTime.js';
import { formatInZone } from '../../../src/slack/app/screens/scheduleMessages.js';

const at = new Date('2026-11-23T08:05:00Z');

describe('dateTimeFormat', () => {
  it.each([
    [
      'the same options',
      { timeZone: 'Europe/Berlin', hour: '2-digit' },
      { timeZone: 'Europe/Berlin', hour: '2-digit' },
    ],
    [
      'the same options in another order',
      { hour: '2-digit', timeZone: 'Asia/Tokyo' },
      { timeZone: 'Asia/Tokyo', hour: '2-digit' },
    ],
  ] as const)('returns one shared formatter for %s', (_, a, b) => {
    expect(dateTimeFormat('en-GB', a)).toBe(dateTimeFormat('en-GB', b));
  });

  it.each([
    ['another zone', 'en-GB', { timeZone: 'America/Sao_Paulo', hour: '2-digit' }, '05'],
    ['another locale', 'en-US', { timeZone: 'Europe/Berlin', hour: '2-digit', hourCycle: 'h12' }, '09 AM'],
    ['other fields', 'en-GB', { timeZone: 'Europe/Berlin', weekday: 'short' }, 'Mon'],
  ] as const)('builds a distinct formatter for %s, formatting as Intl does', (_, locale, options, expected) => {
    const format = dateTimeFormat(locale, options);
    expect(format).not.toBe(dateTimeFormat('en-GB', { timeZone: 'Europe/Berlin', hour: '2-digit' }));
    expect(format.format(at)).toBe(expected);
  });

  it('throws RangeError for a zone the runtime does not know, every time (nothing cached)', () => {
    expect(() => dateTimeFormat('en-GB', { timeZone: 'Mars/Olympus' })).toThrow(RangeError);
    expect(() => dateTimeFormat('en-GB', { timeZone: 'Mars/Olympus' })).toThrow(RangeError);
  });
});

// Each Intl.DateTimeFormat built holds ~17 KB of ICU memory that V8's GC does not see: the
// formatters that run per listed line, per message or per query must build none once warm.
describe('formatting dates builds no Intl.DateTimeFormat per call', () => {
  it.each([
    ['formatInZone (/pivot schedule, per line)', () => formatInZone(at, 'Europe/Berlin')],
    ['formatWhen (alert messages)', () => formatWhen(at.toISOString(), 'Europe/Berlin')],
    ['lateNote (late digests)', () => lateNote(at, new Date(at.getTime() + 47 * 60_000), 'Europe/Berlin')],
    ['isValidTimeZone (sandbox, per query)', () => String(isValidTimeZone('Europe/Berlin'))],
  ])('%s', (_, format) => {
    const first = format();
    const built = jest.spyOn(Intl, 'DateTimeFormat');
    try {
      for (let i = 0; i < 50; i++) expect(format()).toBe(first);
      expect(built).not.toHaveBeenCalled();
    } finally {
      built.mockRestore();
    }
  });
});
