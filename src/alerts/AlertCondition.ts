/**
 * The alert condition model: what an incident's value was held against, as its messages and
 * charts state it (one condition, every condition of a compound rule, or a month's plan), and the
 * rule's severity. `alertMessageInput` (insights/) builds it from an evaluation's facts; render/'s
 * alert messages and charts read it.
 */
import type { ViewColumn } from '../reports/index.js';
import type { PacingFacts } from './types.js';

export type AlertSeverity = 'info' | 'warning' | 'critical';

/** One condition of a compound rule as the message shows it: its metric, value, and whether it holds. */
export interface AlertConditionPart {
  label: string;
  unit: ViewColumn['unit'];
  value: number | null;
  breach: boolean;
  condition: SimpleAlertCondition;
}

/** What the value was held against: one condition, or every condition of a compound rule. */
export type AlertCondition =
  | SimpleAlertCondition
  | { kind: 'compound'; mode: 'all' | 'any'; parts: AlertConditionPart[] }
  | PacingCondition;

/**
 * A pacing rule: the month's forecast (the value) against its plan, outside ±tolerance (0.1 =
 * ±10 %); the facts as the rule judged them.
 */
export type PacingCondition = PacingFacts;

/** What one metric's value was held against. */
export type SimpleAlertCondition =
  | { kind: 'above'; threshold: number; recovery?: number }
  | { kind: 'below'; threshold: number; recovery?: number }
  | { kind: 'equals'; target: number }
  | {
      kind: 'change';
      /** Triggers as fractions: `above: 0.3` is a rise of more than 30 %, `below: -0.2` a fall of more than 20 %. */
      above?: number;
      below?: number;
      /** The comparison period's value and how people name it: `previous period`, `same period last week`. */
      comparisonValue: number | null;
      against: string;
      /** The relative change now (0.42 = +42 %). */
      change?: number | null;
    }
  | {
      kind: 'anomaly';
      /** The expected band and its centre (median of the baseline). */
      low: number;
      high: number;
      median: number;
      /** Robust score: how many spreads away from the median. */
      score: number;
      /** `the same weekday of the last 4 weeks`. */
      baseline: string;
    };
