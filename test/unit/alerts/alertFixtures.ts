/** Views, rules and a tiny in-memory rule state for the alert core's table tests. */
import {
  type EvaluateInput,
  evaluateRule,
  type PeriodRows,
  type RuleEvaluation,
  type RuleState,
} from '../../../src/alerts/index.js';
import type { PivotRow } from '../../../src/reporting/index.js';
import {
  type AlertRule,
  alertSchema,
  describeColumn,
  type MonthPacing,
  type ReportView,
} from '../../../src/reports/index.js';
import type { AlertIncident } from '../../../src/store/index.js';

export const T0 = Date.parse('2026-11-20T09:00:00.000Z');
export const HOUR = 3_600_000;

/** A rule as YAML would give it (schema defaults applied). */
export function rule(fields: Record<string, unknown>): AlertRule {
  return alertSchema.parse({ id: 'cpi-high', metric: 'installsCpi', ...fields });
}

/** A view by country with CPI, installs and spend; `dims` adds a time dimension when asked. */
export function view(rows: PivotRow[], options: { totals?: PivotRow; time?: boolean } = {}): ReportView {
  const columns = [
    ...(options.time
      ? [describeColumn({ key: 'date', kind: 'dimension', name: 'date', args: { granularity: 'DAILY' } })]
      : []),
    describeColumn({ key: 'countryCode', kind: 'dimension', name: 'countryCode', args: {} }),
    describeColumn({ key: 'installsCpi', kind: 'metric', name: 'installsCpi', args: {} }),
    describeColumn({ key: 'installs', kind: 'metric', name: 'installs', args: {} }),
    describeColumn({ key: 'spend', kind: 'metric', name: 'spend', args: {} }),
  ];
  const out: ReportView = {
    reportId: 'daily-kpi',
    title: 'Daily KPIs',
    range: { from: '2026-11-19T00:00:00Z', to: '2026-11-20T00:00:00Z', label: 'Yesterday', timezone: 'UTC' },
    columns,
    rows,
    totalRowCount: rows.length,
    headline: [],
    mode: 'sync',
    warnings: [],
    generatedAt: new Date(T0).toISOString(),
  };
  if (options.totals) out.totals = options.totals;
  return out;
}

/** Rows of countries with a CPI each and a healthy volume. */
export function cpi(values: Record<string, number | null>, installs = 100): PivotRow[] {
  return Object.entries(values).map(([countryCode, installsCpi]) => ({
    countryCode,
    installsCpi,
    installs,
    spend: 1000,
  }));
}

/** Applies an evaluation's writes the way the store does: upsert incidents by id, replace the evaluation. */
export function apply(state: RuleState, result: RuleEvaluation): RuleState {
  const byId = new Map(state.incidents.map((i) => [i.id, i]));
  for (const i of result.nextState.incidents) byId.set(i.id, i);
  return { incidents: [...byId.values()], evaluation: result.nextState.evaluation };
}

export interface Step {
  /** Hours after T0. */
  at: number;
  rows: PivotRow[];
  comparison?: PeriodRows;
  history?: PeriodRows[];
  /** Pacing rules: the month's forecast against its plan. */
  pacing?: MonthPacing;
  totals?: PivotRow;
  /** Change the state before this evaluation (ack, snooze). */
  before?: (incidents: AlertIncident[], now: Date) => AlertIncident[];
}

/** Runs evaluations in order, carrying the state; returns each one's transition kinds and results. */
export function runSteps(r: AlertRule, steps: Step[], start: RuleState = { incidents: [] }) {
  let state = start;
  const results: RuleEvaluation[] = [];
  for (const step of steps) {
    const now = new Date(T0 + step.at * HOUR);
    if (step.before) state = { ...state, incidents: step.before([...state.incidents], now) };
    const input: EvaluateInput = {
      reportId: 'daily-kpi',
      rule: r,
      current: view(step.rows, step.totals ? { totals: step.totals } : {}),
      state,
      now,
      channel: 'C0UADAILY',
    };
    if (step.comparison) input.comparison = step.comparison;
    if (step.history) input.history = step.history;
    if (step.pacing) input.pacing = step.pacing;
    const result = evaluateRule(input);
    results.push(result);
    state = apply(state, result);
  }
  return { kinds: results.map((r) => r.transitions.map((t) => `${t.kind}:${t.entityKey}`)), results, state };
}
