import { didYouMean, ErrorCode, suggest, UserInputError } from '../core/index.js';
import { Asker } from './asker.js';
import { type PartKind, partNoise } from './noise.js';
import {
  BETTER_SPLIT,
  canKeep,
  DRILL_DIMENSIONS,
  DRILLED_SEGMENTS,
  decideDiffuse,
  drilledCompared,
  drillPlan,
  drillVerdict,
  explainedEnough,
  FALLBACK_DIMENSIONS,
  findOffset,
  generalize,
  MAX_DEPTH,
  preferTwin,
  rank,
  type Scanned,
  scan,
} from './search.js';
import { type Frame, frameOf, measureSegment, type Segment } from './segmentMath.js';
import { movedAsWhole, standsOut } from './standsOut.js';
import { preferTwins, type Twin } from './twins.js';
import type { Driver, ExplainRequest, Explanation, GroupRow, GroupSource, Where } from './types.js';
import { describeWhere, orderWhere } from './where.js';

export const DEFAULT_BUDGET = 24;

/**
 * Explains why a metric moved between two periods: scans each candidate dimension (one group-by
 * each), ranks segments by what they explain with standing out as a gate, drills into the
 * strongest few with filtered group-bys, and returns disjoint drivers ranked by their share of the
 * change; or says the change is diffuse, or that moves cancel out. Never asks more than `budget`
 * queries nor one that `source.allows` refuses. Pure apart from the source's calls, and
 * deterministic: the same groups give the same explanation, byte for byte.
 *
 * @example const why = await explain({ metric: 'installs', kind: 'additive' }, leafCsvSource(table));
 */
export async function explain(request: ExplainRequest, source: GroupSource): Promise<Explanation> {
  const scale = request.scale ?? 1;
  const limit = request.budget ?? DEFAULT_BUDGET;
  const minVolume = request.minVolume ?? 0;
  checkRequest(scale, limit, minVolume);
  const dimensions = candidateDimensions(request, source);
  const asker = new Asker(source, limit);
  const { scans, notes, partial, frame: plain } = await scanAll(request.kind, scale, dimensions, asker);
  const answer = (drivers: readonly Driver[], diffuse: boolean, offset = false): Explanation => ({
    metric: request.metric,
    current: plain?.current ?? 0,
    baseline: plain?.baseline ?? 0,
    change: plain?.change ?? 0,
    diffuse,
    queries: asker.used,
    partial,
    explored: { dimensions: scans.size, of: dimensions.length },
    drivers,
    ...(offset ? { offset } : {}),
    notes,
  });
  if (plain === undefined) return answer([], false);
  const limitNote = honestLimit(plain, minVolume);
  if (limitNote !== undefined) {
    notes.push(limitNote);
    return answer([], false);
  }
  const measured = new Map(
    [...scans].map(([d, rows]) => [d, rows.map((row) => measureSegment(plain, row.where, row))] as const),
  );
  const frame = withNoise(plain, request, measured);
  const offset = findOffset(frame, measured, minVolume);
  if (offset !== undefined) {
    const shareOf = (s: Segment) => (frame.change === 0 ? 0 : s.contribution / frame.change);
    const pair = frame.change < 0 ? [offset.down, offset.up] : [offset.up, offset.down];
    const drivers = pair.map((s) => toDriver(frame, s, shareOf(s), true, dimensions, notes));
    notes.push(
      `no net change: ${describeWhere(drivers[0]?.where ?? {})} and ${describeWhere(drivers[1]?.where ?? {})} moved in opposite directions and cancel out`,
    );
    return answer(drivers, false, true);
  }
  if (frame.change === 0) {
    notes.push('no change: nothing to explain');
    return answer([], false);
  }
  const direction = Math.sign(frame.change);
  const scanned = scan(frame, measured, direction, minVolume);
  const chosen: Segment[] = [];
  let drilled = 0;
  for (const candidate of scanned.candidates) {
    if (!canKeep(chosen, candidate.segment)) continue;
    // The strongest few are drilled into, standing out or not: a cause can be a small piece of each.
    // Past the strongest few, or once the drivers kept explain most of the change, no more drilling.
    if (drilled >= DRILLED_SEGMENTS || explainedEnough(frame, chosen)) {
      if (candidate.standsOut) chosen.push(candidate.segment);
      continue;
    }
    drilled++;
    const refined = await refine(frame, candidate.segment, scanned, dimensions, asker, minVolume);
    const found = refined.segment;
    if (found === candidate.segment && !candidate.standsOut) continue;
    const twinned = await preferTwins(frame, found, refined.twins, { scanned, dimensions }, asker, minVolume);
    const segment =
      twinned === candidate.segment ? twinned : generalize(frame, twinned, candidate.segment, scanned.candidates);
    if (canKeep(chosen, segment)) chosen.push(segment);
  }
  // Nothing stands out: the largest pieces, disjoint, named as such.
  const pieces = chosen.length > 0 ? chosen : largestPieces(scanned.candidates.map((c) => c.segment));
  const drivers = rank(frame, pieces).map((segment) => ({ segment, standsOut: chosen.length > 0 }));
  const diffuse = decideDiffuse(frame, drivers);
  if (diffuse)
    notes.push(
      chosen.length > 0
        ? 'diffuse: the segments that stand out explain too little of the change together'
        : 'diffuse: no segment stands out; the drivers are only the largest pieces',
    );
  return answer(
    drivers.map((d) =>
      toDriver(frame, d.segment, d.segment.contribution / frame.change, d.standsOut, dimensions, notes),
    ),
    diffuse,
  );
}

/**
 * The drill plan, led by the candidate dimensions that tell apart what the segment's names stand
 * for (an app's name on two platforms: a plant on the iOS app is found as `app · appPlatform`, and
 * a move of both stays the app's, its strong parent).
 */
function drillPlanWithSplits(
  concentration: ReadonlyMap<string, number>,
  segment: Segment,
  dimensions: readonly string[],
  asker: Asker,
  count = DRILL_DIMENSIONS,
): string[] {
  const depth = depthOf(segment.where, asker);
  // A split names the segment's own values more precisely: asked whether a candidate or not, and
  // at the deepest level too when it adds no depth.
  const splits = asker
    .splits(segment.where)
    .filter((d) => !Object.hasOwn(segment.where, d))
    .filter((d) => depth < MAX_DEPTH || depthOf({ ...segment.where, [d]: '' }, asker) <= depth);
  return [...new Set([...splits, ...drillPlan(concentration, segment, dimensions, depth, count)])];
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

/** The first scans: one group-by per candidate dimension, unfiltered, while the budget lasts. */
async function scanAll(kind: ExplainRequest['kind'], scale: number, dimensions: readonly string[], asker: Asker) {
  const notes: string[] = [];
  const scans = new Map<string, readonly GroupRow[]>();
  let partial = false;
  let frame: Frame | undefined;
  for (const dimension of dimensions) {
    const query = { dimensions: [dimension], filter: {} };
    if (!asker.allows(query)) {
      notes.push(`${dimension} cannot be grouped on its own: not explored`);
      continue;
    }
    if (!asker.left) {
      partial = true;
      break;
    }
    const rows = await asker.ask(query);
    frame ??= frameOf(kind, scale, rows);
    scans.set(dimension, rows);
  }
  if (partial)
    notes.push(`partial: explored ${scans.size} of ${dimensions.length} dimensions (budget ${asker.limit} queries)`);
  if (frame === undefined) {
    const whole = { dimensions: [], filter: {} };
    if (asker.left && asker.allows(whole)) frame = frameOf(kind, scale, await asker.ask(whole));
    else notes.push('nothing could be asked of the source');
  }
  return { scans, notes, partial, frame };
}

/**
 * Replaces a segment by a piece that explains most of it, one dimension deeper at a time (drill).
 * Also returns the twins seen on the way: pieces that explained most of their parent's move
 * without standing out from its other pieces.
 */
async function refine(
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
    const plan = drillPlanWithSplits(
      scanned.concentration,
      segment,
      dimensions,
      asker,
      segment === start ? DRILL_DIMENSIONS + FALLBACK_DIMENSIONS : DRILL_DIMENSIONS,
    );
    const wider = drillPlanWithSplits(
      scanned.concentration,
      segment,
      dimensions,
      asker,
      DRILL_DIMENSIONS + FALLBACK_DIMENSIONS,
    );
    const fallback = wider.filter((d) => !plan.includes(d));
    for (const dimension of [...plan, ...fallback]) {
      // Past the plan only where it found nothing (the cause may be in a less concentrated dimension).
      if (!plan.includes(dimension) && (deeper !== undefined || twinPieces.length > 0)) break;
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
  for (const dimension of drillPlanWithSplits(scanned.concentration, twin, dimensions, asker)) {
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

/** The largest disjoint pieces, when none stands out. */
function largestPieces(ranked: readonly Segment[]): Segment[] {
  const kept: Segment[] = [];
  for (const segment of ranked) if (canKeep(kept, segment)) kept.push(segment);
  return kept;
}

/**
 * The frame with its parts' noise measured on the scans, when the request says what the parts are
 * (see ExplainRequest.noise): the additive metric, or a ratio's numerator and denominator apart.
 */
function withNoise(frame: Frame, request: ExplainRequest, measured: ReadonlyMap<string, readonly Segment[]>): Frame {
  const flagged: PartKind | undefined = request.counts ? 'count' : request.amounts ? 'amount' : undefined;
  const num = request.noise?.num ?? (frame.kind === 'additive' ? flagged : undefined);
  const den = frame.kind === 'ratio' ? (request.noise?.den ?? flagged) : undefined;
  // A ratio's numerator of unknown kind beside a modelled denominator: measured as an amount.
  const numKind = num ?? (den !== undefined ? 'amount' : undefined);
  if (numKind === undefined && den === undefined) return frame;
  const pairs = (part: 'n' | 'd') => {
    const out = new Map<string, (readonly [number, number])[]>();
    for (const [d, segments] of measured)
      out.set(
        d,
        segments.map((s): readonly [number, number] =>
          part === 'n' ? [s.parts.n0, s.parts.n1] : [s.parts.d0, s.parts.d1],
        ),
      );
    return out;
  };
  return {
    ...frame,
    noise: {
      ...(numKind !== undefined ? { num: partNoise(numKind, pairs('n')) } : {}),
      ...(den !== undefined ? { den: partNoise(den, pairs('d')) } : {}),
    },
  };
}

function checkRequest(scale: number, limit: number, minVolume: number): void {
  if (!Number.isInteger(limit) || limit < 1)
    throw new UserInputError(
      ErrorCode.ExplainBudgetInvalid,
      `explain: the query budget must be a whole number of at least 1, not ${limit}.`,
    );
  if (!Number.isFinite(scale) || scale <= 0)
    throw new UserInputError(
      ErrorCode.ExplainScaleInvalid,
      `explain: the ratio scale must be a positive number, not ${scale}.`,
    );
  if (!Number.isFinite(minVolume) || minVolume < 0)
    throw new UserInputError(
      ErrorCode.ExplainMinVolumeInvalid,
      `explain: the minimum volume must be 0 or more, not ${minVolume}.`,
    );
}

function candidateDimensions(request: ExplainRequest, source: GroupSource): readonly string[] {
  const wanted = request.dimensions ?? source.dimensions;
  for (const dimension of wanted) {
    if (!source.dimensions.includes(dimension)) {
      throw new UserInputError(
        ErrorCode.ExplainDimensionUnknown,
        `explain: unknown dimension "${dimension}".${didYouMean(suggest(dimension, source.dimensions))} Known: ${source.dimensions.join(', ')}.`,
      );
    }
  }
  return [...new Set(wanted)];
}

/** A reason not to name any driver, in words, or undefined. */
function honestLimit(frame: Frame, minVolume: number): string | undefined {
  if (frame.kind === 'ratio' && (frame.d0 === 0 || frame.d1 === 0)) {
    const periods =
      frame.d0 === 0 && frame.d1 === 0 ? 'both periods' : frame.d0 === 0 ? 'the baseline' : 'the current period';
    return `the ratio is undefined in ${periods} (its denominator is 0): nothing to explain`;
  }
  if (frame.volume < minVolume) return `too little volume (${frame.volume}, below ${minVolume}) to name a driver`;
  return undefined;
}

function toDriver(
  frame: Frame,
  segment: Segment,
  share: number,
  standsOut: boolean,
  dimensions: readonly string[],
  notes: string[],
): Driver {
  const where = orderWhere(segment.where, dimensions);
  if (segment.undefinedRatio !== undefined) {
    const periods = { current: 'the current period', baseline: 'the baseline', both: 'both periods' }[
      segment.undefinedRatio
    ];
    notes.push(`${describeWhere(where)} has a zero denominator in ${periods}: its ratio there is shown as 0`);
  }
  return {
    where,
    current: segment.current,
    baseline: segment.baseline,
    contribution: segment.contribution,
    share,
    ...(segment.mix === undefined ? {} : { mix: segment.mix }),
    ...(segment.rate === undefined ? {} : { rate: segment.rate }),
    standsOut,
    ...(frame.kind === 'ratio' ? ratioContext(frame, segment) : {}),
  };
}

/** A ratio driver's share of the denominator and the ratio of everything else, both periods. */
function ratioContext(frame: Frame, segment: Segment): Pick<Driver, 'volumeShare' | 'elsewhere' | 'numerator'> {
  const p = segment.parts;
  const ratio = (n: number, d: number) => (d === 0 ? 0 : (frame.scale * n) / d);
  return {
    volumeShare: { baseline: p.d0 / frame.d0, current: p.d1 / frame.d1 },
    numerator: { baseline: p.n0, current: p.n1 },
    elsewhere: { baseline: ratio(frame.n0 - p.n0, frame.d0 - p.d0), current: ratio(frame.n1 - p.n1, frame.d1 - p.d1) },
  };
}
