/**
 * The noise model: how much a part of the metric (a count such as installs or clicks, an amount of
 * money such as spend) wobbles by chance, measured on the first scans, and whether a move is beyond
 * it. Both parts of a ratio are modelled, each with its own dispersion: for a conversion ratio (CTR,
 * CVR, install rate) the numerator is the scarce count, for CPI the denominator is.
 */

/** What a part is: a count (Poisson-like, at least Poisson's variance) or an amount (any unit). */
export type PartKind = 'count' | 'amount';

/** One part's noise: quasi-Poisson, variance = dispersion × value (in the part's own unit). */
export interface PartNoise {
  readonly kind: PartKind;
  /** Measured over every scanned dimension (median); undefined when it could not be measured. */
  readonly dispersion: number | undefined;
  /** Measured per scanned dimension where it can be: a campaign's wobble is not a platform's. */
  readonly byDimension: ReadonlyMap<string, number>;
  /** Dimensions whose segments wobble more the larger they are (see sizeGrowth). */
  readonly growth?: ReadonlyMap<string, SizeGrowth>;
}

/**
 * Taylor's law in one dimension: its segments' dispersion grows with their size, `phi` at the
 * baseline `at`, times (size / at) ^ `slope`, up to `upTo`. A campaign's day comes in a few large deliveries, so
 * the larger campaigns (larger deliveries) wobble by a share of their volume rather than by a
 * count: on the sandbox a campaign of 1,440 clicks moves by ±20 % from one day to the next, 25
 * times Poisson's variance, where a campaign of 90 clicks varies by 2 times it.
 */
export interface SizeGrowth {
  readonly at: number;
  readonly phi: number;
  readonly slope: number;
  /**
   * The size it holds up to: the scan's 90th percentile. Not extrapolated past it: the largest
   * segments are large by many deliveries, not by larger ones (the sandbox's largest campaign has
   * 4,080 clicks a day and wobbles by 7 %, where the law would say 13 %).
   */
  readonly upTo: number;
}

/** Standard deviations a move must pass when it is the only one looked at… */
export const NOISE_SIGMAS = 3;

/**
 * …and among `compared` moves (Bonferroni: the two-sided tail of NOISE_SIGMAS divided among them).
 * 3 for one, 3.3 for 3, 3.6 for 10, 4.4 for 200.
 */
export function noiseSigmas(compared: number): number {
  return normalQuantile(erfc(NOISE_SIGMAS / Math.SQRT2) / Math.max(1, compared), NOISE_SIGMAS);
}

/**
 * The z (at least `from`) beyond which a standard normal lies with two-sided probability `tail`:
 * erfc(z/√2) = tail, by bisection.
 */
function normalQuantile(tail: number, from = 0): number {
  let lo = from;
  let hi = 40;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (erfc(mid / Math.SQRT2) > tail) lo = mid;
    else hi = mid;
  }
  return lo;
}

/** The complementary error function (Numerical Recipes' erfcc, relative error below 1.2e-7). */
function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const poly =
    -z * z -
    1.26551223 +
    t *
      (1.00002368 +
        t *
          (0.37409196 +
            t *
              (0.09678418 +
                t *
                  (-0.18628806 +
                    t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277))))))));
  const r = t * Math.exp(poly);
  return x >= 0 ? r : 2 - r;
}

/** A value against its baseline scaled by k, in Poisson standard deviations (a Pearson residual). */
export function pearson(observed: number, base: number, k: number): number {
  return (observed - base * k) / Math.sqrt(Math.max(1, Math.abs(observed) + Math.abs(base) * k * k));
}

/**
 * A segment's part against its complement's (the rest of the whole), in standard deviations of
 * the part's noise: the signed square root of the 2×2 table's χ² (segment and rest × baseline and
 * current: did the segment's share of the part move?), divided by √dispersion. Symmetric in the
 * segment and the rest, so a two-valued dimension is judged alike from either side, and sound at
 * small counts (44 → 2 beside 103 → 86 is 5.2σ). 0 when the rest has nothing to compare with.
 */
export function partZ(segment: readonly [number, number], rest: readonly [number, number], dispersion: number): number {
  const [b, c] = segment;
  const [B, C] = rest;
  if (B <= 0 || C < 0 || b < 0 || c < 0 || (b === 0 && c === 0)) return 0;
  const total = b + c + B + C;
  const cross = c * B - b * C;
  const margins = (b + c) * (B + C) * (b + B) * (c + C);
  if (margins <= 0) return 0;
  const chi2 = (total * cross * cross) / margins;
  return (Math.sign(cross) * Math.sqrt(chi2)) / Math.sqrt(dispersion > 0 ? dispersion : 1);
}

/** A dimension estimates the dispersion only with at least this many segments… */
export const DISPERSION_MIN_SEGMENTS = 5;
/** …of at least this baseline count each (Pearson residuals of smaller counts are skewed)… */
export const DISPERSION_MIN_COUNT = 10;
/** …or, for amounts (any unit), at least this share of the whole's baseline. */
export const DISPERSION_MIN_AMOUNT_SHARE = 0.002;

/**
 * How many times Poisson's variance a part varies by (quasi-Poisson dispersion), estimated on one
 * dimension's scan: the mean squared Pearson residual of its segments' values against the
 * dimension's volume-weighted median move (Pearson's χ² over its count, the textbook estimator),
 * trimmed: the largest tenth of the squares (at least the largest one) left out, so that a cause in
 * a few segments barely moves it, and the rest divided by what χ²₁ averages below the same
 * quantile. Not the median: a day's count is a sum of deliveries of very different sizes, so its
 * squared residuals are heavy-tailed and their median says a third of their mean (the sandbox's
 * clicks by country, a day against the same day a week before: median 8, rows' own variance 19–27,
 * trimmed mean 18). Undefined when the scan has too few segments of size. `pairs` are
 * [baseline, current] per segment; counts are floored at 1 (they vary at least as Poisson's),
 * amounts are not (their unit is arbitrary: dollars or cents give the same answer).
 */
export function scanDispersion(kind: PartKind, pairs: readonly (readonly [number, number])[]): number | undefined {
  const whole = pairs.reduce((sum, [base]) => sum + Math.abs(base), 0);
  const least = kind === 'count' ? DISPERSION_MIN_COUNT : DISPERSION_MIN_AMOUNT_SHARE * whole;
  const sized = pairs.filter(([base]) => base >= least && base > 0);
  if (sized.length < DISPERSION_MIN_SEGMENTS) return undefined;
  const k = weightedMedian(
    sized.map(([base, observed]) => observed / base),
    sized.map(([base]) => base),
  );
  const phi = trimmedDispersion(sized.map(([base, observed]) => pearson(observed, base, k) ** 2));
  return kind === 'count' ? Math.max(1, phi) : phi;
}

/**
 * The dispersion that squared Pearson residuals say: their mean with the largest tenth left out (at
 * least the largest one: a cause in the dimension's own segments does not count), over what χ²₁
 * averages below the same quantile.
 */
function trimmedDispersion(squares: readonly number[]): number {
  const sorted = [...squares].sort((a, b) => a - b);
  const kept = sorted.slice(0, Math.min(sorted.length - 1, Math.ceil((1 - TRIMMED) * sorted.length)));
  return mean(kept) / chi2MeanBelow(kept.length / sorted.length);
}

/** The share of the largest squared residuals scanDispersion leaves out. */
export const TRIMMED = 0.1;

/**
 * What χ²₁ averages below its q-quantile x: E[χ²₁ | χ²₁ < x] = P(χ²₃ < x) / q, with
 * P(χ²₁ < x) = 1 − erfc(√(x/2)) and P(χ²₃ < x) = P(χ²₁ < x) − √(2x/π)·e^(−x/2).
 */
export function chi2MeanBelow(q: number): number {
  if (q >= 1) return 1;
  // x is the square of the normal z whose two-sided tail is 1 − q.
  const x = normalQuantile(1 - q) ** 2;
  const below1 = 1 - erfc(Math.sqrt(x / 2));
  return (below1 - Math.sqrt((2 * x) / Math.PI) * Math.exp(-x / 2)) / q;
}

function mean(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0) / values.length;
}

/**
 * A part's noise measured on the scans (`pairs` per dimension): per dimension where it can be,
 * and over every dimension (their median; for counts 1 when none could be measured).
 */
export function partNoise(
  kind: PartKind,
  scans: ReadonlyMap<string, readonly (readonly [number, number])[]>,
): PartNoise {
  const byDimension = new Map<string, number>();
  const growth = new Map<string, SizeGrowth>();
  for (const [dimension, pairs] of scans) {
    const phi = scanDispersion(kind, pairs);
    if (phi !== undefined) byDimension.set(dimension, phi);
    const grows = sizeGrowth(kind, pairs);
    if (grows !== undefined) growth.set(dimension, grows);
  }
  const all = [...byDimension.values()];
  const dispersion = all.length > 0 ? median(all) : kind === 'count' ? 1 : undefined;
  return { kind, dispersion, byDimension, growth };
}

/** A dimension's growth is measured only with at least this many segments of size… */
export const GROWTH_MIN_SEGMENTS = 30;
/** …and counts only when its larger half wobbles at least this many times the smaller half's dispersion. */
export const GROWTH_MIN_RATIO = 1.5;

/**
 * Whether a dimension's dispersion grows with its segments' size (Taylor's law), measured on its
 * scan: the segments of size split in a smaller and a larger half by baseline, each half's
 * dispersion (trimmed mean squared Pearson residual, as scanDispersion), and the slope of log
 * dispersion over log size between the halves' median sizes, at most 1 (variance ∝ size²: a share
 * of the volume). Trimmed, so that a few causes barely move it; undefined for a dimension of few
 * values (countries, platforms) or one whose dispersion does not grow.
 */
export function sizeGrowth(kind: PartKind, pairs: readonly (readonly [number, number])[]): SizeGrowth | undefined {
  const whole = pairs.reduce((sum, [base]) => sum + Math.abs(base), 0);
  const least = kind === 'count' ? DISPERSION_MIN_COUNT : DISPERSION_MIN_AMOUNT_SHARE * whole;
  const sized = pairs.filter(([base]) => base >= least && base > 0).sort((a, b) => a[0] - b[0]);
  if (sized.length < GROWTH_MIN_SEGMENTS) return undefined;
  const k = weightedMedian(
    sized.map(([base, observed]) => observed / base),
    sized.map(([base]) => base),
  );
  const half = sized.length >> 1;
  const phiOf = (segments: readonly (readonly [number, number])[]) =>
    trimmedDispersion(segments.map(([base, observed]) => pearson(observed, base, k) ** 2));
  const small = sized.slice(0, half);
  const large = sized.slice(sized.length - half);
  const phiSmall = phiOf(small);
  const phiLarge = phiOf(large);
  const atSmall = median(small.map(([base]) => base));
  const atLarge = median(large.map(([base]) => base));
  if (!(phiSmall > 0) || !(phiLarge >= GROWTH_MIN_RATIO * phiSmall) || !(atLarge > atSmall)) return undefined;
  const slope = Math.min(1, Math.log(phiLarge / phiSmall) / Math.log(atLarge / atSmall));
  const upTo = sized[Math.floor(0.9 * (sized.length - 1))]?.[0] ?? atLarge;
  return { at: atLarge, phi: phiLarge, slope, upTo };
}

/**
 * The dispersion that applies to a segment of baseline `size`: the median over the dimensions where
 * it was measured, or more where one of the segment's dimensions wobbles more at its size (Taylor's
 * law, sizeGrowth). Not its own dimension's median: with a dozen countries, two other anomalies in
 * the same dimension (a collapse in BR, a drop in MX) inflate it until a real cause (US installs
 * 44 → 2) no longer stands out. Undefined for an amount whose dispersion could not be measured.
 */
export function dispersionFor(noise: PartNoise, dimensions: readonly string[], size = 0): number | undefined {
  if (noise.dispersion === undefined) return undefined;
  let phi = noise.dispersion;
  for (const dimension of dimensions) {
    const grows = noise.growth?.get(dimension);
    if (grows !== undefined && size > 0)
      phi = Math.max(phi, grows.phi * (Math.min(size, grows.upTo) / grows.at) ** grows.slope);
  }
  return phi;
}

function weightedMedian(values: readonly number[], weights: readonly number[]): number {
  const order = values.map((v, i) => [v, weights[i] as number] as const).sort((a, b) => a[0] - b[0]);
  const half = weights.reduce((a, b) => a + b, 0) / 2;
  let seen = 0;
  for (const [value, weight] of order) {
    seen += weight;
    if (seen >= half) return value;
  }
  return order[order.length - 1]?.[0] ?? 1;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}
