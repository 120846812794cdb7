/**
 * The search's steps, each a pure function of what was measured (explain.ts asks the queries):
 * `scan` ranks the first scans' segments by what they explain, with standing out as a gate;
 * `drillPlan` and `drill` say where to look deeper and whether a piece replaces its parent;
 * `generalize` prefers a coarser segment that moved as a whole; `choose` keeps disjoint drivers;
 * `decideDiffuse` says whether they explain the change; `findOffset` sees moves that cancel out.
 */
import { type Frame, measureSegment, type Segment, wholeParts } from './segmentMath.js';
import { movedAsWhole, splitSurprise, standsOut } from './standsOut.js';
import type { GroupRow } from './types.js';
import { overlaps, whereKey } from './where.js';

/** Drivers listed at most; they are disjoint segments. */
export const MAX_DRIVERS = 5;
/** How many of the kept segments are drilled into with filtered group-bys. */
export const DRILLED_SEGMENTS = 3;
/** A segment is at most this many dimensions deep (`country · source · platform`). */
export const MAX_DEPTH = 3;
/** Dimensions tried per drill level, the most concentrated first… */
export const DRILL_DIMENSIONS = 3;
/** …and one more where they found nothing: neither a piece that replaces the segment nor a twin. */
export const FALLBACK_DIMENSIONS = 1;
/** A dimension is drilled into only when its best segment explains at least this share. */
export const CONCENTRATED = 0.2;
/** A piece replaces its parent only when it explains at least this share of the parent's contribution… */
export const MOST_OF_PARENT = 0.5;
/** …and this much more than it would have had the whole parent moved evenly (nearly all of a parent is the parent). */
export const EVEN_MARGIN = 0.1;
/** Not diffuse when one standing-out driver explains this share… */
export const ONE_DRIVER_SHARE = 0.35;
/** …or the top three standing-out drivers together explain this share. */
export const TOP_THREE_SHARE = 0.6;
/** Per dimension, how many of the segments that explain most are tested for standing out. */
export const TESTED_PER_DIMENSION = 10;
/** Drilling stops once the drivers kept explain this share of the change (the rest is too little to hold a cause). */
export const EXPLAINED_ENOUGH = 0.8;
/** At one drill level, another dimension's piece replaces the most concentrated one's only when it splits the parent this many times better. */
export const BETTER_SPLIT = 1.1;
/** Moves that cancel: the net change is less than this share of the smaller of two opposite movers. */
export const OFFSET_NET = 0.5;

export interface Candidate {
  readonly segment: Segment;
  /** Whether it stands out from the rest of the whole (see standsOut). */
  readonly standsOut: boolean;
}

export interface Scanned {
  /** Segments that pushed in the change's direction, by what they explain (best first). */
  readonly candidates: readonly Candidate[];
  /** Per dimension, the best segment's share of the change (drill into concentrated ones). */
  readonly concentration: ReadonlyMap<string, number>;
  /**
   * Per scanned dimension, the count its segments' noise bar is set for: the bar is shared equally
   * among the dimensions, then among each one's segments (the dimensions scanned times its own
   * segments). A platform of two values is not judged as one of the 1,500 sites' segments.
   */
  readonly comparedIn: ReadonlyMap<string, number>;
}

const byKey = (a: Segment, b: Segment) => compareKeys(whereKey(a.where), whereKey(b.where));

/**
 * Scan: the first scans' segments that pushed in `direction` (volume at least `minVolume`), ranked
 * by what they explain (their contribution), each tested for standing out from the rest of the
 * whole. A dimension with a single value explains nothing.
 */
export function scan(
  frame: Frame,
  measured: ReadonlyMap<string, readonly Segment[]>,
  direction: number,
  minVolume: number,
): Scanned {
  const candidates: Candidate[] = [];
  const concentration = new Map<string, number>();
  const comparedIn = new Map<string, number>();
  const within = wholeParts(frame);
  for (const [dimension, segments] of measured) {
    // Every segment of every scan is a test: the noise bar counts them (Bonferroni, the chance of a
    // false driver shared equally among the dimensions).
    const compared = measured.size * segments.length;
    comparedIn.set(dimension, compared);
    if (segments.length < 2) continue;
    const pushing = segments
      .filter((s) => direction * s.contribution > 0 && s.volume >= minVolume)
      .sort((a, b) => direction * (b.contribution - a.contribution) || byKey(a, b));
    const best = pushing[0];
    concentration.set(
      dimension,
      best === undefined ? 0 : (direction * best.contribution) / Math.abs(frame.change || 1),
    );
    const gate = { within, compared, siblings: segments, direction };
    pushing.forEach((segment, i) => {
      candidates.push({ segment, standsOut: i < TESTED_PER_DIMENSION && standsOut(frame, segment, gate) });
    });
  }
  candidates.sort(
    (a, b) => direction * (b.segment.contribution - a.segment.contribution) || byKey(a.segment, b.segment),
  );
  return { candidates, concentration, comparedIn };
}

/**
 * Drill plan: the concentrated dimensions not yet in the segment, the most concentrated first, at
 * most `count` (none from MAX_DEPTH on).
 */
export function drillPlan(
  concentration: ReadonlyMap<string, number>,
  segment: Segment,
  dimensions: readonly string[],
  depth = Object.keys(segment.where).length,
  count = DRILL_DIMENSIONS,
): string[] {
  if (depth >= MAX_DEPTH) return [];
  return [...concentration]
    .filter(([d, c]) => c >= CONCENTRATED && !Object.hasOwn(segment.where, d))
    .sort(([a, x], [b, y]) => y - x || dimensions.indexOf(a) - dimensions.indexOf(b))
    .slice(0, count)
    .map(([d]) => d);
}

/**
 * Drill: the piece of `parent` (from a filtered group-by) that replaces it, or undefined (see
 * drillVerdict).
 */
export function drill(
  frame: Frame,
  parent: Segment,
  pieces: readonly Segment[],
  minVolume: number,
): Segment | undefined {
  const verdict = drillVerdict(frame, parent, pieces, minVolume);
  return verdict.kind === 'replaces' ? verdict.piece : undefined;
}

/**
 * What a drill found. `replaces`: the piece that explains most must explain at least
 * MOST_OF_PARENT of the parent's contribution (and EVEN_MARGIN more than had the parent moved
 * evenly), stand out from the parent's other pieces, and the parent must not have moved as a whole
 * (its other pieces moved as the outside did: see movedAsWhole). A strong parent beats its
 * children. `twin`: the piece explains most of the parent's move, beyond its size, but does not
 * stand out from the parent's few other pieces: the piece's dimension may hold a twin of one of the
 * parent's values (playable ads are nearly all 320x480), to test with `preferTwin`. `none` otherwise.
 * `against: { whole: n }` tests the piece against the whole without it, with the noise bar of `n`
 * compared segments: for a parent whose name stands for several things (an app on two platforms),
 * each a thing of its own, and without the EVEN_MARGIN test (however much of the name it holds).
 * `outer: n`: a piece that does not stand out from the parent's other pieces still replaces the
 * parent when it stands out from the whole with the noise bar of `n` compared segments and the
 * parent did not move as a whole: a parent of few or small other pieces (a source's eleven other
 * countries beside the US; a platform's other app) cannot show a cause in one of its pieces beyond
 * their noise, however clearly the rest of the parent stayed where the outside did.
 */
export function drillVerdict(
  frame: Frame,
  parent: Segment,
  pieces: readonly Segment[],
  minVolume: number,
  against: 'parent' | { whole: number } = 'parent',
  outer?: number,
): { kind: 'replaces' | 'twin'; piece: Segment } | { kind: 'none' } {
  const none = { kind: 'none' } as const;
  const direction = Math.sign(frame.change);
  const parentContribution = direction * parent.contribution;
  if (parentContribution <= 0 || pieces.length < 2) return none;
  let best: Segment | undefined;
  for (const piece of pieces)
    if (best === undefined || direction * (piece.contribution - best.contribution) > 0) best = piece;
  if (best === undefined || best.volume < minVolume) return none;
  const share = (direction * best.contribution) / parentContribution;
  if (share < MOST_OF_PARENT) return none;
  const whole = against !== 'parent';
  // A split's piece is another thing than its parent, however much of it it holds: movedAsWhole decides.
  const even = whole ? undefined : evenMoveShare(frame, parent, best);
  if (even !== undefined && share - even < EVEN_MARGIN) return none;
  // A piece tested against the whole is one more segment of the first scans: the caller's count.
  const compared = whole ? against.whole : drilledCompared(pieces.length);
  const gate = { within: whole ? wholeParts(frame) : parent.parts, compared, siblings: pieces, direction };
  const asWhole = movedAsWhole(frame, parent.parts, best.parts);
  if (standsOut(frame, best, gate)) return asWhole ? none : { kind: 'replaces', piece: best };
  // Hidden by the parent's few or small other pieces: judged against the whole (see `outer`).
  const fromWhole = { within: wholeParts(frame), compared: outer ?? 0, siblings: pieces, direction };
  if (outer !== undefined && !whole && !asWhole && standsOut(frame, best, fromWhole))
    return { kind: 'replaces', piece: best };
  return { kind: 'twin', piece: best };
}

/** A drilled piece is one of the pieces of every drill the search may ask at its level: the bar counts them all. */
export function drilledCompared(pieces: number): number {
  return pieces * DRILLED_SEGMENTS * DRILL_DIMENSIONS;
}

/**
 * The share of `parent`'s contribution that `piece` would have had had it moved like its parent
 * (its baseline parts times the parent's own factors, numerator and denominator apart): its
 * baseline share of the parent for an additive metric; for a ratio it also weighs how far the
 * piece's ratio is from the whole's. Undefined when the parent has no baseline to scale.
 */
export function evenMoveShare(frame: Frame, parent: Segment, piece: Segment): number | undefined {
  const p = parent.parts;
  const c = piece.parts;
  if (parent.contribution === 0 || p.n0 === 0 || (frame.kind === 'ratio' && p.d0 === 0)) return undefined;
  const num = (c.n0 * p.n1) / p.n0;
  const even: GroupRow =
    frame.kind === 'ratio'
      ? { where: piece.where, baseline: { num: c.n0, den: c.d0 }, current: { num, den: (c.d0 * p.d1) / p.d0 } }
      : { where: piece.where, baseline: { num: c.n0 }, current: { num } };
  return measureSegment(frame, piece.where, even).contribution / parent.contribution;
}

/**
 * Generalize: a segment found by drilling from `start` may be a piece of another first-scan
 * segment that moved as a whole (a plant on `source=AppLovin`, found through `appPlatform=ANDROID`
 * as `ANDROID · AppLovin`): that coarser segment is then the answer, if it stands out.
 */
export function generalize(frame: Frame, found: Segment, start: Segment, scanned: readonly Candidate[]): Segment {
  if (Object.keys(found.where).length < 2) return found;
  const contains = (outer: Segment) =>
    Object.entries(outer.where).every(([d, v]) => Object.hasOwn(found.where, d) && found.where[d] === v);
  const direction = Math.sign(frame.change);
  const coarser = scanned
    .filter((c) => c.standsOut && c.segment !== start && contains(c.segment))
    .map((c) => c.segment)
    .filter((s) => movedAsWhole(frame, s.parts, found.parts))
    .sort((a, b) => direction * (b.contribution - a.contribution) || byKey(a, b));
  return coarser[0] ?? found;
}

/**
 * Whether the drivers kept so far explain EXPLAINED_ENOUGH of the change together: drilling into
 * the next segments is then not worth its queries (what is left is too little to hold a cause).
 */
export function explainedEnough(frame: Frame, chosen: readonly Segment[]): boolean {
  if (frame.change === 0) return false;
  const direction = Math.sign(frame.change);
  const explained = chosen.reduce((sum, s) => sum + direction * s.contribution, 0);
  return explained / Math.abs(frame.change) >= EXPLAINED_ENOUGH;
}

/**
 * Of two segments of one parent that each replace it (`found`, and `twin` from its twin's
 * dimension), the one that splits the parent better: the larger surprise (χ² of its parts against
 * the parent's other pieces, see splitSurprise). A plant on AppLovin's playable ads makes both
 * `AppLovin · playable` and `AppLovin · 320x480` explain the change; the playable split is the
 * purer one (320x480 also holds unmoved banners, the other 320x480s), so it has the larger χ².
 * Ties keep `found`; with a `margin`, the twin must split the parent that many times better.
 */
export function preferTwin(frame: Frame, parent: Segment, found: Segment, twin: Segment, margin = 1): Segment {
  return splitSurprise(frame, twin, parent.parts) > margin * splitSurprise(frame, found, parent.parts) ? twin : found;
}

/** Choose: whether a candidate can still be kept beside the chosen drivers (disjoint, room left). */
export function canKeep(chosen: readonly Segment[], candidate: Segment): boolean {
  return chosen.length < MAX_DRIVERS && !chosen.some((c) => overlaps(c.where, candidate.where));
}

/**
 * Whether a first-scan segment that stands out takes the place of the drivers it overlaps: when
 * each was found by drilling from a segment that did not stand out (`unsure`) and it splits the
 * whole better (the larger χ², see splitSurprise). A plant on one campaign in every country it runs
 * in, drilled from the US (which did not stand out), was reached as the campaign's app's US rows;
 * the campaign itself, next, stands out and holds all of the move.
 */
export function overtakes(
  frame: Frame,
  segment: Segment,
  chosen: readonly Segment[],
  unsure: ReadonlySet<Segment>,
): boolean {
  const overlapping = chosen.filter((c) => overlaps(c.where, segment.where));
  const whole = wholeParts(frame);
  const surprise = splitSurprise(frame, segment, whole);
  return overlapping.length > 0 && overlapping.every((c) => unsure.has(c) && surprise > splitSurprise(frame, c, whole));
}

/** The kept drivers that pushed in the change's direction, by what they explain. */
export function rank(frame: Frame, chosen: readonly Segment[]): Segment[] {
  const direction = Math.sign(frame.change);
  return chosen
    .filter((s) => direction * s.contribution > 0)
    .sort((a, b) => direction * (b.contribution - a.contribution) || byKey(a, b));
}

/**
 * Decide diffuse: not diffuse when a driver that stands out explains ONE_DRIVER_SHARE of the change
 * or the top three that stand out explain TOP_THREE_SHARE together.
 */
export function decideDiffuse(frame: Frame, drivers: readonly { segment: Segment; standsOut: boolean }[]): boolean {
  if (frame.change === 0) return true;
  const shares = drivers.filter((d) => d.standsOut).map((d) => d.segment.contribution / frame.change);
  return !(
    shares.some((s) => s >= ONE_DRIVER_SHARE) || shares.slice(0, 3).reduce((a, b) => a + b, 0) >= TOP_THREE_SHARE
  );
}

/**
 * Find an offset: the strongest standing-out segment up and the strongest down (disjoint), when
 * the net change is less than OFFSET_NET of the smaller of them (US +501 offset by BR −500), or none.
 */
export function findOffset(
  frame: Frame,
  measured: ReadonlyMap<string, readonly Segment[]>,
  minVolume: number,
): { up: Segment; down: Segment } | undefined {
  const strongest = (direction: number) =>
    scan(frame, measured, direction, minVolume)
      .candidates.filter((c) => c.standsOut)
      .map((c) => c.segment);
  const ups = strongest(1);
  const downs = strongest(-1);
  const up = ups[0];
  if (up === undefined) return undefined;
  const down = downs.find((d) => !overlaps(d.where, up.where));
  if (down === undefined) return undefined;
  const smaller = Math.min(up.contribution, -down.contribution);
  return Math.abs(frame.change) < OFFSET_NET * smaller ? { up, down } : undefined;
}

export function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
