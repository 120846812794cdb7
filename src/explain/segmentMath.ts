import type { GroupRow, Measure, Where } from './types.js';

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
  /** The measures are counts or amounts, whose noise grows with their size (`ExplainRequest.counts`, `amounts`). */
  readonly counts?: boolean;
  /** How many times Poisson's variance the counts vary by (see `countDispersion`); 1 when absent. */
  readonly dispersion?: number;
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
  readonly parts: { readonly n0: number; readonly n1: number; readonly d0: number; readonly d1: number };
}

const den = (m: Measure): number => m.den ?? 0;

/** Sums rows into the frame of the whole. */
export function frameOf(kind: 'additive' | 'ratio', scale: number, rows: readonly GroupRow[], counts = false): Frame {
  let n0 = 0;
  let n1 = 0;
  let d0 = 0;
  let d1 = 0;
  for (const row of rows) {
    n0 += row.baseline.num;
    n1 += row.current.num;
    d0 += den(row.baseline);
    d1 += den(row.current);
  }
  if (kind === 'additive') {
    return {
      kind,
      scale,
      n0,
      n1,
      d0,
      d1,
      baseline: n0,
      current: n1,
      change: n1 - n0,
      volume: Math.abs(n0) + Math.abs(n1),
      ...(counts ? { counts } : {}),
    };
  }
  // An undefined whole ratio is reported as 0 with a note by the caller (explain stops there).
  const baseline = d0 === 0 ? 0 : (scale * n0) / d0;
  const current = d1 === 0 ? 0 : (scale * n1) / d1;
  return {
    kind,
    scale,
    n0,
    n1,
    d0,
    d1,
    baseline,
    current,
    change: current - baseline,
    volume: Math.abs(d0) + Math.abs(d1),
    ...(counts ? { counts } : {}),
  };
}

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
    const contribution = n1 - n0;
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
  const contribution = scale * (n1 / frame.d1 - n0 / frame.d0) - r0 * (w1 - w0);
  const c0 = d0 === 0 ? undefined : (scale * n0) / d0;
  const c1 = d1 === 0 ? undefined : (scale * n1) / d1;
  const base = c0 ?? c1;
  const mix = base === undefined ? 0 : (w1 - w0) * (base - r0);
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

/**
 * The share of `parent`'s contribution that `child` would have had had it moved like its parent
 * (its baseline parts times the parent's own factors, numerator and denominator apart): the
 * child's baseline share of the parent for an additive metric; for a ratio it also weighs how far
 * the child's ratio is from the whole's. Undefined when the parent has no baseline to scale.
 */
export function evenMoveShare(frame: Frame, parent: Segment, child: Segment): number | undefined {
  const p = parent.parts;
  const c = child.parts;
  if (parent.contribution === 0 || p.n0 === 0 || (frame.kind === 'ratio' && p.d0 === 0)) return undefined;
  const num = (c.n0 * p.n1) / p.n0;
  const even: GroupRow =
    frame.kind === 'ratio'
      ? { where: child.where, baseline: { num: c.n0, den: c.d0 }, current: { num, den: (c.d0 * p.d1) / p.d0 } }
      : { where: child.where, baseline: { num: c.n0 }, current: { num } };
  return measureSegment(frame, child.where, even).contribution / parent.contribution;
}

/** The parent's pieces other than `child`, together, measured as one segment (its parts subtracted). */
export function restOf(frame: Frame, parent: Segment, child: Segment): Segment {
  const p = parent.parts;
  const c = child.parts;
  const where = { ...parent.where };
  const rest: GroupRow =
    frame.kind === 'ratio'
      ? { where, baseline: { num: p.n0 - c.n0, den: p.d0 - c.d0 }, current: { num: p.n1 - c.n1, den: p.d1 - c.d1 } }
      : { where, baseline: { num: p.n0 - c.n0 }, current: { num: p.n1 - c.n1 } };
  return measureSegment(frame, where, rest);
}

/**
 * How far a segment moved relatively beyond the whole's own move: |part₁ / (part₀ · whole₁/whole₀) − 1|
 * for the numerator (and for a ratio the denominator too, the larger of the two). Infinite for a
 * part that appears from nothing; 0 for a whole that had nothing in the baseline.
 */
export function relativeMove(frame: Frame, segment: Segment): number {
  const move = (p0: number, p1: number, w0: number, w1: number) =>
    w0 === 0 || w1 === 0
      ? 0
      : p0 === 0
        ? p1 === 0
          ? 0
          : Number.POSITIVE_INFINITY
        : Math.abs(p1 / (p0 * (w1 / w0)) - 1);
  const { n0, n1, d0, d1 } = segment.parts;
  const num = move(n0, n1, frame.n0, frame.n1);
  return frame.kind === 'ratio' ? Math.max(num, move(d0, d1, frame.d0, frame.d1)) : num;
}
