import { type DayValue, forecastMonthEnd, pacingPath, pacingShare } from '../../../src/reports/index.js';

/** Daily values from `from` for `n` days, each given by its weekday (0 = Sunday). */
function days(from: string, n: number, byWeekday: (weekday: number) => number): DayValue[] {
  const start = Date.parse(`${from}T00:00:00Z`);
  return Array.from({ length: n }, (_, i) => {
    const at = new Date(start + i * 86_400_000);
    return { date: at.toISOString().slice(0, 10), value: byWeekday(at.getUTCDay()) };
  });
}
const flat = () => 100;
// Weekends twice a weekday.
const weekly = (weekday: number) => (weekday === 0 || weekday === 6 ? 200 : 100);

describe('forecastMonthEnd', () => {
  it.each<[string, DayValue[], string, { spent: number; forecast: number; method: string; daysElapsed: number }]>([
    [
      'a flat spend: spent + 100 a day left',
      days('2026-10-01', 41, flat),
      '2026-11-11',
      { spent: 1000, forecast: 3000, method: 'weekday', daysElapsed: 10 },
    ],
    // 1–8 Nov 2026 hold three weekend days (Sun 1, Sat 7, Sun 8); 9–30 Nov six of 22 days.
    [
      'a weekly shape: exact, the weekends left weigh double',
      days('2026-10-01', 39, weekly),
      '2026-11-09',
      { spent: 1100, forecast: 1100 + 6 * 200 + 16 * 100, method: 'weekday', daysElapsed: 8 },
    ],
    [
      'without four weeks of history: a flat run rate (over-forecasts here)',
      days('2026-11-01', 8, weekly),
      '2026-11-09',
      { spent: 1100, forecast: 1100 + (1100 / 8) * 22, method: 'flat', daysElapsed: 8 },
    ],
    [
      'the last day of the month: only today is left',
      days('2026-10-01', 60, flat),
      '2026-11-30',
      { spent: 2900, forecast: 3000, method: 'weekday', daysElapsed: 29 },
    ],
  ])('%s', (_name, values, today, expected) => {
    const result = forecastMonthEnd(values, today);
    expect(result).toBeDefined();
    expect(result?.spent).toBeCloseTo(expected.spent, 6);
    expect(result?.daysElapsed).toBe(expected.daysElapsed);
    expect(result?.method).toBe(expected.method);
    expect(result?.forecast).toBeCloseTo(expected.forecast, 6);
  });

  it('a missing day lowers the run rate', () => {
    const all = forecastMonthEnd(days('2026-10-01', 41, flat), '2026-11-11');
    const gap = forecastMonthEnd(
      days('2026-10-01', 41, flat).filter((d) => d.date !== '2026-11-05'),
      '2026-11-11',
    );
    expect(gap?.forecast).toBeLessThan(all?.forecast ?? 0);
  });

  it.each<[string, number | undefined]>([
    ['no row for yesterday', undefined],
    ['yesterday at 30 % of the same weekday a week earlier', 30],
  ])(
    'does not count yesterday while its data is still arriving (%s): it is forecast like the days left',
    (_name, yesterday) => {
      const arrived = days('2026-10-01', 41, flat);
      const arriving = arrived.filter((d) => d.date !== '2026-11-10');
      if (yesterday !== undefined) arriving.push({ date: '2026-11-10', value: yesterday });
      const result = forecastMonthEnd(arriving, '2026-11-11');
      expect(result).toMatchObject({ spent: 900, daysElapsed: 9, pending: '2026-11-10' });
      // Not a zero day: the same forecast as with the day in.
      expect(result?.forecast).toBeCloseTo(forecastMonthEnd(arrived, '2026-11-11')?.forecast ?? 0, 6);
    },
  );

  it('counts yesterday once it holds half of the same weekday a week earlier, and any older gap as a real one', () => {
    const values = days('2026-10-01', 41, flat).map((d) => (d.date === '2026-11-10' ? { ...d, value: 50 } : d));
    expect(forecastMonthEnd(values, '2026-11-11')).toMatchObject({ spent: 950, daysElapsed: 10 });
    expect(forecastMonthEnd(values, '2026-11-11')?.pending).toBeUndefined();
    const older = days('2026-10-01', 41, flat).filter((d) => d.date !== '2026-11-09');
    expect(forecastMonthEnd(older, '2026-11-11')).toMatchObject({ spent: 900, daysElapsed: 10 });
  });

  it('counts a missing yesterday when the same weekday a week earlier spent nothing either', () => {
    const values = days('2026-10-01', 41, flat).filter((d) => d.date !== '2026-11-10' && d.date !== '2026-11-03');
    expect(forecastMonthEnd(values, '2026-11-11')).toMatchObject({ spent: 800, daysElapsed: 10 });
  });

  it('has nothing to say on the 2nd while the 1st is still arriving', () => {
    const values = days('2026-10-01', 31, flat);
    expect(forecastMonthEnd(values, '2026-11-02')).toBeUndefined();
  });

  it('has nothing to say on the 1st', () => {
    expect(forecastMonthEnd(days('2026-10-01', 31, flat), '2026-11-01')).toBeUndefined();
  });

  it('February of a leap year has 29 days', () => {
    expect(forecastMonthEnd(days('2028-01-01', 40, flat), '2028-02-10')?.daysInMonth).toBe(29);
  });

  it('pacingShare is the forecast over the plan', () => {
    const forecast = forecastMonthEnd(days('2026-10-01', 41, flat), '2026-11-11');
    if (!forecast) throw new Error('no forecast');
    expect(pacingShare(forecast, 3000)).toBeCloseTo(1, 9);
    expect(pacingShare(forecast, 0)).toBe(0);
  });
});

describe('pacingPath', () => {
  it('draws the month: spend so far by day, the forecast’s path from the last complete day, the plan pro rata', () => {
    const values = days('2026-10-01', 39, weekly);
    const path = pacingPath(values, '2026-11-09', 3000);
    const forecast = forecastMonthEnd(values, '2026-11-09');
    if (!path || !forecast) throw new Error('no path');
    expect(path.map((d) => d.date)).toEqual(
      Array.from({ length: 30 }, (_, i) => `2026-11-${String(i + 1).padStart(2, '0')}`),
    );
    // Sun 1 Nov 200, Mon–Fri 100 each, Sat 7 and Sun 8 200 each.
    expect(path.slice(0, 8).map((d) => d.spent)).toEqual([200, 300, 400, 500, 600, 700, 900, 1100]);
    expect(path.slice(8).every((d) => d.spent === null)).toBe(true);
    expect(path.slice(0, 7).every((d) => d.forecast === null)).toBe(true);
    // Joined to the spend at the last complete day, then the weekday shape: Mon 9 Nov +100, Sat 14 +200.
    expect(path[7]?.forecast).toBe(1100);
    expect(path[8]?.forecast).toBeCloseTo(1200, 6);
    expect((path[13]?.forecast as number) - (path[12]?.forecast as number)).toBeCloseTo(200, 6);
    expect(path[29]?.forecast).toBeCloseTo(forecast.forecast, 6);
    expect(path[0]?.plan).toBeCloseTo(100, 9);
    expect(path[29]?.plan).toBeCloseTo(3000, 9);
  });

  it('has nothing to draw on the 1st', () => {
    expect(pacingPath(days('2026-10-01', 31, flat), '2026-11-01', 3000)).toBeUndefined();
  });

  it('on the last day, only today is forecast', () => {
    const path = pacingPath(days('2026-10-01', 60, flat), '2026-11-30', 3000);
    expect(path?.[28]).toMatchObject({ spent: 2900, forecast: 2900 });
    expect(path?.[29]?.spent).toBeNull();
    expect(path?.[29]?.forecast).toBeCloseTo(3000, 6);
  });
});
