/**
 * Twins: two dimensions that nearly coincide (playable ads are nearly all 320x480), and which of
 * them a found segment should name (see preferTwins).
 */
import type { Asker } from './asker.js';
import { drillVerdict, preferTwin, type Scanned } from './search.js';
import { type Frame, measureSegment, type Segment } from './segmentMath.js';
import type { GroupRow, Where } from './types.js';
import { orderWhere, whereKey } from './where.js';

/** A value that may be a twin of one of the found segment's (see drillVerdict). */
export interface Twin {
  readonly dimension: string;
  readonly value: string;
}

/**
 * Twins: where the drill stopped, a piece that explained most of the found segment's move without
 * standing out from its few other pieces (`AppLovin · 320x480`'s playable ads) may hold a twin of
 * one of the found segment's values (playable ads are nearly all 320x480). For each value, the
 * segment with the twin in its place (`AppLovin · playable`) is tested at their common parent (the
 * segment without that value: a filtered group-by by the twin's dimension, or the first scans for
 * a single value): when it replaces that parent as a drilled piece would (or stands out, at the
 * first scans) and splits it better (see preferTwin), it is the answer.
 */
export async function preferTwins(
  frame: Frame,
  found: Segment,
  twins: readonly Twin[],
  context: { scanned: Scanned; dimensions: readonly string[] },
  asker: Asker,
  minVolume: number,
): Promise<Segment> {
  const own = Object.keys(orderWhere(found.where, context.dimensions));
  for (const { dimension: other, value } of twins) {
    if (Object.hasOwn(found.where, other)) continue;
    for (const dimension of own) {
      const filter = Object.fromEntries(Object.entries(found.where).filter(([d]) => d !== dimension));
      let parent: Segment;
      let alternative: Segment | undefined;
      if (own.length === 1) {
        parent = wholeSegment(frame);
        const key = whereKey({ [other]: value });
        alternative = context.scanned.candidates.find((c) => c.standsOut && whereKey(c.segment.where) === key)?.segment;
      } else {
        const query = { dimensions: [other], filter };
        if (!asker.mayDrill(query) || !asker.mayCompare(query)) continue;
        const rows = await asker.ask(query);
        parent = measureSegment(frame, filter, sumRows(filter, rows));
        const pieces = rows.map((row) => measureSegment(frame, row.where, row));
        const verdict = drillVerdict(frame, parent, pieces, minVolume);
        alternative = verdict.kind === 'replaces' && verdict.piece.where[other] === value ? verdict.piece : undefined;
      }
      if (alternative !== undefined && preferTwin(frame, parent, found, alternative) === alternative)
        return alternative;
    }
  }
  return found;
}

/** The whole as a segment (no dimension), for comparing first-scan segments within it. */
function wholeSegment(frame: Frame): Segment {
  const row: GroupRow =
    frame.kind === 'ratio'
      ? { where: {}, baseline: { num: frame.n0, den: frame.d0 }, current: { num: frame.n1, den: frame.d1 } }
      : { where: {}, baseline: { num: frame.n0 }, current: { num: frame.n1 } };
  return measureSegment(frame, {}, row);
}

/** The rows of a group-by summed into one group (the filter's segment). */
function sumRows(where: Where, rows: readonly GroupRow[]): GroupRow {
  let n0 = 0;
  let n1 = 0;
  let d0 = 0;
  let d1 = 0;
  let ratio = false;
  for (const row of rows) {
    n0 += row.baseline.num;
    n1 += row.current.num;
    if (row.baseline.den !== undefined || row.current.den !== undefined) ratio = true;
    d0 += row.baseline.den ?? 0;
    d1 += row.current.den ?? 0;
  }
  return ratio
    ? { where, baseline: { num: n0, den: d0 }, current: { num: n1, den: d1 } }
    : { where, baseline: { num: n0 }, current: { num: n1 } };
}
