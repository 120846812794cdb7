/**
 * The threshold "Watch this" suggests from a metric's recent daily values: above the highest, or
 * below the lowest, of the days before the answer's day. A value past either has not been seen in
 * those days, which is what a person means by "tell me when it gets unusual" before they know the
 * metric's spread; the same-weekday anomaly rule is the alternative that learns the spread.
 */

/** Days of values a suggestion looks at (before the answer's day). */
export const SUGGESTION_DAYS = 14;
/** Fewer days with a value than this: no suggestion (two weeks with gaps say little). */
export const MIN_SUGGESTION_DAYS = 7;

export interface ThresholdSuggestion {
  /** The highest daily value: breach above it. */
  above: number;
  /** The lowest daily value: breach below it. */
  below: number;
  /** How many days had a value. */
  days: number;
}

/**
 * The suggestion from daily values (nulls and non-finite values skipped), or undefined with fewer
 * than `MIN_SUGGESTION_DAYS` values or when every value is the same (no threshold separates them).
 *
 * @example suggestThreshold([4.1, 3.9, 4.4, 4.0, 3.8, 4.2, 4.3]) // { above: 4.4, below: 3.8, days: 7 }
 */
export function suggestThreshold(values: ReadonlyArray<number | null | undefined>): ThresholdSuggestion | undefined {
  const present = values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
  if (present.length < MIN_SUGGESTION_DAYS) return undefined;
  const above = Math.max(...present);
  const below = Math.min(...present);
  if (above === below) return undefined;
  return { above: roundAway(above, 'up'), below: roundAway(below, 'down'), days: present.length };
}

/**
 * A threshold as a person would type it: four significant digits, rounded away from the values
 * (the highest up, the lowest down), so no day that set it breaches it (the rule is strict).
 *
 * @example roundAway(4.12345, 'up') // 4.124
 */
export function roundAway(value: number, direction: 'up' | 'down'): number {
  if (value === 0) return 0;
  const step = 10 ** (Math.floor(Math.log10(Math.abs(value))) - 3);
  const steps = direction === 'up' ? Math.ceil(value / step - 1e-9) : Math.floor(value / step + 1e-9);
  return Number((steps * step).toPrecision(12));
}
