import { acknowledge, judgePacing, type PacingFacts } from '../../../src/alerts/index.js';
import { alertMessageInput } from '../../../src/insights/index.js';
import { alertParentMessage, alertReplyMessage } from '../../../src/render/index.js';
import { type AlertRule, alertSchema, forecastInterval, type MonthPacing } from '../../../src/reports/index.js';
import { HOUR, runSteps, T0 } from './alertFixtures.js';

/** A pacing rule as YAML would give it. */
function pacingRule(fields: Record<string, unknown> = {}): AlertRule {
  return alertSchema.parse({ id: 'november-pacing', name: 'Off plan', pacing: { tolerance: '10%' }, ...fields });
}

/** November 2026 with a $120K plan, `daysElapsed` complete days and the given forecast. */
function november(forecast: number, daysElapsed = 10, spent = 40_000): MonthPacing {
  const figures = { month: '2026-11', spent, daysElapsed, daysInMonth: 30, forecast };
  return {
    ...figures,
    method: 'weekday',
    weights: [1, 1, 1, 1, 1, 1, 1],
    plan: 120_000,
    share: forecast / 120_000,
    ...forecastInterval(figures),
    neededPerDay: (120_000 - spent) / (30 - daysElapsed),
  };
}

function must<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('expected a value');
  return value;
}

const ctx = (now: number) => ({
  rule: pacingRule(),
  reportId: 'daily-kpi',
  reportTitle: 'Daily KPIs',
  timezone: 'UTC',
  rangeLabel: 'November 2026 so far',
  now: new Date(now),
});

describe('judgePacing: the month-end forecast against the plan, ±tolerance', () => {
  it.each<[string, MonthPacing | undefined, { breach?: boolean; reason?: string }]>([
    ['on plan: 98 %', november(117_600), { breach: false }],
    ['just inside +10 %: 109.9 %', november(131_880), { breach: false }],
    ['over plan: 125 %', november(150_000), { breach: true }],
    ['under plan: 85 %', november(102_000), { breach: true }],
    ['exactly −10 % is inside', november(108_000), { breach: false }],
    ['no plan for the month', undefined, { reason: 'no_plan' }],
    ['two complete days: too early, however far off', november(300_000, 2), { reason: 'too_early' }],
    ['three complete days: judged', november(300_000, 3), { breach: true }],
  ])('%s', (_name, pacing, expected) => {
    const judged = judgePacing(pacingRule(), pacing);
    if (expected.reason !== undefined) expect('reason' in judged && judged.reason).toBe(expected.reason);
    else expect('breach' in judged && judged.breach).toBe(expected.breach);
  });

  it('records the forecast, plan and share as its facts, the forecast as the value', () => {
    const { results } = runSteps(pacingRule(), [{ at: 0, rows: [], pacing: november(150_000) }]);
    const t = must(results[0]?.transitions[0]);
    expect([t.kind, t.entityKey, t.value]).toEqual(['open', 'total', 150_000]);
    expect(t.condition).toEqual<PacingFacts>({
      kind: 'pacing',
      month: '2026-11',
      plan: 120_000,
      spent: 40_000,
      forecast: 150_000,
      share: 1.25,
      tolerance: 0.1,
      recovery: 0.05,
      daysElapsed: 10,
      daysInMonth: 30,
      low: forecastInterval({ spent: 40_000, forecast: 150_000, daysElapsed: 10, daysInMonth: 30 }).low,
      high: forecastInterval({ spent: 40_000, forecast: 150_000, daysElapsed: 10, daysInMonth: 30 }).high,
      neededPerDay: 4_000,
    });
  });
});

describe('pacing rules through the incident state machine', () => {
  it.each<[string, Record<string, unknown>, number[], string[][]]>([
    [
      'opens off plan, resolves back within the recovery band (half the tolerance)',
      {},
      [150_000, 125_000],
      [['open:total'], ['resolve:total']],
    ],
    [
      'stays open back inside the tolerance but outside the recovery band',
      {},
      [150_000, 129_000, 125_000],
      [['open:total'], [], ['resolve:total']],
    ],
    [
      'pacing: { recovery } sets the band',
      { pacing: { tolerance: '10%', recovery: '2%' } },
      [150_000, 125_000, 122_000],
      [['open:total'], [], ['resolve:total']],
    ],
    ['stays quiet on plan', {}, [118_000, 121_000], [[], []]],
    ['consecutive: two evaluations off plan', { consecutive: 2 }, [90_000, 95_000], [[], ['open:total']]],
    [
      'a large move: twice as far past the tolerance as announced',
      {},
      [138_000, 156_000],
      [['open:total'], ['bigMove:total']],
    ],
  ])('%s', (_name, fields, forecasts, expected) => {
    const steps = forecasts.map((f, i) => ({ at: i * 24, rows: [], pacing: november(f, 10 + i) }));
    expect(runSteps(pacingRule(fields), steps).kinds).toEqual(expected);
  });

  it('does not open and resolve on alternate days while the forecast hovers around the tolerance', () => {
    // 110.8 % and 109.2 % of the plan in turn: outside ±10 %, then just inside it, for ten days.
    const forecasts = [133_000, 131_000, 133_000, 131_000, 133_000, 131_000, 133_000, 131_000, 133_000, 131_000];
    const steps = forecasts.map((f, i) => ({ at: i * 24, rows: [], pacing: november(f, 10 + i) }));
    const hovering = runSteps(pacingRule(), steps).kinds;
    expect(hovering.flat()).toEqual(['open:total']);
    // Back within ±5 % (the default recovery band): resolved, once.
    const settled = [...steps, { at: 240, rows: [], pacing: november(124_000, 20) }];
    expect(runSteps(pacingRule(), settled).kinds.flat()).toEqual(['open:total', 'resolve:total']);
    // Without the band (recovery = tolerance), the same forecasts flap: what the band is for.
    const flapping = runSteps(pacingRule({ pacing: { tolerance: '10%', recovery: '10%' } }), steps).kinds.flat();
    expect(flapping.filter((k) => k === 'resolve:total')).toHaveLength(5);
  });

  it('skips, opening nothing, before three complete days or without a plan', () => {
    const { results } = runSteps(pacingRule(), [
      { at: 0, rows: [], pacing: november(400_000, 2) },
      { at: 24, rows: [] },
    ]);
    expect(results.map((r) => r.transitions.length)).toEqual([0, 0]);
    expect(results.map((r) => r.skipped.map((s) => s.reason))).toEqual([['too_early'], ['no_plan']]);
    expect(results[0]?.skipped[0]?.detail).toBe('2 complete day(s) of 2026-11 so far; pacing is judged from day 4');
  });

  it('says the forecast, the plan and the share in the parent, after an acknowledgement, and on resolving', () => {
    const { results } = runSteps(pacingRule(), [
      { at: 0, rows: [], pacing: november(150_000, 12, 60_000) },
      { at: 24, rows: [], pacing: november(125_000, 13, 64_000) },
    ]);
    const opened = must(results[0]?.transitions[0]);
    const parent = JSON.stringify(alertParentMessage(alertMessageInput(opened.incident, ctx(T0), opened)).blocks);
    expect(parent).toContain(
      '*Spend* forecast $150K (likely $142.1K–$163.3K) for November 2026, 125 % of the $120K plan ($60K spent in 12 of 30 days), outside ±10 %; needs $3.3K a day for the rest of the month to land on plan',
    );
    // An acknowledgement redraws the parent from the stored incident: the same figures.
    const acked = acknowledge(opened.incident, 'U024BE7LH', new Date(T0 + HOUR));
    const redrawn = JSON.stringify(alertParentMessage(alertMessageInput(acked, ctx(T0 + HOUR))).blocks);
    expect(redrawn).toContain('forecast $150K (likely $142.1K–$163.3K) for November 2026, 125 % of the $120K plan');
    const resolved = must(results[1]?.transitions[0]);
    const reply = JSON.stringify(
      alertReplyMessage(alertMessageInput(resolved.incident, ctx(T0 + 24 * HOUR), resolved), 'resolved').blocks,
    );
    expect(reply).toContain('*Spend* is back within ±5 % of plan: forecast $125K (likely');
  });
});
