import { conditionKind, JUDGES, judge } from '../../../src/alerts/judge.js';
import type { Observation } from '../../../src/alerts/observeEntities.js';
import { rule } from './alertFixtures.js';

const obs = (fields: Partial<Observation>): Observation => ({
  entityKey: 'total',
  entityLabel: 'Total',
  value: 5,
  ...fields,
});

describe('judge: one judge per kind of condition', () => {
  it('has a judge for every kind a rule can state', () => {
    expect(Object.keys(JUDGES).sort()).toEqual(['above', 'anomaly', 'below', 'change', 'equals']);
  });

  it.each([
    ['above', { above: 4 }, obs({ value: 5 }), true],
    ['above', { above: 6 }, obs({ value: 5 }), false],
    ['below', { below: 6 }, obs({ value: 5 }), true],
    ['below', { below: 4 }, obs({ value: 5 }), false],
    ['equals', { equals: 5 }, obs({ value: 5 }), true],
    ['equals', { equals: 0 }, obs({ value: 5 }), false],
    [
      'change',
      { change: { above: '30%' } },
      obs({ value: 7, change: { previous: 5, absolute: 2, percent: 0.4 } }),
      true,
    ],
    [
      'change',
      { change: { above: '30%' } },
      obs({ value: 6, change: { previous: 5, absolute: 1, percent: 0.2 } }),
      false,
    ],
    ['anomaly', { anomaly: {} }, obs({ value: 50, baseline: [5, 5.2, 4.8, 5.1] }), true],
    ['anomaly', { anomaly: {} }, obs({ value: 5, baseline: [5, 5.2, 4.8, 5.1] }), false],
  ])('a %s rule %j judges %j: breach %s', (kind, fields, observation, breach) => {
    const r = rule(fields);
    expect(conditionKind(r)).toBe(kind);
    const judged = judge(r, observation, 'lower_is_better');
    expect('breach' in judged && judged.breach).toBe(breach);
    const direct = JUDGES[kind as keyof typeof JUDGES](r, observation.value as number, observation, 'lower_is_better');
    const { distance: _d1, ...same } = judged as { distance: unknown };
    const { distance: _d2, ...sameDirect } = direct as { distance: unknown };
    expect(sameDirect).toEqual(same);
  });

  it('says why it cannot judge: no value, no comparison, too little baseline', () => {
    expect(judge(rule({ above: 4 }), obs({ value: null }), 'neutral')).toMatchObject({ reason: 'no_value' });
    expect(judge(rule({ change: { above: '30%' } }), obs({}), 'neutral')).toMatchObject({ reason: 'no_comparison' });
    expect(judge(rule({ anomaly: {} }), obs({ baseline: [5] }), 'neutral')).toMatchObject({ reason: 'no_baseline' });
  });
});
