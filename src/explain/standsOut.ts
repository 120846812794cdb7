import { dispersionFor, median, noiseSigmas, type PartNoise, partZ } from './noise.js';
import { complementParts, type Frame, type Parts, type Segment } from './segmentMath.js';

/** A segment must have moved at least this much more (relatively) than the rest it is compared with. */
export const MIN_RELATIVE_DEVIATION = 0.1;
/** Among many siblings and without a noise model: beyond this many median absolute deviations of theirs. */
export const MAD_FACTOR = 4;
/** The siblings' test applies from this many other values on (it cannot work for two to six values). */
export const MAD_MIN_SIBLINGS = 7;

/** Against what a segment is compared, and among how many it was picked. */
export interface Gate {
  /** The parts of what holds the segment: the whole for a scan, the parent for a drilled piece. */
  readonly within: Parts;
  /** How many segments were compared (raises the noise bar, see noiseSigmas). */
  readonly compared: number;
  /** The other segments of its group-by (for the siblings' test without a noise model). */
  readonly siblings: readonly Segment[];
  /** The direction a driver must push: the change's sign (or, for offsets, the side looked at). */
  readonly direction: number;
}

/**
 * Whether a segment stands out: it pushed in the gate's direction, and one of its parts (the value;
 * for a ratio its numerator, its denominator or the ratio itself) moved at least
 * MIN_RELATIVE_DEVIATION differently from the rest it is compared with and, where the frame has a
 * noise model for that part, beyond its noise (noiseSigmas of the number compared). Without a noise
 * model, a segment of a group-by with many values must also stand out among its siblings (the
 * median-absolute-deviation test). A segment with no volume can stand out (spend and no installs).
 */
export function standsOut(frame: Frame, segment: Segment, gate: Gate): boolean {
  if (gate.direction * segment.contribution <= 0) return false;
  const rest = complementParts(segment.parts, gate.within);
  const dimensions = Object.keys(segment.where);
  const bar = noiseSigmas(gate.compared);
  const p = segment.parts;
  // Which way a part must have moved (against the rest) to push the metric the gate's way: the
  // numerator up for a rise; a ratio's denominator down (its own ratio) or toward a segment whose
  // ratio is on the change's side of the whole's (mix).
  const mixes = gate.direction * (segment.mix ?? 0) > 0;
  const num = partMoved(p.n0, p.n1, rest.n0, rest.n1, frame.noise?.num, dimensions, bar, mixes ? 0 : gate.direction);
  const den =
    frame.kind === 'ratio' &&
    partMoved(p.d0, p.d1, rest.d0, rest.d1, frame.noise?.den, dimensions, bar, mixes ? 0 : -gate.direction);
  let moved = num || den;
  if (!moved && frame.kind === 'ratio') moved = ratioMoved(p, rest, frame, dimensions, bar, gate.direction);
  if (!moved) return false;
  if (frame.noise !== undefined || gate.siblings.length < MAD_MIN_SIBLINGS) return true;
  return amongSiblings(frame, segment, gate.siblings, gate.direction);
}

/** One part moved beyond the rest's move, by MIN_RELATIVE_DEVIATION and beyond its noise when modelled. */
function partMoved(
  b: number,
  c: number,
  B: number,
  C: number,
  noise: PartNoise | undefined,
  dimensions: readonly string[],
  bar: number,
  way: number,
): boolean {
  if (B <= 0 || (b === 0 && c === 0)) return false;
  const expected = b * (C / B);
  if (way !== 0 && Math.sign(c - expected) !== way) return false;
  const deviation = expected === 0 ? Number.POSITIVE_INFINITY : Math.abs(c / expected - 1);
  if (!(deviation >= MIN_RELATIVE_DEVIATION)) return false;
  if (noise === undefined) return true;
  const phi = dispersionFor(noise, dimensions, b);
  return phi === undefined || Math.abs(partZ([b, c], [B, C], phi)) >= bar;
}

/**
 * The segment's own ratio moved differently from the rest's (each part a little, together enough):
 * the log of the two moves' quotient against the noise of the eight values it is made of.
 */
function ratioMoved(
  p: Parts,
  rest: Parts,
  frame: Frame,
  dimensions: readonly string[],
  bar: number,
  way: number,
): boolean {
  const values = [p.n0, p.n1, p.d0, p.d1, rest.n0, rest.n1, rest.d0, rest.d1];
  if (values.some((v) => !(v > 0))) return false;
  const move = p.n1 / p.d1 / (p.n0 / p.d0) / (rest.n1 / rest.d1 / (rest.n0 / rest.d0));
  if (Math.sign(move - 1) !== way) return false;
  if (!(Math.abs(move - 1) >= MIN_RELATIVE_DEVIATION)) return false;
  if (frame.noise === undefined) return true;
  const phiOf = (noise: PartNoise | undefined, size: number) =>
    noise === undefined ? undefined : dispersionFor(noise, dimensions, size);
  const phiN = phiOf(frame.noise.num, p.n0);
  const phiD = phiOf(frame.noise.den, p.d0);
  if (phiN === undefined && phiD === undefined) return true;
  const variance =
    (phiN ?? 0) * (1 / p.n0 + 1 / p.n1 + 1 / rest.n0 + 1 / rest.n1) +
    (phiD ?? 0) * (1 / p.d0 + 1 / p.d1 + 1 / rest.d0 + 1 / rest.d1);
  return Math.abs(Math.log(move)) / Math.sqrt(variance) >= bar;
}

/**
 * Without a noise model, among many siblings: the segment's contribution per unit of its volume
 * share (r) is 10 points beyond the siblings' median, and standardised by √share (z) more than
 * MAD_FACTOR median absolute deviations beyond theirs.
 */
function amongSiblings(frame: Frame, segment: Segment, siblings: readonly Segment[], direction: number): boolean {
  const total = frame.volume;
  const reference = Math.abs(frame.baseline) || Math.abs(frame.current) || 1;
  const others = siblings.filter((s) => s !== segment && s.volume > 0);
  if (total <= 0 || segment.volume <= 0 || others.length === 0) return true;
  const r = (s: Segment) => s.contribution / ((s.volume / total) * reference);
  const z = (s: Segment) => s.contribution / (reference * Math.sqrt(s.volume / total));
  const zs = others.map(z);
  const mz = median(zs);
  const mad = median(zs.map((v) => Math.abs(v - mz)));
  return (
    direction * (r(segment) - median(others.map(r))) >= MIN_RELATIVE_DEVIATION &&
    direction * (z(segment) - mz) > MAD_FACTOR * mad
  );
}

/**
 * How surprising a split of `within` into the segment and the rest is: the sum over the parts
 * (the value; a ratio's numerator and denominator) of the 2×2 table's χ² (segment and rest ×
 * baseline and current), each part over its dispersion (1 without a noise model). The larger, the
 * better the segment separates what moved from what did not (a decision tree's split criterion).
 */
export function splitSurprise(frame: Frame, segment: Segment, within: Parts): number {
  const rest = complementParts(segment.parts, within);
  const p = segment.parts;
  const phi = (noise: PartNoise | undefined) => (noise === undefined ? 1 : (dispersionFor(noise, []) ?? 1));
  let chi2 = partZ([p.n0, p.n1], [rest.n0, rest.n1], phi(frame.noise?.num)) ** 2;
  if (frame.kind === 'ratio') chi2 += partZ([p.d0, p.d1], [rest.d0, rest.d1], phi(frame.noise?.den)) ** 2;
  return chi2;
}

/**
 * Whether a parent moved as a whole rather than through one of its pieces: the misfit (squared
 * Pearson residuals, each part with its dispersion) of "every piece of the parent moved by the
 * parent's own factor" against that of "the piece moved, and the rest of the parent moved as the
 * outside (the whole without the parent) did". The parent wins ties: it is the simpler answer.
 */
export function movedAsWhole(frame: Frame, parent: Parts, piece: Parts): boolean {
  const rest = complementParts(piece, parent);
  const outside = complementParts(parent, { n0: frame.n0, n1: frame.n1, d0: frame.d0, d1: frame.d1 });
  const parts: [keyof Parts, keyof Parts, PartNoise | undefined][] = [['n0', 'n1', frame.noise?.num]];
  if (frame.kind === 'ratio') parts.push(['d0', 'd1', frame.noise?.den]);
  let asWhole = 0;
  let throughPiece = 0;
  for (const [base, now, noise] of parts) {
    const phi = noise?.dispersion ?? 1;
    // Counts have a floor of one; values of no known unit only the data's precision.
    const floor = noise === undefined ? Math.max(frame.epsilon, Number.MIN_VALUE) : 1;
    const misfit = (b: number, c: number, k: number) =>
      (c - k * b) ** 2 / (phi * Math.max(floor, Math.abs(c) + k * k * Math.abs(b)));
    const factor = (s: Parts) => (s[base] === 0 ? 1 : s[now] / s[base]);
    const own = factor(parent);
    const out =
      outside[base] > 0 ? factor(outside) : factor({ n0: frame.n0, n1: frame.n1, d0: frame.d0, d1: frame.d1 });
    asWhole += misfit(piece[base], piece[now], own) + misfit(rest[base], rest[now], own);
    throughPiece += misfit(rest[base], rest[now], out);
  }
  return asWhole <= throughPiece;
}
