import {
  errorQuantiles,
  FORECAST_ERROR_QUANTILES,
  forecastInterval,
  INTERVAL_LEVEL,
} from '../../../src/reports/index.js';

describe('forecastInterval: the forecast widened by the backtest’s errors for the days left', () => {
  it('is the forecast times one plus the quantiles of its row: 10 days into November, 20 left', () => {
    const [low, high] = errorQuantiles(20);
    expect(forecastInterval({ spent: 40_000, forecast: 120_000, daysElapsed: 10, daysInMonth: 30 })).toEqual({
      low: 120_000 * (1 + low),
      high: 120_000 * (1 + high),
    });
    expect(low).toBeLessThan(0);
    expect(high).toBeGreaterThan(0);
  });

  it('narrows as the month goes on', () => {
    const width = (daysElapsed: number) => {
      const { low, high } = forecastInterval({ spent: 1000, forecast: 3000, daysElapsed, daysInMonth: 30 });
      return high - low;
    };
    expect(width(3)).toBeGreaterThan(width(15));
    expect(width(15)).toBeGreaterThan(width(29));
  });

  it('never reaches below what is already spent', () => {
    const { low } = forecastInterval({ spent: 2990, forecast: 3000, daysElapsed: 29, daysInMonth: 30 });
    expect(low).toBe(2990);
  });

  it('reads the nearest row for days left past the table', () => {
    expect(errorQuantiles(31)).toEqual(errorQuantiles(30));
    expect(errorQuantiles(0)).toEqual(errorQuantiles(1));
  });

  it('keeps one row per day left, 1 to 30, at the 10th and 90th percentiles', () => {
    expect(FORECAST_ERROR_QUANTILES.map(([left]) => left)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    expect(INTERVAL_LEVEL).toBe(0.8);
    for (const [, low, high] of FORECAST_ERROR_QUANTILES) expect(low).toBeLessThan(high);
  });
});
