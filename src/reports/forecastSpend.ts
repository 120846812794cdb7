/**
 * Budget pacing: the month-end forecast of spend from the month so far, by a weekday-weighted run
 * rate. Pure and date-only (`YYYY-MM-DD` local days of the report's zone), so the digest, the
 * bench's backtest and the tests compute the same numbers.
 */

/** One local day's value. */
export interface DayValue {
  date: string;
  value: number;
}

export interface MonthForecast {
  /** `YYYY-MM`. */
  month: string;
  /** The month so far: the complete days before `today` (a day still arriving is not one). */
  spent: number;
  /** The days counted in `spent`. */
  daysElapsed: number;
  /**
   * Yesterday (`YYYY-MM-DD`) when its data looks still to be arriving (`pendingDay`): not counted
   * in `spent` as a short or zero day, but forecast like the days left.
   */
  pending?: string;
  daysInMonth: number;
  /** spent + the run rate times the weights of the days left (today included). */
  forecast: number;
  /** `weekday` when the last 28 days gave every weekday at least two values; else `flat`. */
  method: 'weekday' | 'flat';
  /** The weights by weekday, Sunday first (all 1 when flat). */
  weights: number[];
}

const DAY_MS = 86_400_000;
/** The days before `today` whose weekday shape weighs the run rate. */
export const WEIGHT_DAYS = 28;
/**
 * Yesterday counts as arrived once it holds at least this share of the same weekday a week
 * earlier: the share `schedule.waitForData` waits for by default.
 */
export const ARRIVED_SHARE = 0.5;

const epochDay = (date: string): number => Date.parse(`${date}T00:00:00Z`) / DAY_MS;
const weekdayOf = (day: number): number => new Date(day * DAY_MS).getUTCDay();

/**
 * The month-end forecast of the month holding `today`. With the days' values from at least the
 * month's first day and, for the weights, the 28 days before `today`:
 *
 * - wₖ = mean of weekday k's values over the 28 days before today ÷ mean of all those values
 *   (every weekday needs two values, else every w = 1: a flat run rate);
 * - rate = spent ÷ Σ w over the month's elapsed days (the complete days before today);
 * - forecast = spent + rate × Σ w over the days left, today included.
 *
 * Yesterday, whose data may still be arriving, is not counted while it is missing or below half
 * of the same weekday a week earlier (`pendingDay`): it is then one of the days left. Any other
 * missing day counts as 0. Undefined on the 1st (no complete day yet), and on the 2nd while the
 * 1st is still arriving.
 *
 * @example forecastMonthEnd(days, '2026-11-11') // { spent: 41_200, daysElapsed: 10, forecast: 117_600, method: 'weekday', … }
 */
export function forecastMonthEnd(days: readonly DayValue[], today: string): MonthForecast | undefined {
  const run = runRate(days, today);
  if (run === undefined) return undefined;
  let leftWeight = 0;
  for (let day = run.counted; day <= run.last; day++) leftWeight += run.w(day);
  return {
    month: run.month,
    spent: run.spent,
    daysElapsed: run.counted - run.first,
    daysInMonth: run.last - run.first + 1,
    ...(run.counted < run.now ? { pending: dateOf(run.counted) } : {}),
    forecast: run.spent + run.rate * leftWeight,
    method: run.shaped ? 'weekday' : 'flat',
    weights: run.weights,
  };
}

const dateOf = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);

/**
 * Whether yesterday's data looks still to be arriving: no value, or below `ARRIVED_SHARE` of the
 * same weekday a week earlier (when that day spent anything). Only yesterday is checked, as
 * `schedule.waitForData` checks only a range that ended within the last day: an older short day
 * is a real one (a paused campaign), and counts.
 *
 * @example pendingDay(byDay, epochDay('2026-11-20')) // true when 19 Nov has no row and 12 Nov spent 1,200
 */
function pendingDay(byDay: ReadonlyMap<number, number>, now: number): boolean {
  const weekEarlier = byDay.get(now - 8) ?? 0;
  if (weekEarlier <= 0) return false;
  return (byDay.get(now - 1) ?? 0) < ARRIVED_SHARE * weekEarlier;
}

/** One day of the month as the pacing chart draws it: all three values are at the day's end. */
export interface PacingDay {
  /** `YYYY-MM-DD`, local to the report's zone. */
  date: string;
  /** The spend of the month through this day; null for the days not yet complete. */
  spent: number | null;
  /** The forecast's path: from the last complete day (where it equals `spent`) to the month's end (the forecast); null before. */
  forecast: number | null;
  /** The plan pro rata: plan × this day's number ÷ the days in the month. */
  plan: number;
}

/**
 * Every day of the month holding `today`, for the pacing chart: the month-to-date spend by day,
 * then the forecast's path (the same run rate and weekday weights as `forecastMonthEnd`, so its
 * last point is the forecast), and the plan pro rata. Undefined on the 1st.
 *
 * @example pacingPath(days, '2026-11-11', 42_000)?.at(-1) // { date: '2026-11-30', spent: null, forecast: 41_300, plan: 42_000 }
 */
export function pacingPath(days: readonly DayValue[], today: string, plan: number): PacingDay[] | undefined {
  const run = runRate(days, today);
  if (run === undefined) return undefined;
  const daysInMonth = run.last - run.first + 1;
  const out: PacingDay[] = [];
  let spent = 0;
  let ahead = run.spent;
  for (let day = run.first; day <= run.last; day++) {
    const n = day - run.first + 1;
    const date = dateOf(day);
    const complete = day < run.counted;
    if (complete) spent += run.byDay.get(day) ?? 0;
    else ahead += run.rate * run.w(day);
    out.push({
      date,
      spent: complete ? spent : null,
      forecast: day >= run.counted - 1 ? (complete ? spent : ahead) : null,
      plan: (plan * n) / daysInMonth,
    });
  }
  return out;
}

/** The month's run rate as of `today`: what the forecast and its path share. */
function runRate(days: readonly DayValue[], today: string) {
  const now = epochDay(today);
  const month = today.slice(0, 7);
  const first = epochDay(`${month}-01`);
  const [year, monthNumber] = month.split('-').map(Number) as [number, number];
  const last = first + new Date(Date.UTC(year, monthNumber, 0)).getUTCDate() - 1;
  if (now <= first) return undefined;
  const byDay = new Map<number, number>();
  for (const d of days) byDay.set(epochDay(d.date), (byDay.get(epochDay(d.date)) ?? 0) + d.value);
  // The first day not counted: today, or yesterday while its data is still arriving.
  const counted = pendingDay(byDay, now) ? now - 1 : now;
  if (counted <= first) return undefined;
  const shaped = weekdayWeights(byDay, counted);
  const weights = shaped ?? [1, 1, 1, 1, 1, 1, 1];
  const w = (day: number) => weights[weekdayOf(day)] ?? 1;
  let spent = 0;
  let elapsedWeight = 0;
  for (let day = first; day < counted; day++) {
    spent += byDay.get(day) ?? 0;
    elapsedWeight += w(day);
  }
  const rate = elapsedWeight > 0 ? spent / elapsedWeight : 0;
  return { month, first, last, now, counted, byDay, shaped, weights, w, spent, rate };
}

function weekdayWeights(byDay: ReadonlyMap<number, number>, now: number): number[] | undefined {
  const sums = [0, 0, 0, 0, 0, 0, 0];
  const counts = [0, 0, 0, 0, 0, 0, 0];
  let total = 0;
  let n = 0;
  for (let day = now - WEIGHT_DAYS; day < now; day++) {
    const value = byDay.get(day);
    if (value === undefined) continue;
    const k = weekdayOf(day);
    sums[k] = (sums[k] ?? 0) + value;
    counts[k] = (counts[k] ?? 0) + 1;
    total += value;
    n++;
  }
  const mean = n > 0 ? total / n : 0;
  if (mean <= 0 || counts.some((c) => c < 2)) return undefined;
  return sums.map((s, k) => s / (counts[k] ?? 1) / mean);
}

/** A month's plan against its forecast: the share of the plan the forecast reaches (0.98 = 98 %). */
export function pacingShare(forecast: MonthForecast, plan: number): number {
  return plan > 0 ? forecast.forecast / plan : 0;
}
