/** The shapes the alert core exchanges: a rule's state in, transitions and the next state out. */
import type { AlertRule } from '../reports/index.js';
import type { AlertEvaluation, AlertIncident } from '../store/index.js';

/** What the store holds for one rule: its incidents (any order) and its last evaluation, if any. */
export interface RuleState {
  incidents: readonly AlertIncident[];
  evaluation?: AlertEvaluation;
}

export type TransitionKind = 'open' | 'remind' | 'bigMove' | 'resolve' | 'reopen';

/** What one metric's value was held against, for messages. */
export type SimpleConditionFacts =
  | { kind: 'above' | 'below'; threshold: number; recovery: number }
  | { kind: 'equals'; target: number }
  | {
      kind: 'change';
      vs: NonNullable<AlertRule['change']>['vs'];
      /** Triggers as fractions (0.3 = +30 %). */
      above?: number;
      below?: number;
      recovery?: number;
      /** The comparison period's value and the relative change now. */
      comparisonValue: number | null;
      percent: number;
    }
  | {
      kind: 'anomaly';
      baseline: NonNullable<AlertRule['anomaly']>['baseline'];
      weeks: number;
      sensitivity: number;
      direction: 'up' | 'down' | 'any';
      median: number;
      low: number;
      high: number;
      score: number;
    };

/** One condition of a compound rule as judged: its metric (output key), value, and whether it held. */
export interface CompoundPart {
  metric: string;
  value: number;
  breach: boolean;
  facts: SimpleConditionFacts;
}

/** A pacing rule's facts: the month's forecast against its plan (the value judged is the forecast). */
export interface PacingFacts {
  kind: 'pacing';
  /** `YYYY-MM`. */
  month: string;
  plan: number;
  /** Spend of the month's complete days so far, and the month-end forecast. */
  spent: number;
  forecast: number;
  /** forecast ÷ plan (0.98 = 98 %). */
  share: number;
  /** ±tolerance around the plan (0.1 = 10 %). */
  tolerance: number;
  /** ±recovery: an open incident resolves once the forecast is back within it (absent in older incidents). */
  recovery?: number;
  daysElapsed: number;
  daysInMonth: number;
  /** The forecast's likely range (`forecastInterval`); absent in older incidents. */
  low?: number;
  high?: number;
  /** Spend a day the rest of the month needs to land on plan. */
  neededPerDay?: number;
  /** Yesterday, when its data was still arriving and not counted. */
  pending?: string;
}

/** What the value was held against, for messages: one condition, every condition of a compound rule, or a plan. */
export type ConditionFacts =
  | SimpleConditionFacts
  | { kind: 'compound'; mode: 'all' | 'any'; parts: CompoundPart[] }
  | PacingFacts;

/** One change of an incident that the thread should hear about (or record silently: `notify: false`). */
export interface AlertTransition {
  kind: TransitionKind;
  reportId: string;
  ruleId: string;
  ruleName: string;
  severity: AlertRule['severity'];
  entityKey: string;
  entityLabel: string;
  /** The incident after the transition (its id names the thread). */
  incident: AlertIncident;
  /** The metric's value now. */
  value: number;
  condition: ConditionFacts;
  /** When the incident (re)opened; for `resolve`, how long it lasted. */
  openedAt: string;
  durationMs?: number;
  /** Reminders and large moves: the value at the previous evaluation. */
  previousValue?: number;
  /** False while snoozed: the store changes, the thread is not told (the parent may still be edited). */
  notify: boolean;
}

export type SkipReason =
  | 'below_volume'
  | 'no_value'
  | 'no_comparison'
  | 'no_baseline'
  | 'not_in_rows'
  | 'no_metric'
  | 'no_plan'
  | 'too_early';

/** An entity the evaluation could not judge; it neither opened nor resolved anything. */
export interface SkippedEntity {
  entityKey: string;
  entityLabel: string;
  reason: SkipReason;
  detail: string;
}

/** One entity as judged by an evaluation (skipped ones are in `skipped`): what a backtest charts. */
export interface JudgedValue {
  entityKey: string;
  entityLabel: string;
  value: number;
  breach: boolean;
  /** The trigger on the side that matters (an anomaly band's edge). */
  threshold: number;
  condition: ConditionFacts;
}

export interface RuleEvaluation {
  transitions: AlertTransition[];
  /** Every entity judged, with its value and condition. */
  judged?: JudgedValue[];
  /** Exactly what `store.incidents.applyEvaluation` takes: one write for the whole evaluation. */
  nextState: { evaluation: AlertEvaluation; incidents: AlertIncident[] };
  skipped: SkippedEntity[];
}
