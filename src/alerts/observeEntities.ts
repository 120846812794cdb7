/**
 * Turns a report's rows into what a rule evaluates: one observation per entity (a row of the
 * query, that is one combination of its non-time dimensions; or the totals for `on: total`), with
 * the rule's metric, the volume metric, and for change and anomaly rules the comparison value
 * and the baseline. Keys and labels come from the view's columns, so they match the digest's.
 */
import { findMetric, type PivotRow } from '../reporting/index.js';
import {
  type AlertRule,
  compareRows,
  type Delta,
  delta,
  type ReportView,
  resolveKey,
  type ViewColumn,
} from '../reports/index.js';
import { type EntityPart, entityParts } from './alertEntity.js';

/** Rows of another period of the same query (comparison or baseline). */
export interface PeriodRows {
  rows: readonly PivotRow[];
  totals?: PivotRow;
}

export interface Observation {
  /** The entity's identity (`countryCode=BR|source=Vungle`, `total`): compared, never parsed. */
  entityKey: string;
  entityLabel: string;
  /** The entity as values (no part for the total): what an explanation filters on. */
  entity?: EntityPart[];
  value: number | null;
  volume?: number | null;
  /** Change rules: the comparison value and relative change. */
  change?: Delta;
  /** Anomaly rules: the values of the baseline periods (missing periods left out). */
  baseline?: number[];
  /** Anomaly rules with a volume floor: the volume in each baseline period. */
  baselineVolume?: number[];
}

export interface Observed {
  metric: ViewColumn;
  observations: Observation[];
}

/** Why a rule cannot be evaluated at all (its metric is not in the result). */
export interface ObserveProblem {
  reason: string;
}

export const TOTAL_KEY = 'total';

/** The output key a rule's metric has in the report's result (`as`, else the name). */
export function ruleMetricKey(rule: AlertRule): string {
  return typeof rule.metric === 'string' ? rule.metric : (rule.metric.as ?? rule.metric.name);
}

/**
 * Observations of every entity of `view` for `rule`. For change rules `comparison` (or the view's
 * own comparison when it is of the rule's kind) gives each entity its delta; for anomaly rules
 * `history` gives its baseline values.
 *
 * @example observeEntities(rule, view, { history }) // { metric, observations: [{ entityKey: 'countryCode=BR', value: 812.4, baseline: [...] }] }
 */
export function observeEntities(
  rule: AlertRule,
  view: ReportView,
  periods: { comparison?: PeriodRows; history?: readonly PeriodRows[] } = {},
): Observed | ObserveProblem {
  const metrics = view.columns.filter((c) => c.kind === 'metric');
  const key = resolveKey(
    ruleMetricKey(rule),
    metrics.map((c) => c.key),
  );
  const metric = metrics.find((c) => c.key === key);
  if (metric === undefined) {
    return {
      reason: `the metric "${ruleMetricKey(rule)}" is not in the report's result (it has ${metrics.map((c) => c.key).join(', ')})`,
    };
  }
  const volumeKey = rule.minVolume
    ? resolveKey(
        rule.minVolume.metric,
        metrics.map((c) => c.key),
      )
    : undefined;
  if (rule.minVolume && volumeKey === undefined) {
    return { reason: `the volume metric "${rule.minVolume.metric}" is not in the report's result` };
  }
  const dimensions = view.columns.filter((c) => c.kind === 'dimension' && c.unit !== 'time');
  const time = view.columns.find((c) => c.kind === 'dimension' && c.unit === 'time');
  const additive = findMetric(metric.name)?.additive === true;
  const volumeOf = (row: PivotRow | undefined): number | null =>
    volumeKey === undefined ? null : num(row?.[volumeKey]);

  if (rule.on === 'total') {
    const observation: Observation = {
      entityKey: TOTAL_KEY,
      entityLabel: 'Total',
      entity: [],
      value: num(view.totals?.[metric.key]),
    };
    if (volumeKey !== undefined) observation.volume = volumeOf(view.totals);
    const change = totalChange(rule, view, periods.comparison, metric.key);
    if (change) observation.change = change;
    if (periods.history) {
      observation.baseline = presentValues(periods.history.map((p) => p.totals?.[metric.key]));
      if (volumeKey !== undefined)
        observation.baselineVolume = presentValues(periods.history.map((p) => p.totals?.[volumeKey]));
    }
    return { metric, observations: [observation] };
  }

  const keyOf = (row: PivotRow) => entityKeyOf(dimensions, row);
  const labelOf = (row: PivotRow) => dimensions.map((d) => `${d.label} ${cellText(row[d.key])}`).join(' · ') || 'Total';
  const latest = (rows: readonly PivotRow[]) => latestByEntity(rows, keyOf, time?.key);
  const current = latest(view.rows);
  const deltas = changeDeltas(rule, view, periods.comparison, metric.key, dimensions, time);
  const history = periods.history?.map((p) => latest(p.rows));

  const keys = new Map<string, PivotRow>();
  for (const [k, { row }] of current) keys.set(k, row);
  // An entity with no row now but rows in its baseline (a source in an outage) is at 0 for
  // counts and spend; for ratios there is no value to score.
  if (history && additive) {
    for (const period of history) for (const [k, { row }] of period) if (!keys.has(k)) keys.set(k, row);
  }
  const observations: Observation[] = [];
  for (const [k, row] of keys) {
    const found = current.get(k);
    const value = found ? num(found.row[metric.key]) : additive ? 0 : null;
    const observation: Observation = {
      entityKey: k,
      entityLabel: labelOf(row),
      entity: entityParts(dimensions, row),
      value,
    };
    if (volumeKey !== undefined) observation.volume = found ? volumeOf(found.row) : 0;
    if (rule.change) {
      const d = found ? deltas?.[found.index]?.[metric.key] : undefined;
      if (d) observation.change = d;
    }
    if (history) {
      observation.baseline = presentValues(
        history.map((period) => {
          const past = period.get(k);
          return past ? past.row[metric.key] : additive ? 0 : null;
        }),
      );
      if (volumeKey !== undefined) {
        observation.baselineVolume = presentValues(history.map((period) => period.get(k)?.row[volumeKey] ?? 0));
      }
    }
    observations.push(observation);
  }
  return { metric, observations };
}

/** An entity's key: `dimension=value` for each non-time dimension, joined by `|` (`total` without any). */
function entityKeyOf(dimensions: readonly ViewColumn[], row: PivotRow): string {
  return dimensions.map((d) => `${d.key}=${cellText(row[d.key])}`).join('|') || TOTAL_KEY;
}

/**
 * Each entity's values by time bucket, oldest first, from rows of the rule's request by `date`
 * (`trendRequest`): keyed as `observeEntities` keys them with the evaluated `view`'s dimensions.
 *
 * @example entitySeries(rule, view, trend.rows).get('countryCode=BR') // [{ at: '2026-11-10', value: 4.1 }, …]
 */
export function entitySeries(
  rule: AlertRule,
  view: ReportView,
  rows: readonly PivotRow[],
  timeKey = 'date',
): Map<string, Array<{ at: string; value: number }>> {
  const out = new Map<string, Array<{ at: string; value: number }>>();
  const metrics = view.columns.filter((c) => c.kind === 'metric');
  const key = resolveKey(
    ruleMetricKey(rule),
    metrics.map((c) => c.key),
  );
  if (key === undefined) return out;
  const dimensions = rule.on === 'total' ? [] : view.columns.filter((c) => c.kind === 'dimension' && c.unit !== 'time');
  for (const row of rows) {
    const value = num(row[key]);
    const at = row[timeKey];
    if (value === null || at === null || at === undefined) continue;
    const entity = entityKeyOf(dimensions, row);
    out.set(entity, [...(out.get(entity) ?? []), { at: String(at), value }]);
  }
  for (const points of out.values()) points.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  return out;
}

/** Per entity, the row of the latest time bucket (or the only row) and its index in `rows`. */
function latestByEntity(
  rows: readonly PivotRow[],
  keyOf: (row: PivotRow) => string,
  timeKey: string | undefined,
): Map<string, { row: PivotRow; index: number }> {
  const out = new Map<string, { row: PivotRow; index: number }>();
  rows.forEach((row, index) => {
    const k = keyOf(row);
    const seen = out.get(k);
    if (seen === undefined || (timeKey !== undefined && String(row[timeKey] ?? '') > String(seen.row[timeKey] ?? ''))) {
      out.set(k, { row, index });
    }
  });
  return out;
}

/** Deltas aligned with `view.rows`: joined from `comparison`, or the view's own when of the rule's kind. */
function changeDeltas(
  rule: AlertRule,
  view: ReportView,
  comparison: PeriodRows | undefined,
  metricKey: string,
  dimensions: readonly ViewColumn[],
  time: ViewColumn | undefined,
): ReadonlyArray<Readonly<Record<string, Delta>>> | undefined {
  if (!rule.change) return undefined;
  if (comparison) {
    return compareRows(view.rows, comparison.rows, {
      dimensions: [...(time ? [time.key] : []), ...dimensions.map((d) => d.key)],
      time: time ? [time.key] : [],
      metrics: [metricKey],
    });
  }
  if (view.comparison?.kind === rule.change.vs) return view.comparison.rows;
  return undefined;
}

function totalChange(
  rule: AlertRule,
  view: ReportView,
  comparison: PeriodRows | undefined,
  metricKey: string,
): Delta | undefined {
  if (!rule.change) return undefined;
  if (comparison) return delta(view.totals?.[metricKey] ?? null, comparison.totals?.[metricKey] ?? null);
  if (view.comparison?.kind === rule.change.vs) return view.comparison.totals[metricKey];
  return undefined;
}

function presentValues(cells: ReadonlyArray<PivotRow[string] | undefined>): number[] {
  return cells.map(num).filter((v): v is number => v !== null);
}

function num(cell: PivotRow[string] | undefined): number | null {
  if (typeof cell === 'number') return Number.isFinite(cell) ? cell : null;
  if (typeof cell === 'string' && cell.trim() !== '' && Number.isFinite(Number(cell))) return Number(cell);
  return null;
}

function cellText(cell: PivotRow[string] | undefined): string {
  return cell === null || cell === undefined ? '(none)' : String(cell);
}
