import { roundAway, suggestThreshold } from '../../../src/alerts/index.js';

describe('suggestThreshold: a threshold from the recent daily values', () => {
  it.each([
    [
      'the highest and the lowest of 14 days',
      [5, 6, 7, 5.5, 6.5, 8, 4, 6, 6, 7, 5, 6, 7, 6],
      { above: 8, below: 4, days: 14 },
    ],
    [
      'days without a value are skipped',
      [5, null, 6, undefined, 7, 5.5, 6.5, 8, 4, Number.NaN],
      { above: 8, below: 4, days: 7 },
    ],
    [
      'rounded to four digits away from the values',
      [812.345, 700, 650.55, 701, 702, 703, 704],
      { above: 812.4, below: 650.5, days: 7 },
    ],
    [
      'small ratios keep their digits',
      [0.012345, 0.02, 0.015, 0.016, 0.017, 0.018, 0.019],
      { above: 0.02, below: 0.01234, days: 7 },
    ],
  ])('%s', (_name, values, expected) => {
    expect(suggestThreshold(values)).toEqual(expected);
  });

  it.each([
    ['fewer than 7 days with a value', [1, 2, 3, 4, 5, 6, null, null]],
    ['every value the same (no number separates them)', [3, 3, 3, 3, 3, 3, 3]],
    ['no values', []],
  ])('suggests nothing with %s', (_name, values) => {
    expect(suggestThreshold(values)).toBeUndefined();
  });

  it('rounds up for the highest and down for the lowest, so the day that set it does not breach', () => {
    expect(roundAway(4.12345, 'up')).toBe(4.124);
    expect(roundAway(4.12345, 'down')).toBe(4.123);
    expect(roundAway(-4.12345, 'down')).toBe(-4.124);
    expect(roundAway(1200, 'up')).toBe(1200);
    expect(roundAway(0, 'up')).toBe(0);
  });
});
