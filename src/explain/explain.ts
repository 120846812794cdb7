import { didYouMean, ErrorCode, invariant, suggest, UserInputError } from '../core/index.js';
import {
  evenMoveShare,
  type Frame,
  frameOf,
  measureSegment,
  relativeMove,
  restOf,
  type Segment,
} from './segmentMath.js';
import { beyondCountingNoise, countDispersion, standsOut } from './standsOut.js';
import type { Driver, ExplainRequest, Explanation, GroupQuery, GroupRow, GroupSource } from './types.js';
import { describeWhere, orderWhere, overlaps, whereKey } from './where.js';

export const DEFAULT_BUDGET = 24;
/** Drivers listed at most; they are disjoint segments. */
export const MAX_DRIVERS = 5;
/** How many of the strongest segments are drilled into with filtered group-bys. */
export const DRILLED_SEGMENTS = 3;
/** A segment is at most this many dimensions deep (`country · source · platform`). */
export const MAX_DEPTH = 3;
/** Dimensions tried per drill level, the most concentrated first. */
export const DRILL_DIMENSIONS = 3;
/** A dimension is drilled into only when its best segment explains at least this share. */
export const CONCENTRATED = 0.2;
/** A combination replaces its parent when it explains at least this share of the parent's contribution… */
export const SUCCINCT = 0.8;
/** …or this share, for counts and amounts, when the parent's other pieces together moved within noise… */
export const SUCCINCT_QUIET_REST = 0.5;
/** The rest is quiet only when it moved (relatively, beyond the whole) at most this much of the child's move. */
export const QUIET_REST_MOVE = 0.25;
/** …and that share exceeds its share of the parent's volume by this much (else the parent moved evenly). */
export const SUCCINCT_MARGIN = 0.1;
/** Not diffuse when one standing-out driver explains this share… */
export const ONE_DRIVER_SHARE = 0.35;
/** …or the top three standing-out drivers together explain this share. */
export const TOP_THREE_SHARE = 0.6;
/** Per dimension, how many of the strongest segments are tested for standing out. */
export const TESTED_PER_DIMENSION = 10;

interface Candidate {
  readonly segment: Segment;
  /** Whether it stands out among the other values of its dimension's scan (see standsOut). */
  readonly standsOut: boolean;
}

interface Chosen {
  readonly segment: Segment;
  /** Whether it stood out among its dimension's values, or its drilled combination among its parent's. */
  readonly standsOut: boolean;
}

/**
 * Explains why a metric moved between two periods: scans each candidate dimension (one group-by
 * each), drills into the strongest few segments with filtered group-bys, and returns disjoint
 * drivers ranked by their share of the change, or says the change is diffuse. Never asks more than
 * `budget` queries nor one that `source.allows` refuses. Pure apart from the source's calls, and
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
  const direction = (frame: Frame) => Math.sign(frame.change);
  // Counts and amounts both have noise that grows with their size (see standsOut.ts).
  const sizeNoise = request.counts === true || request.amounts === true;

  let used = 0;
  const ask = async (query: GroupQuery): Promise<readonly GroupRow[]> => {
    invariant(used < limit, 'explain asked past its query budget');
    invariant(source.allows(query), 'explain asked a query its source refuses');
    used++;
    const rows = await source.groups(query);
    return [...rows]
      .map((row) => ({ ...row, where: { ...query.filter, ...row.where } }))
      .sort((a, b) => compareKeys(whereKey(a.where), whereKey(b.where)));
  };

  const notes: string[] = [];
  const scans = new Map<string, readonly GroupRow[]>();
  let partial = false;
  let frame: Frame | undefined;
  for (const dimension of dimensions) {
    const query = { dimensions: [dimension], filter: {} };
    if (!source.allows(query)) {
      notes.push(`${dimension} cannot be grouped on its own: not explored`);
      continue;
    }
    if (used >= limit) {
      partial = true;
      break;
    }
    const rows = await ask(query);
    frame ??= frameOf(request.kind, scale, rows, sizeNoise);
    scans.set(dimension, rows);
  }
  if (partial)
    notes.push(`partial: explored ${scans.size} of ${dimensions.length} dimensions (budget ${limit} queries)`);
  if (frame === undefined) {
    const whole = { dimensions: [], filter: {} };
    if (used < limit && source.allows(whole)) frame = frameOf(request.kind, scale, await ask(whole), sizeNoise);
    else notes.push('nothing could be asked of the source');
  }

  const answer = (drivers: readonly Driver[], diffuse: boolean): Explanation => ({
    metric: request.metric,
    current: frame?.current ?? 0,
    baseline: frame?.baseline ?? 0,
    change: frame?.change ?? 0,
    diffuse,
    queries: used,
    partial,
    explored: { dimensions: scans.size, of: dimensions.length },
    drivers,
    notes,
  });
  if (frame === undefined) return answer([], false);
  const limitNote = honestLimit(frame, minVolume);
  if (limitNote !== undefined) {
    notes.push(limitNote);
    return answer([], false);
  }
  const measured = new Map(
    [...scans].map(([d, rows]) => [d, rows.map((row) => measureSegment(frame, row.where, row))]),
  );
  // Counts vary more than Poisson's noise says: how much more is measured on the scans themselves.
  const whole: Frame = frame.counts
    ? { ...frame, dispersion: countDispersion(frame.kind, [...measured.values()]) }
    : frame;
  const sign = direction(whole);
  const directed = (s: Segment) => sign * s.contribution;

  // First scans measured: candidates from every dimension with more than one value.
  const candidates: Candidate[] = [];
  const concentration = new Map<string, number>();
  for (const [dimension, segments] of measured) {
    if (segments.length < 2) continue;
    concentration.set(
      dimension,
      segments.reduce((best, s) => Math.max(best, directed(s) / Math.abs(whole.change)), Number.NEGATIVE_INFINITY),
    );
    const strongest = segments
      .filter((s) => sign * s.power > 0 && s.volume >= minVolume)
      .sort((a, b) => sign * (b.power - a.power) || compareKeys(whereKey(a.where), whereKey(b.where)));
    // Only the strongest few of a dimension are tested for standing out; each test costs a sort.
    strongest.forEach((segment, i) => {
      candidates.push({ segment, standsOut: i < TESTED_PER_DIMENSION && standsOut(whole, segment, segments) });
    });
  }
  // Segments that stand out are drilled and kept first; the others can only be the largest pieces.
  candidates.sort(
    (a, b) =>
      Number(b.standsOut) - Number(a.standsOut) ||
      sign * (b.segment.power - a.segment.power) ||
      compareKeys(whereKey(a.segment.where), whereKey(b.segment.where)),
  );

  /** Replaces a segment by a combination that explains most of it, one dimension deeper at a time. */
  const refine = async (start: Segment): Promise<Segment> => {
    let segment = start;
    deeper: while (Object.keys(segment.where).length < MAX_DEPTH) {
      const drillInto = [...concentration]
        .filter(([d, c]) => c >= CONCENTRATED && !(d in segment.where))
        .sort(([a, x], [b, y]) => y - x || dimensions.indexOf(a) - dimensions.indexOf(b))
        .slice(0, DRILL_DIMENSIONS);
      for (const [dimension] of drillInto) {
        const query = { dimensions: [dimension], filter: segment.where };
        if (!source.allows(query)) continue;
        if (used >= limit) break deeper;
        const children = (await ask(query)).map((row) => measureSegment(whole, row.where, row));
        const better = succinctChild(whole, segment, children);
        if (better !== undefined && better.volume < minVolume) break;
        if (better !== undefined) {
          segment = better;
          continue deeper;
        }
      }
      break;
    }
    return segment;
  };

  const chosen: Chosen[] = [];
  for (const candidate of candidates) {
    if (chosen.length >= MAX_DRIVERS) break;
    if (chosen.some((c) => overlaps(c.segment.where, candidate.segment.where))) continue;
    const segment = chosen.length < DRILLED_SEGMENTS ? await refine(candidate.segment) : candidate.segment;
    // A combination that replaced its parent stood out among the parent's pieces (succinctChild).
    chosen.push({ segment, standsOut: candidate.standsOut || segment !== candidate.segment });
  }
  const ranked = chosen
    .filter((c) => directed(c.segment) > 0)
    .sort(
      (a, b) =>
        directed(b.segment) - directed(a.segment) || compareKeys(whereKey(a.segment.where), whereKey(b.segment.where)),
    );

  const shareOf = (s: Segment) => s.contribution / whole.change;
  const clear = ranked.filter((c) => c.standsOut).map((c) => shareOf(c.segment));
  const diffuse = !(
    clear.some((s) => s >= ONE_DRIVER_SHARE) || clear.slice(0, 3).reduce((a, b) => a + b, 0) >= TOP_THREE_SHARE
  );
  if (diffuse)
    notes.push('diffuse: no small set of segments explains the change; the drivers are only its largest pieces');
  const drivers = ranked.map(({ segment }) => toDriver(segment, shareOf(segment), dimensions, notes));
  return answer(drivers, diffuse);
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
  if (frame.change === 0) return 'no change: nothing to explain';
  return undefined;
}

/**
 * The child that explains most of `parent`'s contribution, if it explains at least SUCCINCT of it
 * (or, for counts and amounts, SUCCINCT_QUIET_REST of it while the rest of the parent moved within
 * its noise, as the whole did) and that share is SUCCINCT_MARGIN above the share it would have had had the whole parent moved
 * evenly (evenMoveShare; its share of the parent's volume when that is undefined), and it stands
 * out among the parent's other pieces (see standsOut); otherwise undefined.
 */
function succinctChild(frame: Frame, parent: Segment, children: readonly Segment[]): Segment | undefined {
  const sign = Math.sign(frame.change);
  const parentContribution = sign * parent.contribution;
  if (parentContribution <= 0 || children.length < 2) return undefined;
  const volume = children.reduce((sum, c) => sum + c.volume, 0);
  let best: Segment | undefined;
  for (const child of children) {
    if (best === undefined || sign * (child.contribution - best.contribution) > 0) best = child;
  }
  if (best === undefined || volume <= 0) return undefined;
  const share = (sign * best.contribution) / parentContribution;
  const even = evenMoveShare(frame, parent, best) ?? best.volume / volume;
  // With a noise model, "most of it" is also: half of it, the parent's other pieces within noise.
  const mostOf = share >= SUCCINCT || (share >= SUCCINCT_QUIET_REST && quietRest(frame, parent, best));
  const succinct = mostOf && share - even >= SUCCINCT_MARGIN;
  return succinct && standsOut(frame, best, children) ? best : undefined;
}

/**
 * Whether the parent's pieces other than `child` moved as the whole did (counts and amounts only):
 * within their noise, and by at most QUIET_REST_MOVE of the child's own move beyond the whole's
 * (relativeMove), so that a small rest that moved as much is not called quiet for want of volume.
 */
function quietRest(frame: Frame, parent: Segment, child: Segment): boolean {
  if (frame.counts !== true) return false;
  const rest = restOf(frame, parent, child);
  return !beyondCountingNoise(frame, rest) && relativeMove(frame, rest) <= QUIET_REST_MOVE * relativeMove(frame, child);
}

function toDriver(segment: Segment, share: number, dimensions: readonly string[], notes: string[]): Driver {
  const where = orderWhere(segment.where, dimensions);
  if (segment.undefinedRatio !== undefined) {
    const periods = { current: 'current period', baseline: 'baseline', both: 'both periods' }[segment.undefinedRatio];
    notes.push(`${describeWhere(where)} has a zero denominator in the ${periods}: its ratio there is shown as 0`);
  }
  return {
    where,
    current: segment.current,
    baseline: segment.baseline,
    contribution: segment.contribution,
    share,
    ...(segment.mix === undefined ? {} : { mix: segment.mix }),
    ...(segment.rate === undefined ? {} : { rate: segment.rate }),
  };
}

function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
