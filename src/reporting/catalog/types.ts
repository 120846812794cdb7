/**
 * The shape of the catalog: every name, type and rule of the Reporting Service spec as data.
 * GraphQL types are written in GraphQL notation (`String`, `Int!`, `[String!]`, `DateTime!`) so
 * they compare one-to-one with the spec's tables and feed the sandbox's schema directly.
 */

/** Where a fact comes from: the spec itself, or a decision we took where the spec says "not shown". */
export type Provenance = 'spec' | 'decided';

export interface ArgumentDef {
  name: string;
  /** GraphQL type notation, e.g. `Granularity`, `AttrSource!`, `Int`. */
  type: string;
  /** Default value as GraphQL would apply it; absent when the spec gives none. */
  default?: string | number | boolean | null;
  description: string;
  /** Absent means `spec`. `decided` where we filled in something the spec leaves open (see `note`). */
  provenance?: Provenance;
  /** Why a decided value was chosen. */
  note?: string;
}

export type DimensionKind = 'text' | 'id' | 'enum' | 'flag' | 'time';

export interface DimensionDef {
  name: string;
  /** GraphQL type of the result field, e.g. `String`, `Int`, `Platform`, `DateTime!`. */
  type: string;
  description: string;
  /** Field arguments, e.g. `date(granularity)`; empty for most. */
  args: readonly ArgumentDef[];
  kind: DimensionKind;
  /** Only meaningful when connected-TV data is appended (the four `…CtvNormalized` fields). */
  ctvOnly: boolean;
  /** With CTV data appended, this integer id must be replaced by the named normalized field. */
  ctvReplacement?: string;
  /** Why a decision about this field (e.g. its CTV replacement) was taken. */
  note?: string;
  /**
   * A name dimension (`campaign`, `source`…) has no Filter field: the Reporting Service filters it
   * by this id field (`campaignId`), whose values are the ids the name stands for.
   */
  idFilter?: string;
}

/** How a metric's value reads: drives number formatting and chart axes. */
export type MetricUnit = 'count' | 'currency' | 'ratio' | 'percent' | 'per_mille' | 'score';

/** Which direction is good news: a rising CPI is bad, rising installs are good. */
export type Polarity = 'higher_is_better' | 'lower_is_better' | 'neutral';

/** A derived metric as a ratio of two base figures times a scale (cpm = spend / impressions × 1000). */
export interface Derivation {
  numerator: string;
  denominator: string;
  scale: number;
}

export interface MetricDef {
  name: string;
  /** GraphQL type: `Long`, `Float` or `Float!`. */
  type: string;
  description: string;
  /** Names of the metric arguments this metric accepts (the spec's per-metric table). */
  args: readonly string[];
  unit: MetricUnit;
  polarity: Polarity;
  /** True when the total over rows is the sum of the rows (counts, spend). */
  additive: boolean;
  /** For ratios: which base metrics they come from. */
  derivedFrom?: Derivation;
  /** Why a unit, polarity or formula that the spec leaves open was chosen. */
  note?: string;
}

export interface EnumDef {
  name: string;
  values: readonly string[];
  description: string;
  provenance: Provenance;
  /** Where provenance is `decided`: what the spec left out and why we chose these values. */
  note?: string;
}

export interface InputFieldDef {
  name: string;
  /** GraphQL type notation. */
  type: string;
  description?: string;
  default?: string | number | boolean | null;
}

export interface InputTypeDef {
  name: string;
  fields: readonly InputFieldDef[];
  description: string;
  provenance: Provenance;
  note?: string;
}

export interface OutputTypeDef {
  name: string;
  fields: readonly InputFieldDef[];
  description: string;
  provenance: Provenance;
  note?: string;
}

/** A forbidden combination: no field of `left` may be queried together with any field of `right`. */
export interface DimensionExclusionRule {
  id: string;
  left: readonly string[];
  right: readonly string[];
  message: string;
}

export interface OperationDef {
  name: string;
  kind: 'query' | 'mutation';
  /** GraphQL return type. */
  returns: string;
  args: readonly ArgumentDef[];
  description: string;
}

export interface Limits {
  /** Hourly granularity only for data newer than this many days. */
  hourlyMaxAgeDays: number;
  /** siteBundle only for data newer than this many months. */
  siteBundleMaxAgeMonths: number;
  intMin: number;
  intMax: number;
  /** Relative error of unique counts. */
  uniqueCountError: number;
}
