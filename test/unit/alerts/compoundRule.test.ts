import { acknowledge, snooze } from '../../../src/alerts/index.js';
import { alertMessageInput } from '../../../src/insights/index.js';
import { alertParentMessage, alertReplyMessage } from '../../../src/render/index.js';
import { type AlertRule, alertSchema } from '../../../src/reports/index.js';
import { HOUR, runSteps, T0 } from './alertFixtures.js';

const BR = 'countryCode=BR';
const US = 'countryCode=US';

function must<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('expected a value');
  return value;
}

/** A compound rule as YAML would give it. */
function compound(fields: Record<string, unknown>): AlertRule {
  return alertSchema.parse({ id: 'spend-without-installs', name: 'Spend without installs', ...fields });
}

const spendNoInstalls = {
  all: [
    { metric: 'spend', above: 200 },
    { metric: 'installs', equals: 0 },
  ],
};

/** Rows of countries with spend and installs. */
function rows(values: Record<string, [spend: number, installs: number | null]>) {
  return Object.entries(values).map(([countryCode, [spend, installs]]) => ({
    countryCode,
    spend,
    installs,
    installsCpi: installs ? spend / installs : null,
  }));
}

describe('compound rules: all / any of conditions on the same entity', () => {
  it.each([
    ['all: opens only when every condition holds', spendNoInstalls, [{ BR: [500, 0], US: [500, 3] }], [[`open:${BR}`]]],
    ['all: spend under the floor with no installs stays quiet', spendNoInstalls, [{ BR: [150, 0] }], [[]]],
    [
      'all: resolves as soon as one condition no longer holds',
      spendNoInstalls,
      [{ BR: [500, 0] }, { BR: [520, 4] }],
      [[`open:${BR}`], [`resolve:${BR}`]],
    ],
    [
      'all: hysteresis of one condition keeps it open until past its recovery',
      {
        all: [
          { metric: 'spend', above: 200, recovery: 100 },
          { metric: 'installsCpi', above: 50, recovery: 40 },
        ],
      },
      [{ BR: [500, 5] }, { BR: [150, 3] }, { BR: [90, 3] }],
      [[`open:${BR}`], [], [`resolve:${BR}`]],
    ],
    [
      'any: opens when one condition holds, resolves when none does',
      {
        any: [
          { metric: 'installs', below: 10 },
          { metric: 'installsCpi', above: 8 },
        ],
      },
      [{ BR: [1000, 50], US: [700, 100] }, { BR: [1000, 5], US: [700, 100] }, { BR: [1000, 200] }],
      [[`open:${BR}`], [], [`resolve:${BR}`]],
    ],
    [
      'consecutive counts evaluations where the whole compound holds',
      { ...spendNoInstalls, consecutive: 2 },
      [{ BR: [500, 0] }, { BR: [500, 2] }, { BR: [500, 0] }, { BR: [500, 0] }],
      [[], [], [], [`open:${BR}`]],
    ],
  ])('%s', (_name, fields, values, expected) => {
    const steps = (values as unknown as Array<Record<string, [number, number]>>).map((v, i) => ({
      at: i,
      rows: rows(v),
    }));
    expect(runSteps(compound(fields), steps).kinds).toEqual(expected);
  });

  it('names every condition with its value in the transition and in the parent message', () => {
    const r = compound(spendNoInstalls);
    const { results } = runSteps(r, [{ at: 0, rows: rows({ BR: [812.4, 0] }) }]);
    const t = results[0]?.transitions[0];
    expect(t?.condition).toEqual({
      kind: 'compound',
      mode: 'all',
      parts: [
        { metric: 'spend', value: 812.4, breach: true, facts: { kind: 'above', threshold: 200, recovery: 200 } },
        { metric: 'installs', value: 0, breach: true, facts: { kind: 'equals', target: 0 } },
      ],
    });
    const ctx = {
      rule: r,
      reportId: 'daily-kpi',
      reportTitle: 'Daily KPIs',
      timezone: 'UTC',
      rangeLabel: 'Yesterday',
      now: new Date(T0),
    };
    const parent = JSON.stringify(alertParentMessage(alertMessageInput(must(t).incident, ctx, t)).blocks);
    expect(parent).toContain('*Spend* is *$812.40*, above $200.00 and *Installs* is *0*, equal to 0');
    // An acknowledgement redraws the parent from the stored incident: the conditions are still named.
    const acked = acknowledge(must(t).incident, 'U024BE7LH', new Date(T0 + HOUR));
    const redrawn = JSON.stringify(alertParentMessage(alertMessageInput(acked, ctx)).blocks);
    expect(redrawn).toContain('*Installs* is *0*, equal to 0');
  });

  it('says which condition stopped holding when it resolves', () => {
    const r = compound(spendNoInstalls);
    const { results } = runSteps(r, [
      { at: 0, rows: rows({ BR: [500, 0] }) },
      { at: 1, rows: rows({ BR: [480, 6] }) },
    ]);
    const t = results[1]?.transitions[0];
    const ctx = {
      rule: r,
      reportId: 'daily-kpi',
      reportTitle: 'Daily KPIs',
      timezone: 'UTC',
      rangeLabel: 'Yesterday',
      now: new Date(T0 + HOUR),
    };
    const reply = JSON.stringify(alertReplyMessage(alertMessageInput(must(t).incident, ctx, t), 'resolved').blocks);
    expect(reply).toContain('*Installs* is *6*, not equal to 0');
  });

  it('renotifies, and stays quiet while acknowledged or snoozed', () => {
    const r = compound({ ...spendNoInstalls, renotify: '2h' });
    const breach = rows({ BR: [500, 0] });
    const { kinds } = runSteps(r, [
      { at: 0, rows: breach },
      { at: 2, rows: breach },
      { at: 4, rows: breach, before: (incidents, now) => incidents.map((i) => snooze(i, 24, now)) },
      { at: 6, rows: breach, before: (incidents, now) => incidents.map((i) => acknowledge(i, 'U1', now)) },
    ]);
    expect(kinds).toEqual([[`open:${BR}`], [`remind:${BR}`], [], []]);
  });

  it('announces a large move of its first condition', () => {
    const { kinds } = runSteps(compound(spendNoInstalls), [
      { at: 0, rows: rows({ BR: [300, 0] }) },
      { at: 1, rows: rows({ BR: [450, 0] }) },
    ]);
    expect(kinds).toEqual([[`open:${BR}`], [`bigMove:${BR}`]]);
  });

  it('skips entities below the volume floor, or with a condition it cannot judge, naming the metric', () => {
    const r = compound({ ...spendNoInstalls, minVolume: { metric: 'spend', value: 100 } });
    const { results } = runSteps(r, [{ at: 0, rows: rows({ BR: [50, 0], US: [500, null] }) }]);
    expect(results[0]?.transitions).toEqual([]);
    expect(results[0]?.skipped.map((s) => [s.entityKey, s.reason, s.detail])).toEqual([
      [BR, 'below_volume', 'spend: spend 50 is below the floor of 100'],
      [US, 'no_value', 'installs: the service returned no value'],
    ]);
  });

  it('judges change conditions against the comparison rows', () => {
    const r = compound({
      all: [
        { metric: 'spend', change: { above: '50%' } },
        { metric: 'installs', below: 10 },
      ],
    });
    const { kinds, results } = runSteps(r, [
      {
        at: 0,
        rows: rows({ BR: [900, 3], US: [900, 50] }),
        comparison: { rows: rows({ BR: [400, 20], US: [400, 50] }) },
      },
    ]);
    expect(kinds).toEqual([[`open:${BR}`]]);
    const parts = results[0]?.transitions[0]?.condition;
    expect(parts).toMatchObject({ kind: 'compound', parts: [{ facts: { kind: 'change', percent: 1.25 } }, {}] });
  });
});

describe('compound rules: the schema', () => {
  it.each([
    [{ all: [{ metric: 'spend', above: 1 }] }, '>=2 items'],
    [{ metric: 'spend', all: spendNoInstalls.all }, 'move metric into one of them'],
    [{ all: spendNoInstalls.all, any: spendNoInstalls.all }, 'give all or any, not both'],
    [
      {
        all: [
          { metric: 'spend', above: 1, below: 2 },
          { metric: 'installs', equals: 0 },
        ],
      },
      'exactly one condition',
    ],
    [
      {
        all: [
          { metric: 'spend', above: 1 },
          { metric: 'installs', equals: 0, recovery: 1 },
        ],
      },
      'remove recovery',
    ],
    [
      {
        all: [
          { metric: 'spend', change: { above: '10%' } },
          { metric: 'installs', change: { vs: 'same_period_last_week', below: '-10%' } },
        ],
      },
      'use one vs',
    ],
    [{}, 'give the metric to watch'],
  ])('refuses %j', (fields, message) => {
    const parsed = alertSchema.safeParse({ id: 'x', ...fields });
    expect(parsed.success).toBe(false);
    expect(JSON.stringify(parsed.error?.issues)).toContain(message);
  });

  it('sets the rule metric to the first condition’s, so charts and keys have one', () => {
    expect(compound(spendNoInstalls).metric).toBe('spend');
  });

  it('accepts equals on a one-condition rule', () => {
    const { kinds } = runSteps(alertSchema.parse({ id: 'no-installs', metric: 'installs', equals: 0 }), [
      { at: 0, rows: rows({ BR: [500, 0], US: [500, 2] }) },
    ]);
    expect(kinds).toEqual([[`open:${BR}`]]);
  });
});
