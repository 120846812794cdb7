/**
 * Refine: where the search drills a first-scan segment deeper, one dimension at a time (filtered
 * group-bys), and which piece, if any, replaces it (see search.ts's drillVerdict for the tests).
 */
import type { Asker } from './asker.js';
import {
  BETTER_SPLIT,
  DRILL_DIMENSIONS,
  drilledCompared,
  drillPlan,
  drillVerdict,
  FALLBACK_DIMENSIONS,
  MAX_DEPTH,
  preferTwin,
  type Scanned,
} from './search.js';
import { type Frame, measureSegment, type Segment } from './segmentMath.js';
import { movedAsWhole, standsOut } from './standsOut.js';
import type { Twin } from './twins.js';
import type { Where } from './types.js';

/**
 * The drill plan, led by the candidate dimensions that tell apart what the segment's names stand
 * for (an app's name on two platforms: a plant on the iOS app is found as `app · appPlatform`, and
 * a move of both stays the app's, its strong parent); then the most concentrated dimensions, and
 * apart the next FALLBACK_DIMENSIONS (`fallback`, see refine).
 */
function drillPlanWithSplits(
  concentration: ReadonlyMap<string, number>,
  segment: Segment,
  dimensions: readonly string[],
  asker: Asker,
): { planned: string[]; fallback: string[] } {
  const depth = depthOf(segment.where, asker);
  // A split names the segment's own values more precisely: asked whether a candidate or not, and
  // at the deepest level too when it adds no depth.
  const splits = asker
    .splits(segment.where)
    .filter((d) => !Object.hasOwn(segment.where, d))
    .filter((d) => depth < MAX_DEPTH || depthOf({ ...segment.where, [d]: '' }, asker) <= depth);
  const concentrated = drillPlan(concentration, segment, dimensions, depth, DRILL_DIMENSIONS + FALLBACK_DIMENSIONS);
  const planned = [...new Set([...splits, ...concentrated.slice(0, DRILL_DIMENSIONS)])];
  return { planned, fallback: concentrated.slice(DRILL_DIMENSIONS).filter((d) => !planned.includes(d)) };
}

/**
 * How deep a segment is: its dimensions, except that the splits naming one of its values more
 * precisely count once (an app's platform does, as before; the bundle that then tells apart two
 * apps of that name on that platform does not: `US · Merge Kingdom · IOS · id1718576156` is as
 * deep as `US · Merge Kingdom · IOS`).
 */
function depthOf(where: Where, asker: Asker): number {
  const keys = Object.keys(where);
  const naming = keys.filter((d) => {
    const without = Object.fromEntries(Object.entries(where).filter(([k]) => k !== d));
    return asker.splits(without).includes(d);
  });
  return keys.length - Math.max(0, naming.length - 1);
}

/**
 * Replaces a segment by a piece that explains most of it, one dimension deeper at a time (drill).
 * Also returns the twins seen on the way: pieces that explained most of their parent's move
 * without standing out from its other pieces.
 */
export async function refine(
  frame: Frame,
  start: Segment,
  scanned: Scanned,
  dimensions: readonly string[],
  asker: Asker,
  minVolume: number,
): Promise<{ segment: Segment; twins: Twin[] }> {
  let segment = start;
  const twins: Twin[] = [];
  for (;;) {
    let deeper: Segment | undefined;
    const twinPieces: Segment[] = [];
    const splits = asker.splits(segment.where);
    const { planned, fallback } = drillPlanWithSplits(scanned.concentration, segment, dimensions, asker);
    // A first-scan segment is drilled by the fallback dimensions too; a deeper one only where the
    // planned found nothing (the cause may be in a less concentrated dimension).
    const plan = segment === start ? [...planned, ...fallback] : planned;
    for (const [i, dimension] of [...planned, ...fallback].entries()) {
      if (i >= plan.length && (deeper !== undefined || twinPieces.length > 0)) break;
      const query = { dimensions: [dimension], filter: segment.where };
      if (!asker.allows(query)) continue;
      if (!asker.mayDrill(query) || (deeper !== undefined && !asker.mayCompare(query))) break;
      const pieces = (await asker.ask(query)).map((row) => measureSegment(frame, row.where, row));
      // A split's piece is one of its parent's first-scan dimension's segments, split in as many.
      const wholeCompared = splitCompared(scanned, segment) * pieces.length;
      const against = splits.includes(dimension) ? { whole: wholeCompared } : 'parent';
      const verdict = drillVerdict(frame, segment, pieces, minVolume, against, wholeCompared);
      const value = verdict.kind === 'none' ? undefined : (verdict.piece.where[dimension] as string);
      if (verdict.kind === 'twin') twinPieces.push(verdict.piece);
      if (verdict.kind === 'twin' && !twins.some((t) => t.dimension === dimension && t.value === value))
        twins.push({ dimension, value: value as string });
      // Of the pieces that replace the segment (one per dimension), the one that splits it best.
      if (
        verdict.kind === 'replaces' &&
        (deeper === undefined || preferTwin(frame, segment, deeper, verdict.piece, BETTER_SPLIT) === verdict.piece)
      )
        deeper = verdict.piece;
      // A split names the segment's own thing more precisely: its piece is taken first (others are drilled under it).
      if (deeper !== undefined && splits.includes(dimension)) break;
    }
    deeper ??= await lookAhead(frame, segment, twinPieces, scanned, dimensions, asker, minVolume);
    if (deeper === undefined) return { segment, twins };
    segment = deeper;
  }
}

/**
 * Look-ahead, where no piece replaced `segment`: the twin piece that explained most of its move
 * without standing out from its other pieces (`playable · ANDROID`, 641 → 470 beside playable's iOS
 * ads, 776 → 760) is drilled once more. A piece of it that replaces it (see drillVerdict) and also
 * stands out from the rest of `segment`, which did not move as a whole, replaces `segment` two
 * levels down (`playable · ANDROID · US`, 204 → 55). Asked only while comparisons may be (see
 * Asker.mayCompare).
 */
async function lookAhead(
  frame: Frame,
  segment: Segment,
  twinPieces: readonly Segment[],
  scanned: Scanned,
  dimensions: readonly string[],
  asker: Asker,
  minVolume: number,
): Promise<Segment | undefined> {
  const direction = Math.sign(frame.change);
  const twin = [...twinPieces].sort((a, b) => direction * (b.contribution - a.contribution))[0];
  if (twin === undefined) return undefined;
  let found: Segment | undefined;
  for (const dimension of drillPlanWithSplits(scanned.concentration, twin, dimensions, asker).planned) {
    const query = { dimensions: [dimension], filter: twin.where };
    if (!asker.allows(query)) continue;
    if (!asker.mayDrill(query) || !asker.mayCompare(query)) break;
    const pieces = (await asker.ask(query)).map((row) => measureSegment(frame, row.where, row));
    const verdict = drillVerdict(frame, twin, pieces, minVolume);
    if (verdict.kind !== 'replaces') continue;
    const piece = verdict.piece;
    const gate = { within: segment.parts, compared: drilledCompared(pieces.length), siblings: [], direction };
    if (!standsOut(frame, piece, gate) || movedAsWhole(frame, segment.parts, piece.parts)) continue;
    if (found === undefined || preferTwin(frame, segment, found, piece, BETTER_SPLIT) === piece) found = piece;
  }
  return found;
}

/** The largest noise-bar count among the dimensions of a segment's first scans (see Scanned.comparedIn). */
function splitCompared(scanned: Scanned, segment: Segment): number {
  return Math.max(1, ...Object.keys(segment.where).map((d) => scanned.comparedIn.get(d) ?? 1));
}
