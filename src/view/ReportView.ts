/**
 * What a report run produces and every renderer consumes: the rows and totals of one run, with the
 * presentation choices of its definition resolved (headline metrics, chart, comparison deltas).
 * `reports/` builds it; `render/` (Slack blocks, charts, CSV, HTML preview) reads it and nothing else.
 */
import type { CellValue, MetricUnit, PivotColumn, PivotRow, Polarity, PostbackShareKey } from '../reporting/index.js';

/** A column with what a renderer needs to format it. */
export interface ViewColumn extends PivotColumn {
  /** Human label: `Installs (click)`, `Country`. */
  label: string;
  /** Metric unit from the catalog; dimensions are `text` or `time`. */
  unit: MetricUnit | 'text' | 'time';
  /** Metrics only; dimensions are `neutral`. */
  polarity: Polarity;
}

/** A change against the comparison period; null where either side is null or the base is 0. */
export interface Delta {
  previous: number | null;
  absolute: number | null;
  /** Relative change as a fraction: 0.25 means +25 %. */
  percent: number | null;
}

export interface ViewRange {
  /** Inclusive start and exclusive end, ISO 8601 with offset. */
  from: string;
  to: string;
  /** How a person reads it: `Yesterday (Thu 19 Nov 2026)`, `Last 7 days (13–19 Nov 2026)`. */
  label: string;
  /** IANA zone the range was computed in. */
  timezone: string;
}

export interface ViewComparison {
  /** `previous_period`, `same_period_last_week` or `same_period_last_month`. */
  kind: string;
  /** `vs previous 7 days (6–12 Nov)`. */
  label: string;
  range: ViewRange;
  /** Deltas of the totals, by metric key. */
  totals: Readonly<Record<string, Delta>>;
  /** Deltas per row, aligned with `ReportView.rows` (joined on the dimension key). */
  rows: ReadonlyArray<Readonly<Record<string, Delta>>>;
  /** Comparison-period rows, for dashed comparison series in time charts. */
  previousRows: readonly PivotRow[];
}

export type ChartKind = 'line' | 'bar' | 'stacked_bar' | 'share';

export interface ViewChart {
  kind: ChartKind;
  /** Column key on the x axis (a time dimension for `line`, a category for bars). */
  x: string;
  /** Metric keys drawn as series. */
  series: readonly string[];
  /** For `stacked_bar`: the dimension key whose values become the stacks. */
  stackBy?: string;
  /** Series keys drawn dashed (a forecast), as comparison series are. */
  dashed?: readonly string[];
  /** Dashed threshold lines (alerts use them: a rule's threshold, or both edges of an expected band). */
  thresholds?: ReadonlyArray<{ metric: string; value: number; label: string }>;
  title?: string;
}

export interface ReportView {
  /** The definition's id: its file name without extension (`daily-kpi`), or `adhoc`. */
  reportId: string;
  title: string;
  description?: string;
  /** Who owns it (a Slack handle or team name), shown in the context line. */
  owner?: string;
  range: ViewRange;
  /** Human summary of filters, cleanup and channel: `countryCode in (US, BR) · CTV + mobile`. */
  filtersText?: string;
  columns: readonly ViewColumn[];
  /** Rows after sort and top-N. */
  rows: readonly PivotRow[];
  /** How many rows the service returned before top-N cut them. */
  totalRowCount: number;
  totals?: PivotRow;
  /** Metric keys shown as headline KPIs. */
  headline: readonly string[];
  comparison?: ViewComparison;
  chart?: ViewChart;
  /** postbackShare reports carry their distributions here (rows/columns may be empty). */
  postbacks?: readonly PostbackShareKey[];
  /** Path of the full-result CSV written for this run, when one was written. */
  csvPath?: string;
  /** How the run was executed. */
  mode: 'sync' | 'async';
  /** Warnings from validation or the service, shown in the message. */
  warnings: readonly string[];
  /** When the run finished (ISO 8601). */
  generatedAt: string;
}

export type { CellValue };
