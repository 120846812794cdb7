import {
  errorQuantiles,
  monthPacing,
  type PacingPlan,
  pacingPlan,
  pacingRequest,
  type ReportDefinition,
  reportSchema,
} from '../../../src/reports/index.js';

const definition = (fields: Record<string, unknown> = {}): ReportDefinition =>
  reportSchema.parse({
    title: 'App 101',
    query: {
      dimensions: ['countryCode'],
      metrics: ['spend', 'installs'],
      filter: { appId: 101 },
      cleanup: { installs: { greaterThan: 10 } },
      timezone: 'America/Sao_Paulo',
      range: 'yesterday',
    },
    budgets: { months: { '2026-11': 3000, '2026-12': 9000 } },
    ...fields,
  });

describe('pacingPlan: the month of now in the report zone, and its plan', () => {
  it.each<[string, string, Partial<PacingPlan> | undefined]>([
    ['mid-month', '2026-11-11T12:00:00Z', { month: '2026-11', today: '2026-11-11', plan: 3000 }],
    // 1 Dec 01:00 UTC is still 30 Nov 22:00 in São Paulo.
    ['the zone decides the day', '2026-12-01T01:00:00Z', { month: '2026-11', today: '2026-11-30', plan: 3000 }],
    ['the next month has its own plan', '2026-12-01T12:00:00Z', { month: '2026-12', today: '2026-12-01', plan: 9000 }],
    ['a month without a plan', '2027-01-05T12:00:00Z', undefined],
  ])('%s', (_name, now, expected) => {
    const plan = pacingPlan(definition(), { now: new Date(now) });
    if (expected === undefined) expect(plan).toBeUndefined();
    else expect(plan).toMatchObject({ ...expected, timezone: 'America/Sao_Paulo' });
  });

  it('is undefined for a report without budgets', () => {
    expect(pacingPlan(definition({ budgets: undefined }), { now: new Date('2026-11-11T12:00:00Z') })).toBeUndefined();
  });
});

describe('pacingRequest: spend by day, the month so far and the 28 days before today', () => {
  const now = new Date('2026-11-11T12:00:00Z');
  const plan = pacingPlan(definition(), { now }) as PacingPlan;

  it("keeps the report's filter and zone, not its dimensions, metrics or cleanup", () => {
    const request = pacingRequest(definition(), plan, { now });
    expect(request).toEqual({
      from: '2026-10-14T00:00:00-03:00',
      to: '2026-11-11T00:00:00-03:00',
      dimensions: [{ name: 'date', args: { granularity: 'DAILY' } }],
      metrics: [{ name: 'spend' }],
      filter: { appId: { equals: 101 } },
      context: { sqlTimeZone: 'America/Sao_Paulo' },
      totals: false,
    });
  });

  it("starts at the month's first day when that is earlier (the last day of a long month)", () => {
    const late = new Date('2026-12-31T12:00:00Z');
    const request = pacingRequest(definition(), pacingPlan(definition(), { now: late }) as PacingPlan, { now: late });
    expect([request?.from, request?.to]).toEqual(['2026-12-01T00:00:00-03:00', '2026-12-31T00:00:00-03:00']);
  });
});

describe('monthPacing: the forecast from the rows, against the plan', () => {
  const plan: PacingPlan = { month: '2026-11', today: '2026-11-11', plan: 3000, timezone: 'UTC' };
  // 100 a day from 1 Oct, dates as the service writes them (with a time).
  const rows = Array.from({ length: 41 }, (_, i) => ({
    date: `${new Date(Date.UTC(2026, 9, 1 + i)).toISOString().slice(0, 10)}T00:00:00`,
    spend: 100,
  }));

  it('forecasts 30 days at 100 a day: on plan', () => {
    expect(monthPacing(rows, plan)).toMatchObject({ spent: 1000, forecast: 3000, share: 1, daysElapsed: 10 });
  });

  it('reads spend written as text, and skips rows without a date or a number', () => {
    const mixed = [...rows.slice(0, 40), { date: '2026-11-10', spend: '100' }, { date: null, spend: 5 }];
    expect(monthPacing(mixed, plan)).toMatchObject({ spent: 1000, share: 1 });
  });

  it('carries the forecast interval from the backtest table, and what the plan needs a day', () => {
    const pacing = monthPacing(rows, plan);
    const [low, high] = errorQuantiles(20);
    expect(pacing?.low).toBeCloseTo(3000 * (1 + low), 6);
    expect(pacing?.high).toBeCloseTo(3000 * (1 + high), 6);
    // (3000 − 1000) over the 20 days left, today included.
    expect(pacing?.neededPerDay).toBeCloseTo(100, 9);
    expect(monthPacing(rows, { ...plan, plan: 900 })?.neededPerDay).toBe(0);
  });

  it("is undefined on the month's first day", () => {
    expect(monthPacing(rows, { ...plan, today: '2026-11-01' })).toBeUndefined();
  });
});
