import { shapeTrend, trendDaysFor, trendShape } from '../../../src/alerts/index.js';
import { trendLimits } from '../../../src/render/index.js';

const DAY = 86_400_000;
const from = Date.parse('2026-11-09T00:00:00Z');

describe('trendShape: the chart draws what the rule judged', () => {
  it.each([
    ['one day, a ratio', 1, false, undefined, 'per_day'],
    ['a 25-hour day (DST), spend', 25 / 24, true, undefined, 'per_day'],
    ['14 days of spend', 14, true, undefined, 'running_total'],
    ['7 days of CPI', 7, false, undefined, 'per_day_without_line'],
    ['7 days by date, daily buckets', 7, false, 'DAILY', 'per_day'],
    ['7 days by hour', 7, true, 'HOURLY', 'per_day_without_line'],
  ])('%s → %s', (_name, days, additive, bucket, expected) => {
    expect(trendShape({ fromMs: from, toMs: from + (days as number) * DAY }, additive as boolean, bucket)).toBe(
      expected,
    );
  });

  it('sums from the range’s first local day, so the last point is the range total', () => {
    const points = [
      { at: '2026-11-08', value: 9 },
      { at: '2026-11-09', value: 3 },
      { at: '2026-11-10', value: 4 },
    ];
    expect(shapeTrend(points, 'running_total', '2026-11-09T00:00:00-03:00')).toEqual([
      { at: '2026-11-09', value: 3 },
      { at: '2026-11-10', value: 7 },
    ]);
    expect(shapeTrend(points, 'per_day', '2026-11-09T00:00:00Z')).toEqual(points);
  });

  it('fetches the whole range for a running total longer than the usual days', () => {
    expect(trendDaysFor({ fromMs: from, toMs: from + 30 * DAY }, 'running_total', 14)).toBe(30);
    expect(trendDaysFor({ fromMs: from, toMs: from + 30 * DAY }, 'per_day', 14)).toBe(14);
  });

  it('draws no threshold when the days are not what the rule judged', () => {
    expect(trendLimits({ kind: 'above', threshold: 6 }, 'per_day_without_line')).toEqual({});
    expect(trendLimits({ kind: 'above', threshold: 6 }, 'running_total')).toEqual({ threshold: 6 });
  });
});
