export type Where = Readonly<Record<string, string>>;
/** An additive metric has only `num`; a ratio metric is num/den (times `scale` of the request). */
export interface Measure { readonly num: number; readonly den?: number }
export interface GroupRow { readonly where: Where; readonly current: Measure; readonly baseline: Measure }
export interface GroupQuery { readonly dimensions: readonly string[]; readonly filter: Where }
export interface GroupSource {
  /** Candidate dimensions, in the order a UA team thinks in. */
  readonly dimensions: readonly string[];
  /** Whether this group-by may be asked (the API's rules: e.g. siteBundle never with region/city/dma/zipCode/ad/adId). */
  allows(query: GroupQuery): boolean;
  /** One group-by under a filter, both periods; each call is one query against the budget. */
  groups(query: GroupQuery): Promise<readonly GroupRow[]>;
}
export interface ExplainRequest {
  readonly metric: string;            // a name for output, e.g. "installsCpi"
  readonly kind: 'additive' | 'ratio';
  readonly scale?: number;            // ratio multiplier, e.g. 1000 for cpm (default 1)
  readonly dimensions?: readonly string[]; // candidates (default: source.dimensions)
  readonly budget?: number;           // max source calls (default 24)
  readonly minVolume?: number;        // below this baseline+current volume (den, or |num| for additive) say "too little volume"
}
export interface Driver { readonly where: Where; readonly current: number; readonly baseline: number; readonly contribution: number; readonly share: number; readonly mix?: number; readonly rate?: number }
export interface Explanation { readonly metric: string; readonly current: number; readonly baseline: number; readonly change: number; readonly diffuse: boolean; readonly queries: number; readonly partial: boolean; readonly explored: { readonly dimensions: number; readonly of: number }; readonly drivers: readonly Driver[]; readonly notes: readonly string[] }
