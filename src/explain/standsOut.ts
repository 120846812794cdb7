import type { Frame, Segment } from './segmentMath.js';

/** A driver's segment must have moved at least this much more (relatively) than its siblings' median. */
export const MIN_RELATIVE_DEVIATION = 0.1;
/** …and by more than this many median absolute deviations of its siblings (volume-standardised). */
export const MAD_FACTOR = 4;

/**
 * Whether `segment` stands out among the other segments of its group-by: a change spread evenly
 * (every segment moving alike) or noise has no segment standing out. Each segment's movement is
 * its contribution per unit of its share of the whole's volume, relative to the whole (r), standardised by
 * the square root of the volume share (z), as counts' noise shrinks with volume. The segment stands
 * out when, in the direction of the change, r exceeds the siblings' median r by
 * MIN_RELATIVE_DEVIATION (10 points) and z exceeds the siblings' median z by MAD_FACTOR median absolute
 * deviations. A dimension with a single value never stands out.
 */
export function standsOut(frame: Frame, segment: Segment, siblings: readonly Segment[]): boolean {
  const direction = Math.sign(frame.change);
  // Volume shares of the whole (not of the siblings), so a drilled piece is measured as itself.
  const total = frame.volume;
  const reference = Math.abs(frame.baseline) || Math.abs(frame.current) || 1;
  if (total <= 0 || segment.volume <= 0) return false;
  const r = (s: Segment) => s.contribution / ((s.volume / total) * reference);
  const z = (s: Segment) => s.contribution / (reference * Math.sqrt(s.volume / total));
  const others = siblings.filter((s) => s !== segment && s.volume > 0);
  if (others.length === 0) return false;
  const rs = others.map(r);
  const zs = others.map(z);
  const mz = median(zs);
  const mad = median(zs.map((v) => Math.abs(v - mz)));
  return (
    direction * (r(segment) - median(rs)) >= MIN_RELATIVE_DEVIATION &&
    direction * (z(segment) - mz) > MAD_FACTOR * mad &&
    (!frame.counts || beyondCountingNoise(frame, segment, siblings.length))
  );
}

/** Standard deviations of Poisson noise a segment of counts must move beyond to stand out… */
export const COUNT_NOISE_SIGMAS = 3;

/**
 * …when it is the only segment looked at. Among `compared` segments the largest wobble grows with
 * their number, so the bar is raised to keep the same chance that any one of them passes by
 * noise alone (Bonferroni): the two-sided tail of COUNT_NOISE_SIGMAS (0.27 %) divided among them.
 * 3 for one segment, 3.3 for 3, 3.6 for 10, 4.4 for 200.
 */
export function noiseSigmas(compared: number): number {
  const tail = erfc(COUNT_NOISE_SIGMAS / Math.SQRT2) / Math.max(1, compared);
  let lo = COUNT_NOISE_SIGMAS;
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
  const r =
    t *
    Math.exp(
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
                        t *
                          (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? r : 2 - r;
}

/**
 * Whether a segment of counts moved beyond its counting noise, against what the whole's own move
 * would predict for it. Additive: its count against its baseline scaled by the whole's ratio.
 * Ratio (a count denominator): its denominator's share moved (mix) or its own ratio moved (rate),
 * each against the noise of the counts it is made of. The noise is Poisson's times the frame's
 * dispersion (see countDispersion): real counts vary more than Poisson's. `compared`: how many
 * segments it was picked among (see noiseSigmas).
 */
export function beyondCountingNoise(frame: Frame, segment: Segment, compared = 1): boolean {
  const { n0, n1, d0, d1 } = segment.parts;
  const sigmas = noiseSigmas(compared) * Math.sqrt(frame.dispersion ?? 1);
  if (frame.kind === 'additive') {
    const k = frame.n0 === 0 ? 1 : frame.n1 / frame.n0;
    return Math.abs(pearson(n1, n0, k)) >= sigmas;
  }
  const mix = Math.abs(pearson(d1, d0, frame.d0 === 0 ? 1 : frame.d1 / frame.d0)) >= sigmas;
  if (mix) return true;
  if (d0 <= 0 || d1 <= 0 || n0 === 0 || frame.baseline === 0) return false;
  // A ratio over a count: its relative noise is about 1/√count in each period.
  const c0 = n0 / d0;
  const c1 = n1 / d1;
  const expected = c0 * (frame.current / frame.baseline);
  const sd = Math.abs(c0) * Math.sqrt(1 / d0 + 1 / d1);
  return sd > 0 && Math.abs(c1 - expected) / sd >= sigmas;
}

/** A count against its baseline scaled by k, in Poisson standard deviations (a Pearson residual). */
function pearson(observed: number, base: number, k: number): number {
  return (observed - base * k) / Math.sqrt(Math.max(1, Math.abs(observed) + Math.abs(base) * k * k));
}

/** The median of χ² with one degree of freedom: a Pearson residual's square has it under Poisson noise. */
const CHI2_1_MEDIAN = 0.4549;
/** A dimension estimates the dispersion only with at least this many segments… */
export const DISPERSION_MIN_SEGMENTS = 5;
/** …of at least this baseline count each (Pearson residuals of smaller counts are skewed). */
export const DISPERSION_MIN_COUNT = 10;

/**
 * How many times Poisson's variance the counts vary by (quasi-Poisson dispersion, at least
 * `floor`: 1 for counts, which vary at least as much as Poisson's; none for amounts, whose unit is
 * arbitrary), estimated from the first scans: in each dimension with enough segments, the median squared
 * Pearson residual of the segments' counts (the additive metric, or the ratio's denominator)
 * against the dimension's volume-weighted median move, over χ²₁'s median; then the median over
 * dimensions. Medians, so that a cause in a few segments barely moves the estimate; the weighted
 * median move, so that a cause in a large segment does not make every other segment look moved.
 */
export function countDispersion(kind: Frame['kind'], scans: readonly (readonly Segment[])[], floor = 1): number {
  const estimates: number[] = [];
  for (const segments of scans) {
    const counts = segments
      .map((s) => (kind === 'additive' ? [s.parts.n0, s.parts.n1] : [s.parts.d0, s.parts.d1]) as [number, number])
      .filter(([base]) => base >= DISPERSION_MIN_COUNT);
    if (counts.length < DISPERSION_MIN_SEGMENTS) continue;
    const k = weightedMedian(
      counts.map(([base, observed]) => observed / base),
      counts.map(([base]) => base),
    );
    estimates.push(median(counts.map(([base, observed]) => pearson(observed, base, k) ** 2)) / CHI2_1_MEDIAN);
  }
  return estimates.length === 0 ? 1 : Math.max(floor, median(estimates));
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

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}
