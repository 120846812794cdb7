/** The parsed form of a query: every name keeps its span, so errors can point at it. */

export interface Span {
  start: number;
  end: number;
}

export interface Located<T> extends Span {
  value: T;
}

export type Scalar = string | number | boolean;

export interface ArgAst {
  name: Located<string>;
  value: Located<Scalar>;
}

/** `installs(attrTouch=CLICK) as clickInstalls`, `date:daily`, `countryCode`. */
export interface FieldAst extends Span {
  name: Located<string>;
  args: ArgAst[];
  alias?: Located<string>;
  /** `date:daily` */
  granularity?: Located<string>;
}

export interface ConditionAst extends Span {
  field: Located<string>;
  op: '=' | '!=' | 'in' | 'not in';
  values: Array<Located<Scalar>>;
}

export interface HavingAst extends Span {
  metric: Located<string>;
  op: '>' | '>=' | '<' | '<=';
  value: Located<number>;
}

export interface OrderAst {
  key: Located<string>;
  desc?: boolean;
  /** "best 5 campaigns by cpi": the direction follows the metric's polarity (low CPI is best). */
  rank?: 'best' | 'worst';
  /** "cheapest first": the key is the query's cost metric (`costKey`), once its metrics are known. */
  cost?: boolean;
}

/** What a query compares with: "vs previous period", "vs last week", "vs last month". */
export type Compare = 'previous_period' | 'same_period_last_week' | 'same_period_last_month';

export interface AdhocAst {
  kind: 'adhoc';
  metrics: FieldAst[];
  dimensions: FieldAst[];
  /** The span of the `by …` list, for errors about the combination of dimensions. */
  bySpan?: Span;
  range?: Located<string | { from: string; to: string }>;
  where: ConditionAst[];
  having: HavingAst[];
  top?: Located<number>;
  sort?: OrderAst;
  timezone?: Located<string>;
  csv: boolean;
  mode?: 'sync' | 'async';
  channel?: Located<'mobile' | 'ctv' | 'all'>;
  compare?: Located<Compare>;
  /** The range "WoW", "DoD" or "MoM" imply when no range is written (`last_7_days`…). */
  defaultRange?: string;
}

/** `run daily-kpi last_7_days` */
export interface RunAst {
  kind: 'run';
  report: Located<string>;
  range?: Located<string | { from: string; to: string }>;
}

/** `postbacks app:101 keys:conversion_value,country track:installs revenue last 7 days` */
export interface PostbacksAst {
  kind: 'postbacks';
  appId: Located<number>;
  keys: Array<Located<string>>;
  track?: Located<string>;
  revenue: boolean;
  organic: boolean;
  range?: Located<string | { from: string; to: string }>;
  timezone?: Located<string>;
}

export type QueryAst = AdhocAst | RunAst | PostbacksAst;
