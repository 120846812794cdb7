import { didYouMean, ErrorCode, suggest, UserInputError } from '../core/index.js';
import { Asker } from './asker.js';
import { type PartKind, partNoise } from './noise.js';
import { refine } from './refine.js';
import {
  canKeep,
  DRILLED_SEGMENTS,
  decideDiffuse,
  explainedEnough,
  findOffset,
  generalize,
  overtakes,
  rank,
  scan,
} from './search.js';
import { type Frame, frameOf, measureSegment, type Segment } from './segmentMath.js';
import { preferTwins } from './twins.js';
import type { Driver, ExplainRequest, Explanation, GroupRow, GroupSource } from './types.js';
import { describeWhere, orderWhere, overlaps } from './where.js';

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
  // Drivers found by drilling from a first-scan segment that did not stand out (see overtakes).
  const unsure = new Set<Segment>();
  let drilled = 0;
  for (const candidate of scanned.candidates) {
    if (!canKeep(chosen, candidate.segment)) {
      if (!candidate.standsOut || !overtakes(frame, candidate.segment, chosen, unsure)) continue;
      chosen.splice(0, chosen.length, ...chosen.filter((c) => !overlaps(c.where, candidate.segment.where)));
    }
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
    if (!canKeep(chosen, segment)) continue;
    chosen.push(segment);
    if (!candidate.standsOut) unsure.add(segment);
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
