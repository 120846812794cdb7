import { compareRows, compareTotals, delta } from '../../../src/reports/index.js';

describe('delta', () => {
  it.each([
    [120, 100, { previous: 100, absolute: 20, percent: 0.2 }],
    [80, 100, { previous: 100, absolute: -20, percent: -0.2 }],
    [5, 0, { previous: 0, absolute: 5, percent: null }],
    [5, null, { previous: null, absolute: null, percent: null }],
    [null, 4, { previous: 4, absolute: null, percent: null }],
    ['12345678901234567890', '12345678901234567890', { previous: 12345678901234567000, absolute: 0, percent: 0 }],
    [-3, -2, { previous: -2, absolute: -1, percent: -0.5 }],
  ])('delta(%j, %j)', (current, previous, expected) => {
    expect(delta(current, previous)).toEqual(expected);
  });
});

describe('compareRows', () => {
  const keys = { dimensions: ['countryCode'], time: [], metrics: ['spend'] };

  it('joins by dimension key, whatever the order of the rows', () => {
    const current = [
      { countryCode: 'US', spend: 110 },
      { countryCode: 'BR', spend: 50 },
      { countryCode: 'JP', spend: 7 },
    ];
    const previous = [
      { countryCode: 'BR', spend: 40 },
      { countryCode: 'US', spend: 100 },
      { countryCode: 'DE', spend: 1 },
    ];
    expect(compareRows(current, previous, keys)).toEqual([
      { spend: { previous: 100, absolute: 10, percent: 0.1 } },
      { spend: { previous: 40, absolute: 10, percent: 0.25 } },
      { spend: { previous: null, absolute: null, percent: null } },
    ]);
  });

  it('joins on every dimension, null included', () => {
    const current = [
      { app: 'A', countryCode: null, spend: 2 },
      { app: 'A', countryCode: 'US', spend: 3 },
    ];
    const previous = [
      { app: 'A', countryCode: 'US', spend: 1 },
      { app: 'A', countryCode: null, spend: 1 },
    ];
    const result = compareRows(current, previous, { dimensions: ['app', 'countryCode'], time: [], metrics: ['spend'] });
    expect(result.map((d) => d.spend?.absolute)).toEqual([1, 2]);
  });

  it('aligns time buckets by their rank in each period', () => {
    const current = [
      { date: '2026-11-19', spend: 12 },
      { date: '2026-11-18', spend: 10 },
    ];
    const previous = [
      { date: '2026-11-11', spend: 8 },
      { date: '2026-11-12', spend: 6 },
    ];
    const result = compareRows(current, previous, { dimensions: ['date'], time: ['date'], metrics: ['spend'] });
    expect(result.map((d) => d.spend?.previous)).toEqual([6, 8]);
  });
});

describe('compareTotals', () => {
  it('compares each metric of the totals', () => {
    expect(compareTotals({ spend: 10, installs: 4 }, { spend: 8, installs: 4 }, ['spend', 'installs'])).toEqual({
      spend: { previous: 8, absolute: 2, percent: 0.25 },
      installs: { previous: 4, absolute: 0, percent: 0 },
    });
  });

  it('gives null deltas without previous totals', () => {
    expect(compareTotals({ spend: 10 }, undefined, ['spend'])).toEqual({
      spend: { previous: null, absolute: null, percent: null },
    });
  });
});
