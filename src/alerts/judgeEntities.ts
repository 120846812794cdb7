/**
 * Observes and judges every entity of a rule's result in one step, for rules with one condition
 * and for compound rules (`all:` / `any:`), whose conditions are each judged like a one-condition
 * rule on the same entity and then combined. Pure.
 */
import type { Polarity } from '../reporting/index.js';
import { type AlertRule, compoundOf, type MonthPacing, type ReportView, type RuleCondition } from '../reports/index.js';
import { type Judgement, judge, type Skip } from './judge.js';
import { judgePacing } from './judgePacing.js';
import { type Observation, observeEntities, type PeriodRows, ruleMetricKey, TOTAL_KEY } from './observeEntities.js';
import type { CompoundPart, SimpleConditionFacts } from './types.js';

export interface JudgedEntity {
  /** The entity's observation (of a compound rule: of its first condition's metric). */
  obs: Observation;
  judged: Judgement | Skip;
}

export type JudgedEntities = { entities: JudgedEntity[] } | { reason: string };

/**
 * The rule of one condition of a compound rule: the compound's entity scope, volume floor and
 * timing, with the condition's metric, trigger and recovery.
 *
 * @example conditionRule(rule, { metric: 'installs', equals: 0 }) // a rule judging installs = 0
 */
export function conditionRule(rule: AlertRule, condition: RuleCondition): AlertRule {
  const {
    all: _all,
    any: _any,
    above: _above,
    below: _below,
    equals: _equals,
    change: _change,
    anomaly: _anomaly,
    recovery: _recovery,
    ...rest
  } = rule;
  const leaf: AlertRule = { ...rest, metric: condition.metric };
  if (condition.above !== undefined) leaf.above = condition.above;
  if (condition.below !== undefined) leaf.below = condition.below;
  if (condition.equals !== undefined) leaf.equals = condition.equals;
  if (condition.change !== undefined) leaf.change = condition.change;
  if (condition.recovery !== undefined) leaf.recovery = condition.recovery;
  return leaf;
}

/**
 * Every entity of `view` with its judgement, or why the rule cannot be evaluated at all. A pacing
 * rule has one entity (the total), judged on `periods.pacing` by `judgePacing`.
 *
 * A compound entity is skipped when any of its conditions cannot be judged (no value, no
 * comparison, below the volume floor): the skip names the metric. `all` breaches when every
 * condition does and recovers as soon as one condition is past its recovery threshold; `any`
 * breaches when one does and recovers when every one is past its recovery threshold. Between,
 * an open incident stays open and nothing is said, as with one condition's hysteresis. Large
 * moves are measured on the first condition.
 *
 * @example judgeEntities(rule, view, {}) // { entities: [{ obs, judged: { breach: true, facts: { kind: 'compound', … } } }] }
 */
export function judgeEntities(
  rule: AlertRule,
  view: ReportView,
  periods: { comparison?: PeriodRows; history?: readonly PeriodRows[]; pacing?: MonthPacing },
): JudgedEntities {
  if (rule.pacing !== undefined) {
    // One entity: what the report's filter selects, its month-end forecast the value judged.
    const obs: Observation = {
      entityKey: TOTAL_KEY,
      entityLabel: 'Total',
      entity: [],
      value: periods.pacing?.forecast ?? null,
    };
    return { entities: [{ obs, judged: judgePacing(rule, periods.pacing) }] };
  }
  const compound = compoundOf(rule);
  if (compound === undefined) {
    const observed = observeEntities(rule, view, periods);
    if ('reason' in observed) return observed;
    const polarity: Polarity = observed.metric.polarity;
    return { entities: observed.observations.map((obs) => ({ obs, judged: judge(rule, obs, polarity) })) };
  }

  const leaves = compound.conditions.map((condition) => {
    const leaf = conditionRule(rule, condition);
    return { leaf, key: ruleMetricKey(leaf), observed: observeEntities(leaf, view, periods) };
  });
  const byKey: Array<Map<string, Observation>> = [];
  for (const { observed } of leaves) {
    if ('reason' in observed) return observed;
    byKey.push(new Map(observed.observations.map((o) => [o.entityKey, o])));
  }
  const first = leaves[0]?.observed;
  if (first === undefined || 'reason' in first) return { reason: 'the rule has no condition' };

  const entities = first.observations.map((obs): JudgedEntity => {
    const parts: Array<{ judged: Judgement; part: CompoundPart }> = [];
    for (const [i, { leaf, key, observed }] of leaves.entries()) {
      const own = byKey[i]?.get(obs.entityKey);
      if (own === undefined) return { obs, judged: { reason: 'no_value', detail: `${key}: no value for this entity` } };
      const polarity = 'reason' in observed ? 'neutral' : observed.metric.polarity;
      const judged = judge(leaf, own, polarity);
      if (!('breach' in judged)) return { obs, judged: { reason: judged.reason, detail: `${key}: ${judged.detail}` } };
      parts.push({
        judged,
        part: {
          metric: key,
          value: own.value as number,
          breach: judged.breach,
          facts: judged.facts as SimpleConditionFacts,
        },
      });
    }
    return { obs, judged: combine(compound.mode, parts) };
  });
  return { entities };
}

function combine(mode: 'all' | 'any', parts: ReadonlyArray<{ judged: Judgement; part: CompoundPart }>): Judgement {
  const primary = parts[0]?.judged as Judgement;
  const breach = mode === 'all' ? parts.every((p) => p.judged.breach) : parts.some((p) => p.judged.breach);
  const recovered = mode === 'all' ? parts.some((p) => p.judged.recovered) : parts.every((p) => p.judged.recovered);
  const judged: Judgement = {
    breach,
    recovered: !breach && recovered,
    measure: primary.measure,
    distance: primary.distance,
    threshold: primary.threshold,
    facts: { kind: 'compound', mode, parts: parts.map((p) => p.part) },
  };
  const comparison = parts.find((p) => p.judged.comparisonValue !== undefined)?.judged.comparisonValue;
  if (comparison !== undefined && primary.comparisonValue !== undefined) judged.comparisonValue = comparison;
  return judged;
}
