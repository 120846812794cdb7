/**
 * The typed requests the client sends. Everything users write (YAML reports, the query language)
 * compiles to these; the client validates them against the catalog before anything is sent.
 */

/** A GraphQL input value as JSON (enum values are plain strings; Long values may be strings). */
export type InputValue =
  | string
  | number
  | boolean
  | null
  | bigint
  | readonly InputValue[]
  | { [key: string]: InputValue };

/** A dimension field, e.g. `{ name: 'date', args: { granularity: 'DAILY' } }`. */
export interface DimensionSelection {
  name: string;
  args?: Readonly<Record<string, InputValue>>;
  /** Output key; defaults to the name. */
  alias?: string;
}

/** A metric field, e.g. `{ name: 'installs', args: { attrTouch: 'CLICK' }, alias: 'clickInstalls' }`. */
export interface MetricSelection {
  name: string;
  args?: Readonly<Record<string, InputValue>>;
  /** Output key; required when the same metric appears twice with different arguments. */
  alias?: string;
}

export type CampaignChannel = 'MOBILE' | 'CTV' | 'ALL';

/** Thresholds of one cleanup metric; Long thresholds travel as strings, so big values stay exact. */
export interface CleanupThresholds {
  greaterThan?: string | number | bigint;
  greaterOrEqualThan?: string | number | bigint;
  lowerThan?: string | number | bigint;
  lowerOrEqualThan?: string | number | bigint;
}

/** A `pivot` (synchronous) or `createAsyncPivot` request. */
export interface PivotRequest {
  /** Inclusive start: an ISO date, date-time, or date-time with offset. */
  from: string;
  /** Exclusive end. */
  to: string;
  dimensions: readonly DimensionSelection[];
  metrics: readonly MetricSelection[];
  /** Filter fields as the spec names them, e.g. `{ countryCode: { isIn: ['US', 'BR'] } }`. */
  filter?: Readonly<Record<string, InputValue>>;
  cleanup?: Readonly<Record<string, CleanupThresholds>>;
  cohortType?: string;
  cohortWindow?: { amount: number; period: string };
  context?: { priority?: number; sqlTimeZone?: string };
  options?: { removeZeroRows: boolean };
  /** The spec's `quality_type` argument. */
  qualityType?: string;
  appendCtvData?: boolean;
  campaignChannel?: CampaignChannel;
  /** Ask for `totals` beside the rows (default true). */
  totals?: boolean;
}

/** A `postbackShare` request. */
export interface PostbackShareRequest {
  from: string;
  to: string;
  track: string;
  postbackKeys: readonly string[];
  /** The service requires `appId.equals`; other filter fields may be added. */
  appId: number;
  filter?: Readonly<Record<string, InputValue>>;
  includeRevenue?: boolean;
  revenueKey?: string;
  organic?: boolean;
}

/** One output column of a pivot: a dimension or a metric under its output key. */
export interface PivotColumn {
  key: string;
  kind: 'dimension' | 'metric';
  /** The catalog name (`installs` for `clickInstalls: installs(attrTouch: CLICK)`). */
  name: string;
  args: Readonly<Record<string, InputValue>>;
}

/** A cell: numbers as numbers, Long values beyond 2^53 as exact strings, text, or null. */
export type CellValue = string | number | boolean | null;
export type PivotRow = Record<string, CellValue>;

export interface PivotResponse {
  columns: readonly PivotColumn[];
  rows: readonly PivotRow[];
  /** Metric totals over the whole report (absent when `totals: false`). */
  totals?: PivotRow;
  /** Things the caller may want to show (e.g. siteBundle is null before three months ago). */
  warnings: readonly string[];
}

export type AsyncPivotStatus = 'PENDING' | 'QUEUED' | 'RUNNING' | 'READY' | 'UP_FOR_RETRY' | 'FAILED';

export interface AsyncPivot {
  id: string;
  userId: number;
  status: AsyncPivotStatus | string;
  created: string;
  lastUpdated: string;
  outputType: string;
  url: string | null;
  pivotParams: {
    from: string;
    to: string;
    options: string | null;
    dimensions: string[] | null;
    metrics: string[] | null;
    cleanup: string | null;
    granularity: string | null;
    filter: string | null;
    cohortType: string | null;
    cohortWindow: string | null;
    context: string | null;
  };
}

export interface PostbackShareValue {
  value: string | null;
  count: number | string | null;
  percentage: number | null;
  revenue: number | null;
}

export interface PostbackShareKey {
  postbackKey: string | null;
  totalCount: number | string | null;
  totalRevenue: number | null;
  results: readonly PostbackShareValue[];
}
