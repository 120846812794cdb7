/**
 * Holds one observation against a rule's condition: is it in breach, has it recovered (with the
 * hysteresis of `recovery`), and how far beyond the trigger it is (for large moves). Pure.
 */
import type { Polarity } from '../reporting/index.js';
import type { AlertRule } from '../reports/index.js';
import { anomalyScore, median } from './anomalyScore.js';
import type { Observation } from './observeEntities.js';
import type { ConditionFacts, SkipReason } from './types.js';

export interface Judgement {
  breach: boolean;
  /** Only meaningful for open incidents: back on the safe side of the recovery threshold. */
  recovered: boolean;
  /** What is compared: the value, or the relative change for change rules. */
  measure: number;
  /** How far `x` (a measure) lies beyond the trigger; positive in breach. */
  distance: (x: number) => number;
  /** The trigger on the side that matters (for anomaly rules, the band's edge). */
  threshold: number;
  band?: { low: number; high: number; median: number };
  comparisonValue?: number;
  facts: ConditionFacts;
}

/** Relative tolerance of `equals`: values from the service are sums of doubles. */
const EQUAL_TOLERANCE = 1e-9;

export interface Skip {
  reason: SkipReason;
  detail: string;
}

/** The side an anomaly fires on when the rule does not say: the bad side of the metric. */
export function anomalyDirection(rule: AlertRule, polarity: Polarity): 'up' | 'down' | 'any' {
  if (rule.anomaly?.direction) return rule.anomaly.direction;
  if (polarity === 'lower_is_better') return 'up';
  if (polarity === 'higher_is_better') return 'down';
  return 'any';
}

/** The kinds of single-metric condition a rule states, in the order a rule's fields are read. */
export type ConditionKind = 'above' | 'below' | 'equals' | 'change' | 'anomaly';

/** The kind of a rule's condition: `above`/`below` first, then `equals`, `change`, `anomaly`; none without one. */
export function conditionKind(rule: AlertRule): ConditionKind | undefined {
  if (rule.above !== undefined) return 'above';
  if (rule.below !== undefined) return 'below';
  if (rule.equals !== undefined) return 'equals';
  if (rule.change) return 'change';
  if (rule.anomaly) return 'anomaly';
  return undefined;
}

/** One kind's judge: the observation's value `v` (not null) against the rule's condition of that kind. */
type KindJudge = (rule: AlertRule, v: number, obs: Observation, polarity: Polarity) => Judgement | Skip;

/** A threshold: above (or below) the trigger; recovered at or past `recovery` (default: the trigger). */
function judgeThreshold(rule: AlertRule, v: number): Judgement {
  const up = rule.above !== undefined;
  const trigger = (up ? rule.above : rule.below) as number;
  const recovery = typeof rule.recovery === 'number' ? rule.recovery : trigger;
  const distance = (x: number) => (up ? x - trigger : trigger - x);
  return {
    breach: distance(v) > 0,
    recovered: up ? v <= recovery : v >= recovery,
    measure: v,
    distance,
    threshold: trigger,
    facts: { kind: up ? 'above' : 'below', threshold: trigger, recovery },
  };
}

/** Equal to the target, within the doubles' tolerance. */
function judgeEquals(rule: AlertRule, v: number): Judgement {
  const target = rule.equals as number;
  const equal = (x: number) => Math.abs(x - target) <= EQUAL_TOLERANCE * Math.max(1, Math.abs(target));
  return {
    breach: equal(v),
    recovered: !equal(v),
    measure: v,
    // Equality has no "further past the trigger": a large move can never be announced.
    distance: (x: number) => (equal(x) ? 0.5 : -Math.abs(x - target)),
    threshold: target,
    facts: { kind: 'equals', target },
  };
}

/** The relative change against the comparison period, past `above` or `below`. */
function judgeChange(rule: AlertRule, _v: number, obs: Observation): Judgement | Skip {
  const c = rule.change as NonNullable<AlertRule['change']>;
  const pct = obs.change?.percent ?? null;
  if (pct === null || obs.change === undefined) {
    const why = obs.change === undefined ? 'no comparison row for this entity' : 'the comparison value is missing or 0';
    return { reason: 'no_comparison', detail: `${why} (${c.vs.replace(/_/g, ' ')})` };
  }
  const recovery = typeof rule.recovery === 'object' ? rule.recovery.percent : undefined;
  const distance = (x: number) =>
    Math.max(c.above === undefined ? -Infinity : x - c.above, c.below === undefined ? -Infinity : c.below - x);
  const breach = distance(pct) > 0;
  const within = recovery === undefined || (c.above !== undefined ? pct <= recovery : pct >= recovery);
  const facts: ConditionFacts = { kind: 'change', vs: c.vs, comparisonValue: obs.change.previous, percent: pct };
  if (c.above !== undefined) facts.above = c.above;
  if (c.below !== undefined) facts.below = c.below;
  if (recovery !== undefined) facts.recovery = recovery;
  const judged: Judgement = {
    breach,
    recovered: !breach && within,
    measure: pct,
    distance,
    threshold: c.above !== undefined && (c.below === undefined || pct >= 0) ? c.above : (c.below as number),
    facts,
  };
  if (obs.change.previous !== null) judged.comparisonValue = obs.change.previous;
  return judged;
}

/** Outside the band the baseline's median and spread give, on the rule's side (default: the metric's bad side). */
function judgeAnomaly(rule: AlertRule, v: number, obs: Observation, polarity: Polarity): Judgement | Skip {
  const a = rule.anomaly as NonNullable<AlertRule['anomaly']>;
  const scored = anomalyScore(v, obs.baseline ?? [], a.sensitivity);
  if (scored === undefined) {
    return {
      reason: 'no_baseline',
      detail: `${obs.baseline?.length ?? 0} of ${a.weeks} baseline periods have a value (3 needed)`,
    };
  }
  const direction = anomalyDirection(rule, polarity);
  const k = a.sensitivity;
  const z = (x: number) =>
    scored.spread > 0
      ? (x - scored.median) / scored.spread
      : x === scored.median
        ? 0
        : Math.sign(x - scored.median) * Infinity;
  const distance = (x: number) => (direction === 'up' ? z(x) : direction === 'down' ? -z(x) : Math.abs(z(x))) - k;
  const breach = distance(v) > 0;
  const high = direction === 'up' || (direction === 'any' && v >= scored.median);
  return {
    breach,
    recovered: !breach,
    measure: v,
    distance,
    threshold: high ? scored.high : scored.low,
    band: { low: scored.low, high: scored.high, median: scored.median },
    facts: {
      kind: 'anomaly',
      baseline: a.baseline,
      weeks: a.weeks,
      sensitivity: k,
      direction,
      median: scored.median,
      low: scored.low,
      high: scored.high,
      score: scored.score,
    },
  };
}

/** The judge of each kind of condition. */
export const JUDGES: Readonly<Record<ConditionKind, KindJudge>> = {
  above: judgeThreshold,
  below: judgeThreshold,
  equals: judgeEquals,
  change: judgeChange,
  anomaly: judgeAnomaly,
};

/** Below the rule's volume floor: why the entity is not judged, or undefined when it is. */
function belowVolume(rule: AlertRule, obs: Observation): Skip | undefined {
  if (!rule.minVolume) return undefined;
  // An anomaly rule watches for collapses, which take the volume down with them: its floor
  // holds for the entity's usual volume as much as for today's.
  const usual = obs.baselineVolume && obs.baselineVolume.length > 0 ? median(obs.baselineVolume) : 0;
  const volume = rule.anomaly ? Math.max(obs.volume ?? 0, usual) : obs.volume;
  if (volume === null || volume === undefined || volume < rule.minVolume.value) {
    return {
      reason: 'below_volume',
      detail: `${rule.minVolume.metric} ${volume ?? 'missing'} is below the floor of ${rule.minVolume.value}`,
    };
  }
  return undefined;
}

/**
 * Judges one entity's observation with the judge of its rule's kind (`JUDGES`), or says why it
 * cannot (below the volume floor, no value, no comparison, too little baseline).
 *
 * @example judge(rule, { entityKey: 'total', entityLabel: 'Total', value: 7.1 }, 'lower_is_better')
 */
export function judge(rule: AlertRule, obs: Observation, polarity: Polarity): Judgement | Skip {
  const floor = belowVolume(rule, obs);
  if (floor) return floor;
  const v = obs.value;
  if (v === null) return { reason: 'no_value', detail: 'the service returned no value' };
  const kind = conditionKind(rule);
  if (kind === undefined) return { reason: 'no_value', detail: 'the rule has no condition' };
  return JUDGES[kind](rule, v, obs, polarity);
}
