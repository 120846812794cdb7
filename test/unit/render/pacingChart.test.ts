import type { PacingCondition } from '../../../src/alerts/index.js';
import {
  type PacingChartDay,
  pacingChartAlt,
  pacingChartSpec,
  pacingChartView,
  pacingLimit,
} from '../../../src/render/index.js';

/** A 30-day month planned at 3,000: ten days at `daily`, then a straight forecast to `forecast`. */
function month(daily: number, forecast: number): { days: PacingChartDay[]; condition: PacingCondition } {
  const spent = daily * 10;
  const days = Array.from({ length: 30 }, (_, i) => ({
    date: `2026-11-${String(i + 1).padStart(2, '0')}`,
    spent: i < 10 ? daily * (i + 1) : null,
    forecast: i >= 9 ? spent + ((forecast - spent) * (i - 9)) / 20 : null,
    plan: 100 * (i + 1),
  }));
  const condition: PacingCondition = {
    kind: 'pacing',
    month: '2026-11',
    spent,
    forecast,
    plan: 3000,
    share: forecast / 3000,
    tolerance: 0.1,
    daysElapsed: 10,
    daysInMonth: 30,
  };
  return { days, condition };
}

describe('pacingLimit', () => {
  it.each([
    ['over the plan: its upper edge', 1.5, 3300, 'plan +10 % $3.3K'],
    ['under the plan: its lower edge', 0.5, 2700, 'plan −10 % $2.7K'],
  ])('%s', (_name, share, value, label) => {
    const limit = pacingLimit({ plan: 3000, tolerance: 0.1, share });
    expect(limit.value).toBeCloseTo(value, 6);
    expect(limit.label).toBe(label);
  });
});

describe('pacingChartView', () => {
  it('draws spend so far, the forecast dashed, the plan pro rata and the edge crossed', () => {
    const { days, condition } = month(150, 4500);
    const view = pacingChartView({ title: 'Spend off plan', label: 'Spend', days, condition, timezone: 'UTC' });
    expect(view?.chart).toMatchObject({
      kind: 'line',
      series: ['spent', 'forecast', 'plan'],
      dashed: ['forecast'],
      thresholds: [{ metric: 'spent', label: 'plan +10 % $3.3K' }],
    });
    expect(view?.rows.at(-1)).toEqual({ at: '2026-11-30', spent: null, forecast: 4500, plan: 3000 });
    expect(view?.range.label).toBe('November 2026, 10 of 30 days');
    expect(view?.columns.filter((c) => c.kind === 'metric').map((c) => c.label)).toEqual([
      'Spend so far',
      'Forecast',
      'Plan, pro rata',
    ]);
  });

  it('draws nothing without a complete day', () => {
    const { condition } = month(150, 4500);
    const days = [{ date: '2026-11-01', spent: null, forecast: 4500, plan: 100 }];
    expect(pacingChartView({ title: 't', label: 'Spend', days, condition, timezone: 'UTC' })).toBeNull();
  });

  it('builds a Chart.js spec with the forecast dashed and says the numbers in its alt text', () => {
    const { days, condition } = month(50, 1500);
    const spec = pacingChartSpec({ title: 'Spend off plan', label: 'Spend', days, condition, timezone: 'UTC' });
    const datasets = (spec?.config.data.datasets ?? []) as Array<{ label: string; borderDash?: number[] }>;
    expect(datasets.map((d) => d.label)).toEqual(['Spend so far', 'Forecast', 'Plan, pro rata', 'plan −10 % $2.7K']);
    expect(datasets[0]?.borderDash).toEqual([]);
    expect(datasets[1]?.borderDash?.length).toBeGreaterThan(0);
    expect(spec?.alt).toBe(pacingChartAlt(condition));
    expect(spec?.alt).toContain('($1.5K, 50 % of the plan)');
    expect(spec?.alt).toContain('dashed line at plan −10 % $2.7K');
  });
});
