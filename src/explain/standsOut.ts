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
    (!frame.counts || beyondCountingNoise(frame, segment))
  );
}

/** Standard deviations of Poisson noise a segment of counts must move beyond to stand out. */
export const COUNT_NOISE_SIGMAS = 3;

/**
 * Whether a segment of counts moved beyond its counting noise, against what the whole's own move
 * would predict for it. Additive: its count against its baseline scaled by the whole's ratio.
 * Ratio (a count denominator): its denominator's share moved (mix) or its own ratio moved (rate),
 * each against the noise of the counts it is made of.
 */
export function beyondCountingNoise(frame: Frame, segment: Segment): boolean {
  const { n0, n1, d0, d1 } = segment.parts;
  const z = (observed: number, base: number, k: number) =>
    (observed - base * k) / Math.sqrt(Math.max(1, Math.abs(observed) + Math.abs(base) * k * k));
  if (frame.kind === 'additive') {
    const k = frame.n0 === 0 ? 1 : frame.n1 / frame.n0;
    return Math.abs(z(n1, n0, k)) >= COUNT_NOISE_SIGMAS;
  }
  const mix = Math.abs(z(d1, d0, frame.d0 === 0 ? 1 : frame.d1 / frame.d0)) >= COUNT_NOISE_SIGMAS;
  if (mix) return true;
  if (d0 <= 0 || d1 <= 0 || n0 === 0 || frame.baseline === 0) return false;
  // A ratio over a count: its relative noise is about 1/√count in each period.
  const c0 = n0 / d0;
  const c1 = n1 / d1;
  const expected = c0 * (frame.current / frame.baseline);
  const sd = Math.abs(c0) * Math.sqrt(1 / d0 + 1 / d1);
  return sd > 0 && Math.abs(c1 - expected) / sd >= COUNT_NOISE_SIGMAS;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}
