/**
 * The robust anomaly score: how far a value lies from the median of its baseline (the same
 * weekday, or hour, of earlier weeks), in units of the median absolute deviation scaled to a
 * standard deviation (1.4826 × MAD, exact for normal data). Median and MAD ignore one wild week,
 * which a mean and standard deviation would not.
 */

/** MAD × 1.4826 estimates the standard deviation of normally distributed data. */
export const MAD_TO_SIGMA = 1.4826;
/**
 * The spread is never taken below this fraction of the median: a baseline that was identical
 * every week (MAD = 0) would otherwise call any change, however small, unusual.
 */
export const MIN_RELATIVE_SPREAD = 0.05;
/** Fewer baseline values than this give no score: the median of two weeks says little. */
export const MIN_BASELINE = 3;

export interface AnomalyScore {
  median: number;
  /** The robust standard deviation used (after the floor). */
  spread: number;
  /** (value − median) / spread: positive above the median. */
  score: number;
  /** median ± sensitivity × spread. */
  low: number;
  high: number;
}

/** The median of a non-empty list. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/**
 * Scores `value` against `baseline`; undefined when the baseline has fewer than `MIN_BASELINE`
 * values. When median and MAD are both 0 (a series that was always 0), any other value scores
 * as infinitely far.
 *
 * @example anomalyScore(2.9, [2.0, 2.1, 1.9, 2.0], 3) // { median: 2, spread: 0.1, score: 9, low: 1.7, high: 2.3 }
 */
export function anomalyScore(
  value: number,
  baseline: readonly number[],
  sensitivity: number,
): AnomalyScore | undefined {
  if (baseline.length < MIN_BASELINE) return undefined;
  const m = median(baseline);
  const mad = median(baseline.map((v) => Math.abs(v - m)));
  const spread = Math.max(MAD_TO_SIGMA * mad, MIN_RELATIVE_SPREAD * Math.abs(m));
  const diff = value - m;
  const score = spread > 0 ? diff / spread : diff === 0 ? 0 : Math.sign(diff) * Number.POSITIVE_INFINITY;
  return { median: m, spread, score, low: m - sensitivity * spread, high: m + sensitivity * spread };
}
