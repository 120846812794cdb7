/**
 * The explanation engine's contract: what it asks a source (`GroupSource`), what it is asked
 * (`ExplainRequest`) and what it answers (`Explanation`). Sources (the Reporting Service, a leaf
 * CSV) implement `GroupSource`; the engine never knows which one it has.
 */

/** Dimension values naming a segment, e.g. `{ countryCode: 'BR', source: 'Vungle' }`. */
export type Where = Readonly<Record<string, string>>;

/** An additive metric has only `num`; a ratio metric is num/den (times `scale` of the request). */
export interface Measure {
  readonly num: number;
  readonly den?: number;
}

/**
 * One group of a group-by, both periods. `where` holds the grouped dimensions' values (it may also
 * repeat the filter's; the engine merges the filter in either way).
 */
export interface GroupRow {
  readonly where: Where;
  readonly current: Measure;
  readonly baseline: Measure;
}

export interface GroupQuery {
  readonly dimensions: readonly string[];
  readonly filter: Where;
}

export interface GroupSource {
  /** Candidate dimensions, in the order a UA team thinks in. */
  readonly dimensions: readonly string[];
  /** Whether this group-by may be asked (the API's rules: e.g. siteBundle never with region/city/dma/zipCode/ad/adId). */
  allows(query: GroupQuery): boolean;
  /** One group-by under a filter, both periods; each call is one query against the budget. */
  groups(query: GroupQuery): Promise<readonly GroupRow[]>;
  /**
   * Dimensions that tell apart what a segment's names stand for (an app's name for one app per
   * platform: `appPlatform`): drilled into first, whatever their concentration. Optional.
   */
  splits?(where: Where): readonly string[];
}

export interface ExplainRequest {
  /** A name for output, e.g. "installsCpi". */
  readonly metric: string;
  readonly kind: 'additive' | 'ratio';
  /** Ratio multiplier, e.g. 1000 for cpm (default 1). */
  readonly scale?: number;
  /** Candidate dimensions (default: source.dimensions). */
  readonly dimensions?: readonly string[];
  /** Max source calls (default 24). */
  readonly budget?: number;
  /** Below this baseline+current volume (den, or |num| for additive) say "too little volume". */
  readonly minVolume?: number;
  /**
   * The measures are counts (installs, clicks, impressions, events: the additive metric, or the
   * ratio's denominator), whose noise is Poisson: a segment then stands out only when its move is
   * also beyond counting noise (about 3 standard deviations), so a small sample names no driver.
   */
  readonly counts?: boolean;
  /**
   * The measures are amounts (money: spend, the additive metric, or the ratio's denominator as for
   * ROAS), whose noise also grows with their size: the same test as for counts, with the variance
   * per unit measured on the scans (see `countDispersion`), so the unit does not matter.
   */
  readonly amounts?: boolean;
  /**
   * What each part is, when the caller knows: `count` (installs, clicks, impressions, events) or
   * `amount` (money). Both parts of a ratio get a noise model: a conversion ratio (CTR, CVR) has
   * the scarce count in its numerator. Overrides `counts`/`amounts` for the part it names; a
   * ratio's numerator not named while its denominator has a model is taken as an amount (its
   * dispersion measured on the scans, whatever its unit).
   */
  readonly noise?: { readonly num?: 'count' | 'amount'; readonly den?: 'count' | 'amount' };
}

/**
 * One segment that moved the metric. For an additive metric `current`/`baseline` are the segment's
 * values; for a ratio they are the segment's own ratios (0 where its denominator is 0, with a note).
 * `contribution` adds up over disjoint segments; `share` = contribution / change. For a ratio,
 * `mix + rate = contribution` (docs/explanations.md has the formulas).
 */
export interface Driver {
  readonly where: Where;
  readonly current: number;
  readonly baseline: number;
  readonly contribution: number;
  readonly share: number;
  readonly mix?: number;
  readonly rate?: number;
  /** Whether it stands out from the rest (beyond noise where the parts have a noise model). */
  readonly standsOut?: boolean;
  /** Ratio: the segment's share of the denominator, both periods (10 % → 35 % of the installs). */
  readonly volumeShare?: { readonly baseline: number; readonly current: number };
  /** Ratio: the segment's numerator, both periods (spend, for a segment with no installs). */
  readonly numerator?: { readonly baseline: number; readonly current: number };
  /** Ratio: the ratio of everything else (the whole without the segment), both periods; 0 where undefined. */
  readonly elsewhere?: { readonly baseline: number; readonly current: number };
}

export interface Explanation {
  readonly metric: string;
  readonly current: number;
  readonly baseline: number;
  readonly change: number;
  /** True when no small set of segments explains the change; `drivers` are then only the largest pieces. */
  readonly diffuse: boolean;
  /** Source calls made. */
  readonly queries: number;
  /** True when the budget ran out before every candidate dimension was scanned. */
  readonly partial: boolean;
  readonly explored: { readonly dimensions: number; readonly of: number };
  /** Disjoint segments, best first. */
  readonly drivers: readonly Driver[];
  /**
   * True when the drivers are moves that cancel out (US +501 offset by BR −500): the first pushed
   * the metric up, the second down, and the net change is small beside them.
   */
  readonly offset?: boolean;
  /** Honest limits in words: no change, too little volume, undefined ratios, partial search. */
  readonly notes: readonly string[];
}
