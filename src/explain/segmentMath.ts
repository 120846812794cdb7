import type { PartNoise } from './noise.js';
import type { GroupRow, Measure, Where } from './types.js';

/** A segment's sums, both periods (den 0 for an additive metric). */
export interface Parts {
  readonly n0: number;
  readonly n1: number;
  readonly d0: number;
  readonly d1: number;
}

/** Relative precision of the data: sums of floats that differ by less than this are equal. */
export const PRECISION = 1e-9;

/**
 * The whole's figures both periods, from which every segment is measured. For an additive metric
 * only `n0`/`n1` are used; for a ratio R = scale·N/D, `r0`/`r1` are the scaled ratios.
 */
export interface Frame {
  readonly kind: 'additive' | 'ratio';
  readonly scale: number;
  readonly n0: number;
  readonly n1: number;
  readonly d0: number;
  readonly d1: number;
  /** The metric's value: the sum (additive) or the scaled ratio. */
  readonly baseline: number;
  readonly current: number;
  readonly change: number;
  /** baseline + current volume: |num| for additive, den for a ratio. */
  readonly volume: number;
  /** Below this a change or a contribution is 0: the data's precision (1e-14 float sums are not moves). */
  readonly epsilon: number;
  /** The parts' noise, measured on the scans (see noise.ts); absent for a source that knows nothing of its units. */
  readonly noise?: { readonly num?: PartNoise; readonly den?: PartNoise };
}

/** One segment measured against the frame. */
export interface Segment {
  readonly where: Where;
  readonly current: number;
  readonly baseline: number;
  /** Exactly additive over disjoint segments; sums to `frame.change` over a partition. */
  readonly contribution: number;
  /** What the whole would have moved had only this segment changed (Adtributor); the search's order. */
  readonly power: number;
  readonly mix?: number;
  readonly rate?: number;
  readonly volume: number;
  /** Which of the segment's ratios is undefined (its denominator is 0); shown as 0. */
  readonly undefinedRatio?: 'current' | 'baseline' | 'both';
  /** The segment's own sums, both periods (den 0 for an additive metric). */
  readonly parts: Parts;
}

const den = (m: Measure): number => m.den ?? 0;

/** Sums rows into the frame of the whole (no noise model: see `withNoise`). */
export function frameOf(kind: 'additive' | 'ratio', scale: number, rows: readonly GroupRow[]): Frame {
  let n0 = 0;
  let n1 = 0;
  let d0 = 0;
  let d1 = 0;
  let magnitude = 0;
  for (const row of rows) {
    n0 += row.baseline.num;
    n1 += row.current.num;
    d0 += den(row.baseline);
    d1 += den(row.current);
    magnitude += Math.abs(row.baseline.num) + Math.abs(row.current.num);
  }
  if (kind === 'additive') {
    const change = n1 - n0;
    const epsilon = PRECISION * magnitude;
    return {
      kind,
      scale,
      n0,
      n1,
      d0,
      d1,
      baseline: n0,
      current: n1,
      change: Math.abs(change) <= epsilon ? 0 : change,
      volume: Math.abs(n0) + Math.abs(n1),
      epsilon,
    };
  }
  // An undefined whole ratio is reported as 0 with a note by the caller (explain stops there).
  const baseline = d0 === 0 ? 0 : (scale * n0) / d0;
  const current = d1 === 0 ? 0 : (scale * n1) / d1;
  const change = current - baseline;
  const epsilon = PRECISION * (Math.abs(baseline) + Math.abs(current));
  return {
    kind,
    scale,
    n0,
    n1,
    d0,
    d1,
    baseline,
    current,
    change: Math.abs(change) <= epsilon ? 0 : change,
    volume: Math.abs(d0) + Math.abs(d1),
    epsilon,
  };
}

/** The rest of the whole besides a segment's parts (or of `within`, a parent holding it). */
export function complementParts(of: Parts, within: Parts): Parts {
  return { n0: within.n0 - of.n0, n1: within.n1 - of.n1, d0: within.d0 - of.d0, d1: within.d1 - of.d1 };
}

/** The whole's parts. */
export const wholeParts = (frame: Frame): Parts => ({ n0: frame.n0, n1: frame.n1, d0: frame.d0, d1: frame.d1 });

/**
 * Measures one segment. Additive: contribution = current − baseline. Ratio (centred Kitagawa, with
 * w = D_i/D per period and c = scale·N_i/D_i): contribution = scale·(N1_i/D1 − N0_i/D0) − R0·(w1 − w0),
 * mix = (w1 − w0)(c0 − R0) (c1 stands in for an undefined c0; 0 when both are undefined),
 * rate = contribution − mix. Requires the frame's d0, d1 ≠ 0 for a ratio.
 */
export function measureSegment(frame: Frame, where: Where, row: GroupRow): Segment {
  const n0 = row.baseline.num;
  const n1 = row.current.num;
  if (frame.kind === 'additive') {
    const contribution = atPrecision(n1 - n0, frame);
    return {
      where,
      current: n1,
      baseline: n0,
      contribution,
      power: contribution,
      volume: Math.abs(n0) + Math.abs(n1),
      parts: { n0, n1, d0: 0, d1: 0 },
    };
  }
  const { scale } = frame;
  const d0 = den(row.baseline);
  const d1 = den(row.current);
  const r0 = frame.baseline;
  const w0 = d0 / frame.d0;
  const w1 = d1 / frame.d1;
  const contribution = atPrecision(scale * (n1 / frame.d1 - n0 / frame.d0) - r0 * (w1 - w0), frame);
  const c0 = d0 === 0 ? undefined : (scale * n0) / d0;
  const c1 = d1 === 0 ? undefined : (scale * n1) / d1;
  const base = c0 ?? c1;
  const mix = base === undefined ? 0 : atPrecision((w1 - w0) * (base - r0), frame);
  const rate = contribution - mix;
  const shifted = frame.d0 + (d1 - d0);
  const power = shifted === 0 ? contribution : scale * ((frame.n0 + (n1 - n0)) / shifted - frame.n0 / frame.d0);
  const undefinedRatio =
    c0 === undefined ? (c1 === undefined ? 'both' : 'baseline') : c1 === undefined ? 'current' : undefined;
  return {
    where,
    current: c1 ?? 0,
    baseline: c0 ?? 0,
    contribution,
    power,
    mix,
    rate,
    volume: Math.abs(d0) + Math.abs(d1),
    parts: { n0, n1, d0, d1 },
    ...(undefinedRatio === undefined ? {} : { undefinedRatio }),
  };
}

/** 0 for a value within the data's precision (frame.epsilon), else the value. */
export function atPrecision(value: number, frame: Pick<Frame, 'epsilon'>): number {
  return Math.abs(value) <= frame.epsilon ? 0 : value;
}
