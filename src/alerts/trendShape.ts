/**
 * How a threshold or change incident's chart draws its recent values so that it agrees with the
 * rule: what is drawn against the threshold line is the quantity the rule judged. Pure.
 *
 * - A rule judging one day (`yesterday`, `today`) judges a day's value: the chart draws values by
 *   day against the threshold.
 * - A rule judging several days of an additive metric (spend, installs) judges their total: the
 *   chart draws the running total over the rule's range, so its last point is the judged total and
 *   the threshold line means the same thing as in the message.
 * - A rule on a report with a time dimension judges its latest bucket: a day's value for `DAILY`
 *   (drawn by day against the threshold); an hour or a week is no day's value (no line).
 * - A rule judging several days of a ratio (CPI, CTR) judges the ratio of the range's sums, which
 *   no day's value is and no sum of days' values gives: the chart draws values by day with no
 *   threshold line.
 */

const DAY_MS = 86_400_000;

export type TrendShape = 'per_day' | 'running_total' | 'per_day_without_line';

/** One day's length plus a DST hour: a `yesterday` of 25 hours is still one day. */
const ONE_DAY_AT_MOST = DAY_MS + 3_600_000;

/**
 * The shape of the chart of a rule whose range is `range` and whose metric is `additive` or not.
 *
 * @example trendShape({ fromMs, toMs: fromMs + 14 * DAY_MS }, true) // 'running_total'
 */
export function trendShape(
  range: { fromMs: number; toMs: number },
  additive: boolean,
  /** The report's time dimension's granularity, when it has one: the rule then judges its latest bucket. */
  bucket?: string,
): TrendShape {
  if (bucket !== undefined) return bucket === 'DAILY' ? 'per_day' : 'per_day_without_line';
  if (range.toMs - range.fromMs <= ONE_DAY_AT_MOST) return 'per_day';
  return additive ? 'running_total' : 'per_day_without_line';
}

/** The days of history a chart of this shape needs: the whole range for a running total. */
export function trendDaysFor(range: { fromMs: number; toMs: number }, shape: TrendShape, days: number): number {
  return shape === 'running_total' ? Math.max(days, Math.ceil((range.toMs - range.fromMs) / DAY_MS)) : days;
}

/**
 * An entity's values by day reshaped for its chart: a running total from the range's first local
 * day (`rangeFrom`, ISO with the report's offset), or the values as they are.
 *
 * @example shapeTrend([{ at: '2026-11-09', value: 5 }, { at: '2026-11-10', value: 3 }], 'running_total', '2026-11-10T00:00:00Z')
 *          // [{ at: '2026-11-10', value: 3 }]
 */
export function shapeTrend(
  points: ReadonlyArray<{ at: string; value: number }>,
  shape: TrendShape,
  rangeFrom: string,
): Array<{ at: string; value: number }> {
  if (shape !== 'running_total') return [...points];
  const firstDay = rangeFrom.slice(0, 10);
  let total = 0;
  return points
    .filter((p) => p.at.slice(0, 10) >= firstDay)
    .map((p) => {
      total += p.value;
      return { at: p.at, value: total };
    });
}
