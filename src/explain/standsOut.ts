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
    direction * (r(segment) - median(rs)) >= MIN_RELATIVE_DEVIATION && direction * (z(segment) - mz) > MAD_FACTOR * mad
  );
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}
