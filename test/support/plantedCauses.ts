/**
 * Planted causes on the sandbox, for the accuracy bench (bench/explain) and its integration test:
 * the segments with volume on a day, seeded random plants over them, one explanation through
 * `explainReport` exactly as the bot asks it, and how the planted segment ranked.
 *
 * The comparison is the day before the sandbox's "yesterday" against the same weekday a week
 * earlier: the demo's three fixed anomalies (BR spend collapse, source 6 outage, campaign 1001 CPI
 * spike) act on "yesterday" (the outage also today), so neither day of the comparison holds them,
 * and a plant is the only cause in the data besides the generator's own noise and trend.
 */
import { type Logger, silentLogger } from '../../src/core/index.js';
import type { Explanation, Where } from '../../src/explain/index.js';
import { explainReport } from '../../src/insights/index.js';
import { type CompiledQuery, compileQuery } from '../../src/query/index.js';
import { ReportingClient } from '../../src/reporting/index.js';
import type { RunningSandbox } from '../../src/sandbox/index.js';

/** What a plant multiplies (the sandbox's PLANT_METRICS). */
export const PLANTED_METRICS = ['installs', 'spend', 'clicks', 'impressions', 'events'] as const;
export type PlantedMetric = (typeof PLANTED_METRICS)[number];

/**
 * What a plant of each metric is explained as: the metric itself, and the ratios it is a part of
 * (CPI for installs and spend; the conversion ratios CTR = clicks/impressions and
 * CVR = installs/clicks, whose numerator is the scarce count, for clicks, impressions and installs).
 */
export const EXPLAINED_FOR: Readonly<Record<PlantedMetric, readonly string[]>> = {
  installs: ['installs', 'installsCpi', 'installsCvr'],
  spend: ['spend', 'installsCpi'],
  clicks: ['clicks', 'ctr'],
  impressions: ['impressions', 'ctr'],
  events: ['events'],
};

/** Metrics explained on unplanted days (which should come out diffuse). */
export const UNPLANTED_METRICS = [...PLANTED_METRICS, 'installsCpi', 'ctr', 'installsCvr'] as const;

/**
 * Dimensions plants are drawn from: the engine's default candidates (DEFAULT_REPORTING_DIMENSIONS)
 * but siteBundle, none of whose values holds volume enough on `medium` (the largest has 1.5 % of
 * a day's installs).
 */
export const PLANTED_DIMENSIONS = [
  'countryCode',
  'appPlatform',
  'source',
  'campaign',
  'app',
  'adType',
  'adSize',
] as const;

/** A planted segment holds at least this share of the planted metric on the planted day… */
export const MIN_SEGMENT_SHARE = 0.03;
/** …the plant moves the whole by at least this share of it (|1 − factor| × segment share)… */
export const MIN_PLANTED_MOVE = 0.04;
/** …and each of its dimensions narrows it: at most this share of the segment one dimension less. */
export const MAX_SHARE_OF_PARENT = 0.9;

export interface SandboxPlant {
  where: Where;
  metric: PlantedMetric;
  factor: number;
  days: readonly [string, string];
}

type Totals = Record<PlantedMetric, number>;

/** The segments of up to three planted dimensions with their totals on one day. */
export interface SegmentCatalog {
  readonly whole: Totals;
  /** whereKey → segment, for every combination of 1–3 planted dimensions. */
  readonly segments: ReadonlyMap<string, { where: Where; totals: Totals }>;
}

const DAY_MS = 86_400_000;

/** `YYYY-MM-DD` of the UTC day `daysAgo` before `now`'s. */
export function utcDay(now: Date, daysAgo: number): string {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return new Date(midnight - daysAgo * DAY_MS).toISOString().slice(0, 10);
}

/** A stable key of a segment: its dimensions sorted. */
export function keyOf(where: Where): string {
  return JSON.stringify(Object.entries(where).sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** Mulberry32: the same seed, the same plants. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function combinations<T>(items: readonly T[], size: number): T[][] {
  if (size === 0) return [[]];
  return items.flatMap((item, i) => combinations(items.slice(i + 1), size - 1).map((rest) => [item, ...rest]));
}

/**
 * Campaigns that delivered on one of two days and not the other: the sandbox pauses a few
 * campaigns every day of the last three weeks (and starts some earlier), real causes that a plant
 * would compete with and that unplanted noise does not hold. The explanations leave them out with
 * the report's filter (`where campaignId not in (…)`), as a team would explain its steady campaigns.
 */
export async function changedCampaigns(
  client: ReportingClient,
  days: readonly (readonly [string, string])[],
): Promise<number[]> {
  const delivered = await Promise.all(
    days.map(async ([from, to]) => {
      const answer = await client.pivot({
        from,
        to,
        dimensions: [{ name: 'campaignId' }],
        metrics: [{ name: 'impressions' }],
        context: { sqlTimeZone: 'UTC' },
        options: { removeZeroRows: true },
        totals: false,
      });
      return new Set(answer.rows.filter((r) => Number(r.impressions ?? 0) > 0).map((r) => Number(r.campaignId)));
    }),
  );
  const all = new Set(delivered.flatMap((set) => [...set]));
  return [...all].filter((id) => !delivered.every((set) => set.has(id))).sort((a, b) => a - b);
}

/** The report's filter leaving `excluded` campaigns out, in the query language. */
function scope(excluded: readonly number[]): string {
  return excluded.length === 0 ? '' : ` where campaignId not in (${excluded.join(', ')})`;
}

/** One pivot of `day` by every planted dimension, summed into every combination of 1–3 of them. */
export async function segmentCatalog(
  client: ReportingClient,
  day: readonly [string, string],
  excluded: readonly number[] = [],
): Promise<SegmentCatalog> {
  const answer = await client.pivot({
    from: day[0],
    to: day[1],
    ...(excluded.length > 0 ? { filter: { campaignId: { isNotIn: [...excluded] } } } : {}),
    dimensions: PLANTED_DIMENSIONS.map((name) => ({ name })),
    metrics: PLANTED_METRICS.map((name) => ({ name })),
    context: { sqlTimeZone: 'UTC' },
    options: { removeZeroRows: true },
    totals: false,
  });
  const zero = (): Totals => ({ installs: 0, spend: 0, clicks: 0, impressions: 0, events: 0 });
  const whole = zero();
  const segments = new Map<string, { where: Where; totals: Totals }>();
  const combos = [1, 2, 3].flatMap((n) => combinations(PLANTED_DIMENSIONS, n));
  for (const row of answer.rows) {
    const values = PLANTED_METRICS.map((m) => Number(row[m] ?? 0));
    values.forEach((v, i) => {
      whole[PLANTED_METRICS[i] as PlantedMetric] += v;
    });
    for (const dims of combos) {
      if (dims.some((d) => row[d] === null || row[d] === undefined)) continue;
      const where: Where = Object.fromEntries(dims.map((d) => [d, String(row[d])]));
      const key = keyOf(where);
      let segment = segments.get(key);
      if (segment === undefined) {
        segment = { where, totals: zero() };
        segments.set(key, segment);
      }
      const totals = segment.totals;
      values.forEach((v, i) => {
        totals[PLANTED_METRICS[i] as PlantedMetric] += v;
      });
    }
  }
  return { whole, segments };
}

/**
 * Segments of `size` dimensions a plant of `metric` may go on: MIN_SEGMENT_SHARE of the whole, and
 * every dimension narrowing it (MAX_SHARE_OF_PARENT), so `campaign · app` (a campaign has one app)
 * is never planted in place of `campaign`. Sorted by key, so the draw is deterministic.
 */
export function eligibleSegments(catalog: SegmentCatalog, size: number, metric: PlantedMetric): Where[] {
  const out: Where[] = [];
  for (const { where, totals } of catalog.segments.values()) {
    const dims = Object.keys(where);
    if (dims.length !== size || totals[metric] < MIN_SEGMENT_SHARE * catalog.whole[metric]) continue;
    const narrows = dims.every((d) => {
      if (size === 1) return true;
      const parent = catalog.segments.get(keyOf(Object.fromEntries(Object.entries(where).filter(([k]) => k !== d))));
      return parent !== undefined && totals[metric] <= MAX_SHARE_OF_PARENT * parent.totals[metric];
    });
    if (narrows) out.push(where);
  }
  return out.sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : 1));
}

/**
 * `count` plants, seeded: sizes 1, 2, 3 (or `sizes`) in turn, metrics in turn, a factor drawn from 0–0.6 or
 * 1.6–3 (two decimals; drawn again when no eligible segment can make that move), and a segment
 * drawn among the eligible ones on which that factor moves the whole by MIN_PLANTED_MOVE at least.
 */
export function randomPlants(
  catalog: SegmentCatalog,
  options: { count: number; seed: number; day: readonly [string, string]; sizes?: readonly number[] },
): SandboxPlant[] {
  const random = seeded(options.seed);
  const sizes = options.sizes ?? [1, 2, 3];
  const plants: SandboxPlant[] = [];
  for (let i = 0; i < options.count; i++) {
    const size = sizes[i % sizes.length] as number;
    const metric = PLANTED_METRICS[Math.floor(i / sizes.length) % PLANTED_METRICS.length] as PlantedMetric;
    const eligible = eligibleSegments(catalog, size, metric);
    // A factor near 1 can move no segment enough: draw again (deterministically, from the same stream).
    let factor = 1;
    let moving: Where[] = [];
    for (let draw = 0; moving.length === 0; draw++) {
      if (draw === 100) throw new Error(`no ${size}-dimension segment can move ${metric} by ${MIN_PLANTED_MOVE}`);
      const low = random() < 0.5;
      factor = Math.round((low ? random() * 0.6 : 1.6 + random() * 1.4) * 100) / 100;
      const move = Math.abs(1 - factor);
      moving = eligible.filter(
        (where) =>
          move * (catalog.segments.get(keyOf(where))?.totals[metric] ?? 0) >= MIN_PLANTED_MOVE * catalog.whole[metric],
      );
    }
    const where = moving[Math.floor(random() * moving.length)] as Where;
    plants.push({ where, metric, factor, days: options.day });
  }
  return plants;
}

/** Replaces the sandbox's plants over HTTP (`PUT /sandbox/plants`); `[]` restores the data. */
export async function putPlants(sandbox: RunningSandbox, plants: readonly SandboxPlant[]): Promise<void> {
  const answer = await fetch(`${sandbox.baseUrl}/sandbox/plants`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${sandbox.clientSecret}` },
    body: JSON.stringify(plants),
  });
  if (answer.status !== 200) throw new Error(`PUT /sandbox/plants answered ${answer.status}: ${await answer.text()}`);
}

/** Explains metrics of "yesterday vs same day last week" as of an instant, as the bot does. */
export class PlantedExplainer {
  private readonly client: ReportingClient;
  private readonly logger: Logger = silentLogger();

  constructor(sandbox: RunningSandbox) {
    this.client = new ReportingClient({ ...sandbox });
  }

  get reporting(): ReportingClient {
    return this.client;
  }

  /**
   * The explanation of `metric` for the UTC day before `asOf`'s against the same day a week
   * earlier, through `explainReport` (the report's candidate dimensions and budget defaults), timed;
   * `excluded` campaigns are left out by the report's filter (see changedCampaigns).
   */
  async explain(
    metric: string,
    asOf: Date,
    excluded: readonly number[] = [],
  ): Promise<{ explanation: Explanation; ms: number }> {
    const text = `${metric} yesterday vs same day last week${scope(excluded)}`;
    const compiled = compileQuery(text, { now: asOf, defaultTimeZone: 'UTC' });
    if (compiled.kind !== 'adhoc') throw new Error(`"${metric}" did not compile to a query`);
    const definition = (compiled as CompiledQuery).definition;
    const started = performance.now();
    const explained = await explainReport(
      { report: { id: 'planted', definition }, asOf },
      { client: this.client, logger: this.logger, defaultTimeZone: 'UTC' },
    );
    const ms = performance.now() - started;
    const explanation = explained.metrics[0]?.explanation;
    if (explanation === undefined) throw new Error(`${metric} was not explained: ${JSON.stringify(explained.skipped)}`);
    return { explanation, ms };
  }
}

/** How a planted segment came out of one explanation. */
export interface PlantScore {
  /** 1-based rank of the driver whose where equals the plant's (or an alias's); undefined when none does. */
  rank: number | undefined;
  /** 1-based rank of the first driver that contains the plant's segment or is contained in it. */
  relatedRank: number | undefined;
  diffuse: boolean;
  /** Named first: not diffuse and the first driver is the planted segment. */
  first: boolean;
  /** Not diffuse and the planted segment within the first three drivers. */
  topThree: boolean;
  /** Not diffuse and the first driver contains the planted segment or is contained in it. */
  firstRelated: boolean;
}

const contains = (outer: Where, inner: Where) => Object.entries(outer).every(([k, v]) => inner[k] === v);

/**
 * The segments that are the planted one under another name: the same totals of every planted
 * metric on the day (`adType=native` is `adSize=1200x627` in the sandbox), the planted one first.
 */
export function aliasesOf(catalog: SegmentCatalog, planted: Where): Where[] {
  const own = catalog.segments.get(keyOf(planted));
  const same = (a: Totals, b: Totals) => PLANTED_METRICS.every((m) => Math.abs(a[m] - b[m]) < 1e-6);
  const others =
    own === undefined ? [] : [...catalog.segments.values()].filter((s) => s !== own && same(s.totals, own.totals));
  return [planted, ...others.map((s) => s.where)];
}

/** Scores an explanation against the planted segment and its aliases (see PlantScore, aliasesOf). */
export function scorePlant(
  explanation: Explanation,
  planted: Where,
  aliases: readonly Where[] = [planted],
): PlantScore {
  const keys = new Set([planted, ...aliases].map(keyOf));
  const at = explanation.drivers.findIndex((d) => keys.has(keyOf(d.where)));
  const related = explanation.drivers.findIndex((d) =>
    [planted, ...aliases].some((p) => contains(d.where, p) || contains(p, d.where)),
  );
  const rank = at < 0 ? undefined : at + 1;
  const relatedRank = related < 0 ? undefined : related + 1;
  const named = !explanation.diffuse;
  return {
    rank,
    relatedRank,
    diffuse: explanation.diffuse,
    first: named && rank === 1,
    topThree: named && rank !== undefined && rank <= 3,
    firstRelated: named && relatedRank === 1,
  };
}

/** The instant whose "yesterday" is `daysAgo` UTC days before `now`'s day (noon, clear of midnight). */
export function asOfFor(now: Date, daysAgo: number): Date {
  return new Date(Date.parse(`${utcDay(now, daysAgo - 1)}T12:00:00Z`));
}
