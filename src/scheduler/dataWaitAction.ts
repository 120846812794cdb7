import type { WaitForData } from './ScheduleSpec.js';

/** Late data is checked this often while a digest waits for it. */
export const DATA_CHECK_EVERY_MS = 15 * 60_000;

export type DataWaitDecision =
  | { action: 'post'; complete: true }
  | { action: 'wait'; waitMs: number; share: number }
  | { action: 'post'; complete: false; share: number };

/**
 * Whether a digest posts now or waits for late data: `value` is the range's metric, `baseline`
 * the same weekday a week earlier. At or above `minShare` of it, post; below, check again in 15
 * minutes until `waitMs` is spent, then post marked "data may be incomplete". Without a usable
 * baseline (none, zero) there is nothing to compare with: post.
 *
 * @example dataWaitAction({ value: 40, baseline: 100, waitedMs: 0 }, { metric: 'impressions', minShare: 0.5, waitMs: 7_200_000 })
 * // { action: 'wait', waitMs: 900_000, share: 0.4 }
 */
export function dataWaitAction(
  observed: { value: number; baseline: number | undefined; waitedMs: number },
  rule: WaitForData,
): DataWaitDecision {
  const { value, baseline, waitedMs } = observed;
  if (baseline === undefined || !(baseline > 0) || !Number.isFinite(value)) return { action: 'post', complete: true };
  const share = value / baseline;
  if (share >= rule.minShare) return { action: 'post', complete: true };
  const left = rule.waitMs - waitedMs;
  if (left <= 0) return { action: 'post', complete: false, share };
  return { action: 'wait', waitMs: Math.min(DATA_CHECK_EVERY_MS, left), share };
}
