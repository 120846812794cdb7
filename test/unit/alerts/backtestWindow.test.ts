import { answerFromWindow, indexWindow, planWindow } from '../../../src/alerts/backtestWindow.js';
import { backtestSummary } from '../../../src/alerts/index.js';
import type { PivotRequest, PivotResponse } from '../../../src/reporting/index.js';

const base: PivotRequest = {
  from: '2026-11-10T00:00:00+00:00',
  to: '2026-11-11T00:00:00+00:00',
  dimensions: [{ name: 'countryCode' }],
  metrics: [{ name: 'spend' }, { name: 'installsCpi' }],
  context: { sqlTimeZone: 'UTC' },
};
const day = (d: string) => `2026-11-${d}T00:00:00+00:00`;

describe('planWindow', () => {
  it('fetches one query per shape over the whole window, by day, with the parts of ratios', () => {
    const week: PivotRequest = { ...base, from: day('04'), to: day('11') };
    const window = planWindow([base, { ...base, from: day('09'), to: day('10') }, week]);
    expect(window.granularity).toBe('DAILY');
    expect(window.requests).toHaveLength(1);
    const [fetch] = window.requests;
    expect(fetch).toMatchObject({ from: day('04'), to: day('11'), totals: false });
    expect(fetch?.dimensions[0]).toEqual({ name: 'date', args: { granularity: 'DAILY' }, alias: 'btBucket' });
    // installsCpi = spend / installs: spend is already there, installs is fetched as a part.
    expect(fetch?.metrics.map((m) => m.alias ?? m.name)).toEqual(['spend', 'installsCpi', 'btPart0d']);
  });

  it('goes hourly when a range ends inside a day, and refuses one off the hour', () => {
    expect(planWindow([{ ...base, to: '2026-11-10T10:00:00+00:00' }]).granularity).toBe('HOURLY');
    expect(() => planWindow([{ ...base, to: '2026-11-10T10:30:00+00:00' }])).toThrow(/whole hour/);
  });
});

describe('answerFromWindow', () => {
  const window = planWindow([{ ...base, from: day('09'), to: day('11') }]);
  const rows = [
    { btBucket: day('09'), countryCode: 'BR', spend: 100, installsCpi: 10, btPart0d: 10 },
    { btBucket: day('10'), countryCode: 'BR', spend: 300, installsCpi: 10, btPart0d: 30 },
    { btBucket: day('10'), countryCode: 'US', spend: 50, installsCpi: 5, btPart0d: 10 },
  ];
  const response: PivotResponse = {
    columns: [
      { key: 'btBucket', kind: 'dimension', name: 'date', args: {} },
      { key: 'countryCode', kind: 'dimension', name: 'countryCode', args: {} },
      { key: 'spend', kind: 'metric', name: 'spend', args: {} },
      { key: 'installsCpi', kind: 'metric', name: 'installsCpi', args: {} },
      { key: 'btPart0d', kind: 'metric', name: 'installs', args: {} },
    ],
    rows,
    warnings: [],
  };
  const data = indexWindow(window, [response]);

  it("answers a one-day range with the service's own rows and columns", () => {
    const answer = answerFromWindow(data, { ...base, from: day('10'), to: day('11') });
    expect(answer.rows).toEqual([
      { countryCode: 'BR', spend: 300, installsCpi: 10 },
      { countryCode: 'US', spend: 50, installsCpi: 5 },
    ]);
    expect(answer.columns.map((c) => c.key)).toEqual(['countryCode', 'spend', 'installsCpi']);
    // Totals: spend summed, CPI from the summed parts (350 / 40).
    expect(answer.totals).toEqual({ spend: 350, installsCpi: 8.75 });
  });

  it('sums a longer range and rebuilds the ratio from its parts', () => {
    const answer = answerFromWindow(data, { ...base, from: day('09'), to: day('11') });
    expect(answer.rows.find((r) => r.countryCode === 'BR')).toEqual({ countryCode: 'BR', spend: 400, installsCpi: 10 });
  });
});

describe('backtestSummary', () => {
  it('names the days an incident opened and how many entities opened one', () => {
    const entities = [
      { entityKey: 'a', entityLabel: 'A', opened: 2, resolved: 1 },
      { entityKey: 'b', entityLabel: 'B', opened: 1, resolved: 1 },
    ];
    expect(
      backtestSummary({ days: 30, firedDays: ['2026-11-04', '2026-11-12', '2026-11-20'], breachDays: [], entities }),
    ).toBe('would have fired on 3 of the last 30 days (Nov 4, Nov 12, Nov 20) for 2 entities');
    expect(backtestSummary({ days: 30, firedDays: [], breachDays: ['2026-11-04'], entities: [] })).toBe(
      'would not have fired in the last 30 days (in breach on 1 of them, not long enough to open)',
    );
  });
});
