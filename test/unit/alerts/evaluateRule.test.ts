import { acknowledge, evaluateRule, snooze } from '../../../src/alerts/index.js';
import { cpi, HOUR, rule, runSteps, T0, view } from './alertFixtures.js';

const BR = 'countryCode=BR';
const US = 'countryCode=US';

describe('evaluateRule: the incident lifecycle, one entity per row', () => {
  it.each([
    ['opens at once with consecutive 1', { above: 6 }, [{ BR: 7, US: 3 }], [[`open:${BR}`]]],
    [
      'opens after N consecutive breaches',
      { above: 6, consecutive: 3 },
      [{ BR: 7 }, { BR: 7 }, { BR: 7 }],
      [[], [], [`open:${BR}`]],
    ],
    [
      'restarts the count when a breach is interrupted',
      { above: 6, consecutive: 2 },
      [{ BR: 7 }, { BR: 5 }, { BR: 7 }, { BR: 7 }],
      [[], [], [], [`open:${BR}`]],
    ],
    [
      'stays open without repeating itself',
      { above: 6 },
      [{ BR: 7 }, { BR: 7.2 }, { BR: 6.5 }],
      [[`open:${BR}`], [], []],
    ],
    [
      'recovers at the trigger without hysteresis',
      { above: 6 },
      [{ BR: 7 }, { BR: 6 }],
      [[`open:${BR}`], [`resolve:${BR}`]],
    ],
    [
      'holds in the hysteresis band, resolves past recovery',
      { above: 6, recovery: 5 },
      [{ BR: 7 }, { BR: 5.5 }, { BR: 4.9 }],
      [[`open:${BR}`], [], [`resolve:${BR}`]],
    ],
    [
      'below: opens under, resolves at or above recovery',
      { below: 2, recovery: 2.5 },
      [{ BR: 1.5 }, { BR: 2.2 }, { BR: 2.5 }],
      [[`below-open`], [], [`below-resolve`]],
    ],
    [
      'gives each entity its own incident',
      { above: 6 },
      [
        { BR: 7, US: 8 },
        { BR: 5, US: 8 },
      ],
      [[`open:${BR}`, `open:${US}`], [`resolve:${BR}`]],
    ],
  ])('%s', (_name, fields, values, expected) => {
    const steps = values.map((v, i) => ({ at: i, rows: cpi(v) }));
    const { kinds } = runSteps(rule(fields), steps);
    const want = (expected as string[][]).map((ks) =>
      ks.map((k) => k.replace('below-open', `open:${BR}`).replace('below-resolve', `resolve:${BR}`)),
    );
    expect(kinds).toEqual(want);
  });

  it('reports when and after how long an incident resolved, with its value', () => {
    const { results } = runSteps(rule({ above: 6 }), [
      { at: 0, rows: cpi({ BR: 7 }) },
      { at: 5, rows: cpi({ BR: 4 }) },
    ]);
    const resolve = results[1]?.transitions[0];
    expect(resolve).toMatchObject({
      kind: 'resolve',
      value: 4,
      openedAt: new Date(T0).toISOString(),
      durationMs: 5 * HOUR,
    });
    expect(resolve?.incident).toMatchObject({ state: 'resolved', resolvedAt: new Date(T0 + 5 * HOUR).toISOString() });
  });

  it('keeps pending streaks in the evaluation record until the incident opens', () => {
    const { results } = runSteps(rule({ above: 6, consecutive: 2 }), [{ at: 0, rows: cpi({ BR: 7 }) }]);
    expect(results[0]?.nextState.evaluation).toMatchObject({
      ruleKey: 'daily-kpi/cpi-high',
      evaluated: 1,
      breaching: 1,
      pending: [{ entityKey: BR, streak: 1, lastValue: 7 }],
    });
    expect(results[0]?.nextState.incidents).toEqual([]);
  });
});

describe('evaluateRule: reminders, large moves, ack and snooze', () => {
  const hourly = (values: number[], extra: Partial<Parameters<typeof runSteps>[1][number]>[] = []) =>
    values.map((BR, i) => ({ at: i, rows: cpi({ BR }), ...(extra[i] ?? {}) }));

  it('reminds at most once per renotify interval while open', () => {
    const { kinds } = runSteps(rule({ above: 6, renotify: '3h' }), hourly([7, 7, 7, 7, 7, 7, 7]));
    expect(kinds).toEqual([[`open:${BR}`], [], [], [`remind:${BR}`], [], [], [`remind:${BR}`]]);
  });

  it('never reminds without renotify', () => {
    const { kinds } = runSteps(rule({ above: 6 }), hourly([7, 7, 7, 7, 7, 7, 7, 7, 7, 7]));
    expect(kinds.flat()).toEqual([`open:${BR}`]);
  });

  it('replies when the value goes twice as far beyond the trigger as last announced', () => {
    const { kinds, results } = runSteps(rule({ above: 6 }), hourly([7, 7.5, 8.1, 8.5, 10.2]));
    expect(kinds).toEqual([[`open:${BR}`], [], [`bigMove:${BR}`], [], [`bigMove:${BR}`]]);
    expect(results[2]?.transitions[0]).toMatchObject({ value: 8.1, previousValue: 7.5 });
  });

  it('stops reminders once acknowledged, but still replies to a large move', () => {
    const ack = (incidents: Parameters<typeof acknowledge>[0][], now: Date) =>
      incidents.map((i) => acknowledge(i, 'U024BE7LH', now));
    const { kinds, state } = runSteps(
      rule({ above: 6, renotify: '1h' }),
      hourly([7, 7, 7, 7, 9], [{}, { before: ack }]),
    );
    expect(kinds).toEqual([[`open:${BR}`], [], [], [], [`bigMove:${BR}`]]);
    expect(state.incidents[0]).toMatchObject({
      acknowledgedBy: 'U024BE7LH',
      acknowledgedAt: new Date(T0 + HOUR).toISOString(),
    });
  });

  it('says nothing while snoozed, and reminds once the snooze is over', () => {
    const nap = (incidents: Parameters<typeof snooze>[0][], now: Date) => incidents.map((i) => snooze(i, 3, now));
    const { kinds } = runSteps(rule({ above: 6, renotify: '1h' }), hourly([7, 7, 9, 9, 9, 9], [{}, { before: nap }]));
    // Snoozed at 1 h until 4 h: no reminder at 1–3 h and no large-move reply at 2 h; the move
    // held back is told when the snooze ends, then reminders resume.
    expect(kinds).toEqual([[`open:${BR}`], [], [], [], [`bigMove:${BR}`], [`remind:${BR}`]]);
  });
});

describe('evaluateRule: reopening', () => {
  it('reopens the same incident (same thread) on a breach within 24 h of resolving', () => {
    const { results } = runSteps(rule({ above: 6 }), [
      { at: 0, rows: cpi({ BR: 7 }) },
      { at: 1, rows: cpi({ BR: 5 }) },
      { at: 20, rows: cpi({ BR: 8 }) },
    ]);
    const [opened, , reopened] = results.map((r) => r.transitions[0]);
    expect(reopened).toMatchObject({ kind: 'reopen', notify: true, openedAt: new Date(T0 + 20 * HOUR).toISOString() });
    expect(reopened?.incident.id).toBe(opened?.incident.id);
    expect(reopened?.incident).toMatchObject({ state: 'open', reopenCount: 1 });
    expect(reopened?.incident.resolvedAt).toBeUndefined();
  });

  it('opens a new incident when the breach comes more than 24 h after resolving', () => {
    const { results } = runSteps(rule({ above: 6 }), [
      { at: 0, rows: cpi({ BR: 7 }) },
      { at: 1, rows: cpi({ BR: 5 }) },
      { at: 26, rows: cpi({ BR: 8 }) },
    ]);
    const [opened, , again] = results.map((r) => r.transitions[0]);
    expect(again?.kind).toBe('open');
    expect(again?.incident.id).not.toBe(opened?.incident.id);
  });

  it('reopens silently while snoozed', () => {
    const { results } = runSteps(rule({ above: 6 }), [
      { at: 0, rows: cpi({ BR: 7 }) },
      { at: 1, rows: cpi({ BR: 7 }), before: (incidents, now) => incidents.map((i) => snooze(i, 24, now)) },
      { at: 2, rows: cpi({ BR: 5 }) },
      { at: 3, rows: cpi({ BR: 8 }) },
    ]);
    expect(results[3]?.transitions[0]).toMatchObject({ kind: 'reopen', notify: false });
  });

  it('tells the thread about a reopening kept quiet by a snooze once the snooze is over', () => {
    const { kinds, results } = runSteps(rule({ above: 6 }), [
      { at: 0, rows: cpi({ BR: 7 }) },
      { at: 1, rows: cpi({ BR: 7 }), before: (incidents, now) => incidents.map((i) => snooze(i, 4, now)) },
      { at: 2, rows: cpi({ BR: 5 }) },
      { at: 3, rows: cpi({ BR: 7 }) },
      { at: 4, rows: cpi({ BR: 7 }) },
      { at: 6, rows: cpi({ BR: 7 }) },
      { at: 7, rows: cpi({ BR: 7 }) },
    ]);
    expect(kinds).toEqual([[`open:${BR}`], [], [`resolve:${BR}`], [`reopen:${BR}`], [], [`reopen:${BR}`], []]);
    expect(results[5]?.transitions[0]?.notify).toBe(true);
  });
});

describe('evaluateRule: skipped entities', () => {
  it('neither opens nor resolves below the volume floor, and says why', () => {
    const r = rule({ above: 6, minVolume: { metric: 'installs', value: 50 } });
    const { kinds, results } = runSteps(r, [
      { at: 0, rows: cpi({ BR: 7 }, 10) },
      { at: 1, rows: cpi({ BR: 7 }, 100) },
      { at: 2, rows: cpi({ BR: 1 }, 10) },
    ]);
    expect(kinds).toEqual([[], [`open:${BR}`], []]);
    expect(results[0]?.skipped).toEqual([
      expect.objectContaining({
        entityKey: BR,
        reason: 'below_volume',
        detail: expect.stringContaining('installs 10'),
      }),
    ]);
    expect(results[2]?.nextState.incidents[0]?.state ?? 'open').toBe('open');
  });

  it('leaves an open incident alone when its entity has no row', () => {
    const { kinds, results } = runSteps(rule({ above: 6 }), [
      { at: 0, rows: cpi({ BR: 7 }) },
      { at: 1, rows: cpi({ US: 3 }) },
    ]);
    expect(kinds[1]).toEqual([]);
    expect(results[1]?.skipped).toEqual([expect.objectContaining({ entityKey: BR, reason: 'not_in_rows' })]);
  });

  it('says so when the metric is not in the result', () => {
    const { results } = runSteps(rule({ metric: 'ctr', above: 0.1 }), [{ at: 0, rows: cpi({ BR: 7 }) }]);
    expect(results[0]?.skipped[0]).toMatchObject({ reason: 'no_metric', detail: expect.stringContaining('"ctr"') });
    expect(results[0]?.nextState.evaluation.evaluated).toBe(0);
  });
});

describe('evaluateRule: percent change', () => {
  const previous = (values: Record<string, number>) => ({ rows: cpi(values) });

  it.each([
    ['opens on a rise beyond above', { change: { above: '30%' } }, { BR: 7 }, { BR: 5 }, [`open:${BR}`]],
    ['stays quiet under the trigger', { change: { above: '30%' } }, { BR: 6 }, { BR: 5 }, []],
    ['opens on a fall beyond below', { change: { below: '-20%' } }, { BR: 3 }, { BR: 5 }, [`open:${BR}`]],
    [
      'legacy any-direction rule fires both ways',
      { change: { percent: 30 } },
      { BR: 3, US: 7 },
      { BR: 5, US: 5 },
      [`open:${BR}`, `open:${US}`],
    ],
  ])('%s', (_name, fields, now, before, expected) => {
    const { kinds } = runSteps(rule(fields), [{ at: 0, rows: cpi(now), comparison: previous(before) }]);
    expect(kinds[0]).toEqual(expected);
  });

  it('carries the comparison value and the change in the transition', () => {
    const { results } = runSteps(rule({ change: { vs: 'same_period_last_week', above: '30%' } }), [
      { at: 0, rows: cpi({ BR: 7 }), comparison: previous({ BR: 5 }) },
    ]);
    expect(results[0]?.transitions[0]?.condition).toMatchObject({
      kind: 'change',
      vs: 'same_period_last_week',
      comparisonValue: 5,
      above: 0.3,
    });
    const condition = results[0]?.transitions[0]?.condition;
    expect(condition?.kind === 'change' && condition.percent).toBeCloseTo(0.4, 9);
  });

  it('resolves past a recovery percentage only', () => {
    const { kinds } = runSteps(rule({ change: { above: '30%' }, recovery: '10%' }), [
      { at: 0, rows: cpi({ BR: 7 }), comparison: previous({ BR: 5 }) },
      { at: 1, rows: cpi({ BR: 6 }), comparison: previous({ BR: 5 }) },
      { at: 2, rows: cpi({ BR: 5.4 }), comparison: previous({ BR: 5 }) },
    ]);
    expect(kinds).toEqual([[`open:${BR}`], [], [`resolve:${BR}`]]);
  });

  it('skips an entity without a comparison row, with a reason', () => {
    const { kinds, results } = runSteps(rule({ change: { above: '30%' } }), [
      { at: 0, rows: cpi({ BR: 9, US: 9 }), comparison: previous({ US: 5 }) },
    ]);
    expect(kinds[0]).toEqual([`open:${US}`]);
    expect(results[0]?.skipped).toEqual([expect.objectContaining({ entityKey: BR, reason: 'no_comparison' })]);
  });

  it('skips every entity when no comparison period was fetched', () => {
    const { results } = runSteps(rule({ change: { above: '30%' } }), [{ at: 0, rows: cpi({ BR: 9 }) }]);
    expect(results[0]?.skipped.map((s) => s.reason)).toEqual(['no_comparison']);
  });
});

describe('evaluateRule: anomaly', () => {
  const weeks = (...values: Array<Record<string, number>>) => values.map((v) => ({ rows: cpi(v) }));
  // median 2.1, MAD 0.2 → spread 1.4826 × 1.363 (4 values) × 0.2 = 0.40416, band 2.1 ± 1.2125
  const history = weeks({ BR: 2.0 }, { BR: 2.4 }, { BR: 1.6 }, { BR: 2.2 });

  it('fires on the bad side of the metric and carries the expected band', () => {
    const { results } = runSteps(rule({ anomaly: {} }), [{ at: 0, rows: cpi({ BR: 3.5 }), history }]);
    const t = results[0]?.transitions[0];
    expect(t?.kind).toBe('open');
    expect(t?.condition).toMatchObject({ kind: 'anomaly', direction: 'up' });
    const c = t?.condition as { median: number; low: number; high: number; score: number };
    expect(c.median).toBeCloseTo(2.1, 9);
    const spread = 1.4826 * 1.363 * 0.2;
    expect(c.high).toBeCloseTo(2.1 + 3 * spread, 6);
    expect(c.low).toBeCloseTo(2.1 - 3 * spread, 6);
    expect(c.score).toBeCloseTo(1.4 / spread, 6);
    expect(t?.incident.band?.high).toBeCloseTo(c.high, 9);
    expect(t?.incident.threshold).toBeCloseTo(c.high, 9);
  });

  it('ignores a fall of a lower-is-better metric unless told to watch both sides', () => {
    expect(runSteps(rule({ anomaly: {} }), [{ at: 0, rows: cpi({ BR: 0.7 }), history }]).kinds[0]).toEqual([]);
    expect(
      runSteps(rule({ anomaly: { direction: 'any' } }), [{ at: 0, rows: cpi({ BR: 0.7 }), history }]).kinds[0],
    ).toEqual([`open:${BR}`]);
  });

  it('stays quiet inside the band and resolves when back in it', () => {
    const { kinds } = runSteps(rule({ anomaly: {} }), [
      { at: 0, rows: cpi({ BR: 2.1 }), history },
      { at: 1, rows: cpi({ BR: 3.5 }), history },
      { at: 2, rows: cpi({ BR: 2.05 }), history },
    ]);
    expect(kinds).toEqual([[], [`open:${BR}`], [`resolve:${BR}`]]);
  });

  it('guards a flat baseline (MAD = 0) with a spread of 10 % of the median', () => {
    const flat = weeks({ BR: 2 }, { BR: 2 }, { BR: 2 }, { BR: 2 });
    expect(runSteps(rule({ anomaly: {} }), [{ at: 0, rows: cpi({ BR: 2.55 }), history: flat }]).kinds[0]).toEqual([]);
    expect(runSteps(rule({ anomaly: {} }), [{ at: 0, rows: cpi({ BR: 2.65 }), history: flat }]).kinds[0]).toEqual([
      `open:${BR}`,
    ]);
  });

  it('skips an entity with fewer than three baseline values', () => {
    const { results } = runSteps(rule({ anomaly: {} }), [
      { at: 0, rows: cpi({ BR: 9 }), history: weeks({ BR: 2 }, { US: 2 }) },
    ]);
    expect(results[0]?.skipped[0]).toMatchObject({ entityKey: BR, reason: 'no_baseline' });
  });

  it('counts an entity with no row now as 0 for an additive metric (an outage)', () => {
    const usual = weeks({ BR: 900, US: 1000 }, { BR: 950, US: 1000 }, { BR: 1000, US: 1000 }, { BR: 980, US: 1000 });
    const spendRows = (values: Record<string, number>) => ({
      rows: Object.entries(values).map(([countryCode, spend]) => ({
        countryCode,
        spend,
        installs: 100,
        installsCpi: 2,
      })),
    });
    const history = usual.map((w) =>
      spendRows(Object.fromEntries(w.rows.map((r) => [r.countryCode, r.installsCpi as number]))),
    );
    const { results } = runSteps(rule({ metric: 'spend', anomaly: {} }), [
      { at: 0, rows: spendRows({ US: 1000 }).rows, history },
    ]);
    expect(results[0]?.transitions.map((t) => [t.kind, t.entityKey, t.value])).toEqual([['open', BR, 0]]);
  });

  it('applies the volume floor to the usual volume, so a collapse is still seen', () => {
    const r = rule({ metric: 'spend', anomaly: {}, minVolume: { metric: 'installs', value: 50 } });
    const row = (spend: number, installs: number) => [{ countryCode: 'BR', spend, installs, installsCpi: 2 }];
    const history = [1000, 990, 1010, 1000].map((s) => ({ rows: row(s, 100) }));
    const { kinds } = runSteps(r, [{ at: 0, rows: row(150, 10), history }]);
    expect(kinds[0]).toEqual([`open:${BR}`]);
  });
});

describe('evaluateRule: totals and time series', () => {
  it('evaluates the totals row with on: total', () => {
    const { kinds } = runSteps(rule({ above: 6, on: 'total' }), [
      { at: 0, rows: cpi({ BR: 9, US: 9 }), totals: { installsCpi: 6.5, installs: 200, spend: 1300 } },
    ]);
    expect(kinds[0]).toEqual(['open:total']);
  });

  it('judges the latest time bucket of each entity', () => {
    const rows = [
      { date: '2026-11-18T00:00:00Z', countryCode: 'BR', installsCpi: 9, installs: 100, spend: 1 },
      { date: '2026-11-19T00:00:00Z', countryCode: 'BR', installsCpi: 3, installs: 100, spend: 1 },
    ];
    const result = evaluateRule({
      reportId: 'daily-kpi',
      rule: rule({ above: 6 }),
      current: view(rows, { time: true }),
      state: { incidents: [] },
      now: new Date(T0),
      channel: 'C1',
    });
    expect(result.transitions).toEqual([]);
    expect(result.nextState.evaluation.evaluated).toBe(1);
  });
});
