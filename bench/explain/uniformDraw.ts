/**
 * A sampler of planted causes for grading the explanation engine, written from docs/sandbox.md and
 * the Reporting Service spec alone (without reading src/explain/): the rules are in uniformDraw.md.
 *
 * Each plant: pick the explained metric (half additive, a quarter installsCpi, a quarter ctr or
 * installsCvr) and the planted metric, a factor (×0.3 or ×2.5), then the dimension(s) uniformly
 * among the eight candidates, then a value uniformly among the eligible ones: those whose segment,
 * once planted, holds most of the explained metric's change between the baseline day and the day
 * (MIN_SHARE..MAX_SHARE of it) while that change is at least MIN_WHOLE_CHANGE of the baseline.
 * When the dimension(s) have no eligible value, or nest in one another, the dimension(s) are drawn
 * again; a plant equal to an earlier one is drawn again whole (all counted in DrawReport).
 */

export type PlantedMetric = 'installs' | 'spend' | 'clicks' | 'impressions' | 'events';
export type ExplainedMetric = PlantedMetric | 'installsCpi' | 'ctr' | 'installsCvr';

export interface DrawnPlant {
  /** 1–3 dimensions, with the plant JSON's names and values (campaigns and apps by id). */
  where: Record<string, string>;
  /** What the plant multiplies. */
  metric: PlantedMetric;
  /** 0.3 or 2.5. */
  factor: number;
  /** The planted UTC day, `[from, to)` as the plant JSON's `days` wants it. */
  days: readonly [string, string];
  /** The catalog metric whose change must be explained: the planted metric, or a ratio it moves. */
  explain: string;
  /**
   * The planted segment's part of the explained metric's whole change (day vs baseline day),
   * after planting: its own change over the whole's for additive metrics; for ratios, its
   * contribution averaged over both orders (other segments held at baseline, then at the day).
   * Kept plants have it in [0.6, 1.4]: above 1 when the other segments moved the other way.
   */
  share: number;
}

export interface DrawOptions {
  /** A running sandbox. */
  graphqlUrl: string;
  authUrl: string;
  clientId: string;
  clientSecret: string;
  /** The explained day [from, to) as the spec's range, as UTC dates (`YYYY-MM-DD`). */
  day: readonly [string, string];
  /** The day it is compared against (same weekday a week earlier). */
  baselineDay: readonly [string, string];
  count: number;
  seed: number;
  /** How many dimensions a plant has, drawn uniformly from this list; default [1]. */
  sizes?: readonly (1 | 2 | 3)[];
  /**
   * The least relative change of the explained metric over everything, once planted, for a plant to
   * count (|Δ| / |baseline|); default MIN_WHOLE_CHANGE (3 %): below it, the metric barely moved.
   */
  minWholeChange?: number;
}

/** One drawn plant with what the sampler saw when it kept it. */
export interface DrawDetail {
  plant: DrawnPlant;
  /** Candidate dimension names (`campaign`, not `campaignId`). */
  dimensions: readonly string[];
  /** The segment as a reader sees it, e.g. `campaign=Bubble Pop · iOS · UA · US · CPI #1 (1001)`. */
  label: string;
  /** The segment's share with the other segments held at baseline, and held at the day. */
  shareOthersAtBaseline: number;
  shareOthersAtDay: number;
  /** The explained metric over everything: baseline, the day unplanted, the day planted. */
  wholeBaseline: number;
  wholeDayUnplanted: number;
  wholeDayPlanted: number;
  /** The share the segment held before planting (same rule), for comparison. */
  shareBeforePlanting: number;
  /** How many values of these dimension(s) were eligible, out of how many with data on the day. */
  eligibleValues: number;
  candidateValues: number;
  /** Dimension draws rejected (no eligible value) before this one was kept. */
  dimensionRedraws: number;
}

export interface DrawReport {
  plants: DrawnPlant[];
  details: DrawDetail[];
  /** Dimension draws rejected because no value was eligible, in all. */
  dimensionRedraws: number;
  /** The same, by dimension set (`adType`, `appPlatform+source`…). */
  redrawsByDimensions: Record<string, number>;
  /** Dimension draws rejected because one dimension nests in another (campaign ⊂ app ⊂ appPlatform). */
  nestedRedraws: number;
  /** Whole plants drawn again because they repeated an earlier plant of the same draw. */
  duplicateRedraws: number;
  /** Times the metric and factor were drawn again after MAX_DIMENSION_ATTEMPTS rejected dimension draws. */
  metricRedraws: number;
  /** Pivot requests made (two days each). */
  queries: number;
}

/** The eligibility band of a share: the other segments together move at most 40 % of the whole change. */
export const MIN_SHARE = 0.6;
export const MAX_SHARE = 1.4;
export const MIN_WHOLE_CHANGE = 0.03;
export const FACTORS = [0.3, 2.5] as const;
/** Rejected dimension draws before the metric and factor are drawn again. */
export const MAX_DIMENSION_ATTEMPTS = 100;

interface Dimension {
  /** The candidate's name. */
  name: string;
  /** The pivot field grouped by and the plant's key (docs/sandbox.md: ids for campaigns and apps). */
  key: string;
  /** A name shown beside the id in labels, when the key is an id. */
  labelField?: string;
}

/**
 * Campaigns and apps are planted by id: app names repeat across advertisers and platforms (80 apps,
 * 20 names on `medium`) and a few campaign names repeat too, while a plant's value matches every
 * fact whose dimension has that text. Sources are planted by name, as docs/sandbox.md's examples do.
 */
export const CANDIDATE_DIMENSIONS: readonly Dimension[] = [
  { name: 'countryCode', key: 'countryCode' },
  { name: 'appPlatform', key: 'appPlatform' },
  { name: 'source', key: 'source' },
  { name: 'campaign', key: 'campaignId', labelField: 'campaign' },
  { name: 'app', key: 'appId', labelField: 'app' },
  { name: 'siteBundle', key: 'siteBundle' },
  { name: 'adType', key: 'adType' },
  { name: 'adSize', key: 'adSize' },
];

/**
 * Pairs where the first dimension's value fixes the second's (docs/sandbox.md: three campaigns per
 * app, each app iOS or Android): a plant on both is a plant on the first alone, so such sets are
 * drawn again.
 */
const NESTED: readonly (readonly [string, string])[] = [
  ['campaign', 'app'],
  ['campaign', 'appPlatform'],
  ['app', 'appPlatform'],
];
const isNested = (dims: readonly Dimension[]) =>
  NESTED.some(([a, b]) => dims.some((d) => d.name === a) && dims.some((d) => d.name === b));

const PLANTED_METRICS: readonly PlantedMetric[] = ['installs', 'spend', 'clicks', 'impressions', 'events'];

/** mulberry32: a small seeded PRNG, uniform in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(rng: () => number, items: readonly T[]): T {
  const item = items[Math.floor(rng() * items.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}

/** The metric components a segment needs: the five plantable metrics plus click-touch installs (installsCvr's numerator). */
interface Vec {
  impressions: number;
  clicks: number;
  spend: number;
  installs: number;
  events: number;
  installsClick: number;
}
const ZERO: Vec = { impressions: 0, clicks: 0, spend: 0, installs: 0, events: 0, installsClick: 0 };
const COMPONENTS = Object.keys(ZERO) as (keyof Vec)[];

function add(a: Vec, b: Vec): Vec {
  const out = { ...ZERO };
  for (const c of COMPONENTS) out[c] = a[c] + b[c];
  return out;
}
function sub(a: Vec, b: Vec): Vec {
  const out = { ...ZERO };
  for (const c of COMPONENTS) out[c] = a[c] - b[c];
  return out;
}

/**
 * The segment's day once planted. A plant of installs multiplies every install row, so click-touch
 * installs too. Counts are rounded once, as docs/sandbox.md says the planted segment's total is.
 */
export function plantVec(v: Vec, metric: PlantedMetric, factor: number): Vec {
  const out = { ...v };
  const times = (x: number) => Math.round(x * factor);
  if (metric === 'spend') out.spend = v.spend * factor;
  else if (metric === 'installs') {
    out.installs = times(v.installs);
    out.installsClick = times(v.installsClick);
  } else out[metric] = times(v[metric]);
  return out;
}

/** The explained metric over a set of facts; null on a zero denominator (the API's safe division). */
export function metricValue(explain: ExplainedMetric, v: Vec): number | null {
  const ratio = (n: number, d: number) => (d === 0 ? null : n / d);
  switch (explain) {
    case 'installsCpi':
      return ratio(v.spend, v.installs);
    case 'ctr':
      return ratio(v.clicks, v.impressions);
    case 'installsCvr':
      return ratio(v.installsClick, v.clicks);
    default:
      return v[explain];
  }
}

export interface ShareOfChange {
  /** Whole change, day (as given) minus baseline. */
  delta: number;
  share: number;
  shareOthersAtBaseline: number;
  shareOthersAtDay: number;
  wholeBaseline: number;
  wholeDay: number;
}

/**
 * The segment's part of the whole change of `explain` between baseline and day, given the segment's
 * and the whole's components on both days. Two players, the segment and the rest: the segment's
 * contribution with the rest at baseline is W(seg day, rest base) − W(base); with the rest at the day
 * it is W(day) − W(seg base, rest day). For an additive metric both are the segment's own change.
 * Null when the whole did not change or a ratio is undefined.
 */
export function shareOfChange(
  explain: ExplainedMetric,
  segBase: Vec,
  segDay: Vec,
  wholeBase: Vec,
  wholeDay: Vec,
): ShareOfChange | null {
  const restBase = sub(wholeBase, segBase);
  const restDay = sub(wholeDay, segDay);
  const w = (seg: Vec, rest: Vec) => metricValue(explain, add(seg, rest));
  const base = w(segBase, restBase);
  const day = w(segDay, restDay);
  const segOnly = w(segDay, restBase);
  const restOnly = w(segBase, restDay);
  if (base === null || day === null || segOnly === null || restOnly === null) return null;
  const delta = day - base;
  if (delta === 0 || Math.abs(delta) < 1e-12 * Math.max(1, Math.abs(base))) return null;
  const atBaseline = (segOnly - base) / delta;
  const atDay = (day - restOnly) / delta;
  return {
    delta,
    share: (atBaseline + atDay) / 2,
    shareOthersAtBaseline: atBaseline,
    shareOthersAtDay: atDay,
    wholeBaseline: base,
    wholeDay: day,
  };
}

const inBand = (s: number) => s >= MIN_SHARE && s <= MAX_SHARE;

// --- the sandbox's data over its GraphQL API ---

interface Segment {
  /** Plant values by key (as text), in CANDIDATE_DIMENSIONS order. */
  values: Record<string, string>;
  label: string;
  base: Vec;
  day: Vec;
}
interface Grouped {
  segments: Segment[];
  wholeBase: Vec;
  wholeDay: Vec;
}

class ReportingClient {
  private token: string | null = null;
  queries = 0;
  constructor(private readonly options: DrawOptions) {}

  private async accessToken(): Promise<string> {
    if (this.token !== null) return this.token;
    const { authUrl, clientId, clientSecret } = this.options;
    const body = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: clientId,
      client_secret: clientSecret,
    });
    const response = await fetch(authUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: body.toString(),
    });
    const json = (await response.json()) as { access_token?: string };
    if (!response.ok || typeof json.access_token !== 'string') {
      throw new Error(`token request failed (${response.status}): ${JSON.stringify(json)}`);
    }
    this.token = json.access_token;
    return this.token;
  }

  async query(query: string): Promise<unknown> {
    this.queries += 1;
    const response = await fetch(this.options.graphqlUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${await this.accessToken()}` },
      body: JSON.stringify({ query }),
    });
    const json = (await response.json()) as { data?: unknown; errors?: unknown };
    if (!response.ok || json.errors !== undefined || json.data == null) {
      throw new Error(`pivot failed (${response.status}): ${JSON.stringify(json.errors ?? json)}`);
    }
    return json.data;
  }
}

const METRIC_FIELDS = 'impressions clicks spend installs events installsClick: installs(attrTouch: CLICK)';

function toVec(row: Record<string, unknown>): Vec {
  const out = { ...ZERO };
  for (const c of COMPONENTS) {
    const value = Number(row[c] ?? 0);
    out[c] = Number.isFinite(value) ? value : 0;
  }
  return out;
}

async function groupedBy(client: ReportingClient, dims: readonly Dimension[], options: DrawOptions): Promise<Grouped> {
  const fields = dims.flatMap((d) => (d.labelField === undefined ? [d.key] : [d.key, d.labelField]));
  const pivot = (alias: string, range: readonly [string, string]) =>
    `${alias}: pivot(from: ${JSON.stringify(range[0])}, to: ${JSON.stringify(range[1])}) { results { ${fields.join(' ')} ${METRIC_FIELDS} } }`;
  const data = (await client.query(`{ ${pivot('base', options.baselineDay)} ${pivot('day', options.day)} }`)) as Record<
    'base' | 'day',
    { results: Record<string, unknown>[] }
  >;
  const byKey = new Map<string, Segment>();
  let wholeBase = { ...ZERO };
  let wholeDay = { ...ZERO };
  for (const side of ['base', 'day'] as const) {
    for (const row of data[side].results) {
      const vec = toVec(row);
      if (side === 'base') wholeBase = add(wholeBase, vec);
      else wholeDay = add(wholeDay, vec);
      // A segment with a null value (siteBundle before three months) cannot be planted.
      if (dims.some((d) => row[d.key] === null || row[d.key] === undefined)) continue;
      const values: Record<string, string> = {};
      for (const d of dims) values[d.key] = String(row[d.key]);
      const key = JSON.stringify(values);
      let segment = byKey.get(key);
      if (segment === undefined) {
        const label = dims
          .map((d) => {
            const value = String(row[d.key]);
            return d.labelField === undefined
              ? `${d.name}=${value}`
              : `${d.name}=${String(row[d.labelField])} (${value})`;
          })
          .join(' · ');
        segment = { values, label, base: { ...ZERO }, day: { ...ZERO } };
        byKey.set(key, segment);
      }
      segment[side] = add(segment[side], vec);
    }
  }
  // Sorted, so that the draw does not depend on the order rows come back in.
  const segments = [...byKey.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, s]) => s);
  return { segments, wholeBase, wholeDay };
}

// --- the draw ---

interface MetricDraw {
  explain: ExplainedMetric;
  metric: PlantedMetric;
  factor: number;
}

/** Half additive (the planted metric itself), a quarter installsCpi, a quarter ctr or installsCvr. */
function drawMetric(rng: () => number): MetricDraw {
  const u = rng();
  let explain: ExplainedMetric;
  let metric: PlantedMetric;
  if (u < 0.5) {
    metric = pick(rng, PLANTED_METRICS);
    explain = metric;
  } else if (u < 0.75) {
    explain = 'installsCpi';
    metric = pick(rng, ['spend', 'installs'] as const);
  } else if (rng() < 0.5) {
    explain = 'ctr';
    metric = pick(rng, ['clicks', 'impressions'] as const);
  } else {
    explain = 'installsCvr';
    metric = pick(rng, ['installs', 'clicks'] as const);
  }
  return { explain, metric, factor: pick(rng, FACTORS) };
}

/** `size` distinct dimensions, uniformly (a partial Fisher–Yates shuffle), in the candidates' order. */
function drawDimensions(rng: () => number, size: number): Dimension[] {
  const pool = [...CANDIDATE_DIMENSIONS];
  for (let i = 0; i < size; i += 1) {
    const j = i + Math.floor(rng() * (pool.length - i));
    const a = pool[i] as Dimension;
    pool[i] = pool[j] as Dimension;
    pool[j] = a;
  }
  const chosen = new Set(pool.slice(0, size));
  return CANDIDATE_DIMENSIONS.filter((d) => chosen.has(d));
}

function isDay(s: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(s);
}

export async function drawUniformPlantsWithReport(options: DrawOptions): Promise<DrawReport> {
  for (const range of [options.day, options.baselineDay]) {
    if (!isDay(range[0]) || !isDay(range[1])) throw new Error(`days must be UTC dates YYYY-MM-DD: ${range.join(', ')}`);
  }
  const sizes = options.sizes ?? [1];
  if (sizes.length === 0) throw new Error('sizes must not be empty');
  const rng = mulberry32(options.seed);
  const client = new ReportingClient(options);
  const cache = new Map<string, Promise<Grouped>>();
  const grouped = (dims: readonly Dimension[]) => {
    const key = dims.map((d) => d.name).join('+');
    let hit = cache.get(key);
    if (hit === undefined) {
      hit = groupedBy(client, dims, options);
      cache.set(key, hit);
    }
    return hit;
  };

  const report: DrawReport = {
    plants: [],
    details: [],
    dimensionRedraws: 0,
    redrawsByDimensions: {},
    nestedRedraws: 0,
    duplicateRedraws: 0,
    metricRedraws: 0,
    queries: 0,
  };
  const minWholeChange = options.minWholeChange ?? MIN_WHOLE_CHANGE;
  const seen = new Set<string>();
  let plantDraws = 0;
  while (report.plants.length < options.count) {
    plantDraws += 1;
    if (plantDraws > 100 * options.count + 100) {
      throw new Error(`drew ${plantDraws} plants and kept ${report.plants.length}: too few eligible segments`);
    }
    const size = pick(rng, sizes);
    const m = drawMetric(rng);
    let redrawsHere = 0;
    let kept: DrawDetail | null = null;
    for (let attempt = 0; attempt < MAX_DIMENSION_ATTEMPTS && kept === null; attempt += 1) {
      const dims = drawDimensions(rng, size);
      if (isNested(dims)) {
        report.nestedRedraws += 1;
        continue;
      }
      const data = await grouped(dims);
      const candidates = data.segments.filter((s) => s.day[m.metric] > 0);
      const eligible: { segment: Segment; after: ShareOfChange; before: ShareOfChange | null }[] = [];
      for (const segment of candidates) {
        const planted = plantVec(segment.day, m.metric, m.factor);
        const wholePlanted = add(sub(data.wholeDay, segment.day), planted);
        const after = shareOfChange(m.explain, segment.base, planted, data.wholeBase, wholePlanted);
        if (after === null || !inBand(after.shareOthersAtBaseline) || !inBand(after.shareOthersAtDay)) continue;
        if (Math.abs(after.delta) < minWholeChange * Math.abs(after.wholeBaseline)) continue;
        const before = shareOfChange(m.explain, segment.base, segment.day, data.wholeBase, data.wholeDay);
        eligible.push({ segment, after, before });
      }
      if (eligible.length === 0) {
        redrawsHere += 1;
        report.dimensionRedraws += 1;
        const key = dims.map((d) => d.name).join('+');
        report.redrawsByDimensions[key] = (report.redrawsByDimensions[key] ?? 0) + 1;
        continue;
      }
      const chosen = pick(rng, eligible);
      const plant: DrawnPlant = {
        where: { ...chosen.segment.values },
        metric: m.metric,
        factor: m.factor,
        days: [options.day[0], options.day[1]],
        explain: m.explain,
        share: chosen.after.share,
      };
      kept = {
        plant,
        dimensions: dims.map((d) => d.name),
        label: chosen.segment.label,
        shareOthersAtBaseline: chosen.after.shareOthersAtBaseline,
        shareOthersAtDay: chosen.after.shareOthersAtDay,
        wholeBaseline: chosen.after.wholeBaseline,
        wholeDayUnplanted: metricValue(m.explain, data.wholeDay) ?? Number.NaN,
        wholeDayPlanted: chosen.after.wholeDay,
        shareBeforePlanting: chosen.before?.share ?? Number.NaN,
        eligibleValues: eligible.length,
        candidateValues: candidates.length,
        dimensionRedraws: redrawsHere,
      };
    }
    if (kept === null) {
      report.metricRedraws += 1;
      continue;
    }
    const identity = JSON.stringify([kept.plant.where, kept.plant.metric, kept.plant.factor, kept.plant.explain]);
    if (seen.has(identity)) {
      report.duplicateRedraws += 1;
      continue;
    }
    seen.add(identity);
    report.plants.push(kept.plant);
    report.details.push(kept);
  }
  report.queries = client.queries;
  return report;
}

export async function drawUniformPlants(options: DrawOptions): Promise<DrawnPlant[]> {
  return (await drawUniformPlantsWithReport(options)).plants;
}

/**
 * The share of a plant measured on the live data, with that plant (and nothing else) in force:
 * the same rule as the draw, so a test can check the draw against the planted facts.
 */
export async function measureShare(
  options: Pick<DrawOptions, 'graphqlUrl' | 'authUrl' | 'clientId' | 'clientSecret' | 'day' | 'baselineDay'>,
  plant: DrawnPlant,
): Promise<ShareOfChange | null> {
  const full: DrawOptions = { ...options, count: 0, seed: 0 };
  const keys = Object.keys(plant.where);
  const dims = CANDIDATE_DIMENSIONS.filter((d) => keys.includes(d.key));
  if (dims.length !== keys.length) throw new Error(`not a candidate dimension in ${JSON.stringify(plant.where)}`);
  const data = await groupedBy(new ReportingClient(full), dims, full);
  const segment = data.segments.find((s) => keys.every((k) => s.values[k] === plant.where[k]));
  if (segment === undefined) return null;
  return shareOfChange(plant.explain as ExplainedMetric, segment.base, segment.day, data.wholeBase, data.wholeDay);
}
