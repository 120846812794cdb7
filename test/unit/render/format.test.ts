import {
  deltaText,
  deltaTone,
  formatCompactNumber,
  formatDelta,
  formatTime,
  formatTimeShort,
  formatValue,
  NULL_TEXT,
} from '../../../src/render/index.js';

describe('formatValue', () => {
  it.each([
    [1234.5, 'currency', {}, '$1,234.50'],
    [1234.5, 'currency', { compact: true }, '$1.2K'],
    [2_000, 'currency', { compact: true }, '$2K'],
    [0.42, 'currency', {}, '$0.42'],
    [0.00123, 'currency', {}, '$0.00123'],
    [-12.5, 'currency', {}, '−$12.50'],
    [3_400_000, 'count', { compact: true }, '3.4M'],
    [1_234_567, 'count', {}, '1,234,567'],
    ['12345678901234567890', 'count', {}, '12,345,678,901,234,567,890'],
    [999, 'count', { compact: true }, '999'],
    [0.123, 'ratio', {}, '12.3%'],
    [1.5, 'ratio', {}, '150.0%'],
    [0.0004, 'ratio', {}, '0.04%'],
    [12.34, 'percent', {}, '12.3%'],
    [2.4137, 'per_mille', {}, '2.41‰'],
    [3.5, 'score', {}, '3.5'],
    ['BR', 'text', {}, 'BR'],
    [true, 'text', {}, 'yes'],
    ['2026-11-19T00:00:00+01:00', 'time', {}, '2026-11-19'],
    ['2026-11-19T14:00:00-03:00', 'time', {}, '2026-11-19 14:00'],
  ] as const)('formats %j as %s (%j) → %s', (value, unit, options, expected) => {
    expect(formatValue(value, unit, options)).toBe(expected);
  });

  it.each([null, undefined, Number.NaN, Number.POSITIVE_INFINITY])('shows %p as an em dash', (value) => {
    expect(formatValue(value as number | null | undefined, 'currency')).toBe(NULL_TEXT);
    expect(NULL_TEXT).toBe('—');
  });
});

describe('formatCompactNumber', () => {
  it.each([
    [0, '0'],
    [12.345, '12.35'],
    [1500, '1.5K'],
    [12_000, '12K'],
    [3_400_000, '3.4M'],
    [2_500_000_000, '2.5B'],
    [-1500, '−1.5K'],
  ])('%p → %s', (n, expected) => {
    expect(formatCompactNumber(n)).toBe(expected);
  });
});

describe('formatDelta', () => {
  it.each([
    [{ previous: 100, absolute: 12.3, percent: 0.123 }, 'count', '+12.3%'],
    [{ previous: 100, absolute: -4, percent: -0.04 }, 'count', '−4.0%'],
    [{ previous: 0, absolute: 1500, percent: null }, 'currency', '+$1.5K'],
    [{ previous: null, absolute: null, percent: null }, 'count', '—'],
  ] as const)('%j (%s) → %s', (delta, unit, expected) => {
    expect(formatDelta(delta, unit)).toBe(expected);
  });
  it('is a dash without a delta', () => expect(formatDelta(undefined, 'count')).toBe('—'));
});

describe('deltaTone', () => {
  const up = { previous: 2, absolute: 0.5, percent: 0.25 };
  const down = { previous: 2, absolute: -0.5, percent: -0.25 };
  it.each([
    [up, 'lower_is_better', 'up', 'bad'],
    [down, 'lower_is_better', 'down', 'good'],
    [up, 'higher_is_better', 'up', 'good'],
    [down, 'higher_is_better', 'down', 'bad'],
    [up, 'neutral', 'up', 'neutral'],
    [{ previous: 2, absolute: 0, percent: 0 }, 'higher_is_better', 'flat', 'neutral'],
    [{ previous: null, absolute: null, percent: null }, 'higher_is_better', 'flat', 'neutral'],
  ] as const)('%j with %s points %s and is %s', (delta, polarity, direction, tone) => {
    expect(deltaTone(delta, polarity)).toEqual({ direction, tone });
  });

  it('colours a rising CPI red and rising installs green', () => {
    expect(deltaText(up, 'currency', 'lower_is_better')).toBe(':red_circle: ▲ +25.0%');
    expect(deltaText(up, 'count', 'higher_is_better')).toBe(':large_green_circle: ▲ +25.0%');
    expect(deltaText(up, 'currency', 'neutral')).toBe(':white_circle: ▲ +25.0%');
  });
});

describe('time labels', () => {
  it('reads midnight as a date and keeps the wall clock of the offset', () => {
    expect(formatTime('2026-11-19T00:00:00-03:00')).toBe('2026-11-19');
    expect(formatTimeShort('2026-11-19T00:00:00-03:00')).toBe('19 Nov');
    expect(formatTimeShort('2026-11-19T14:00:00Z')).toBe('19 Nov 14:00');
    expect(formatTime('not a date')).toBe('not a date');
  });
});
