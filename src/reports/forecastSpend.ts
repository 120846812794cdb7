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
  /** The month so far: the complete days before `today`. */
  spent: number;
  daysElapsed: number;
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
 * Undefined on the 1st (no complete day yet). A missing day counts as 0.
 *
 * @example forecastMonthEnd(days, '2026-11-11') // { spent: 41_200, daysElapsed: 10, forecast: 117_600, method: 'weekday', … }
 */
export function forecastMonthEnd(days: readonly DayValue[], today: string): MonthForecast | undefined {
  const now = epochDay(today);
  const month = today.slice(0, 7);
  const first = epochDay(`${month}-01`);
  const [year, monthNumber] = month.split('-').map(Number) as [number, number];
  const daysInMonth = new Date(Date.UTC(year, monthNumber, 0)).getUTCDate();
  const last = first + daysInMonth - 1;
  if (now <= first) return undefined;
  const byDay = new Map<number, number>();
  for (const d of days) byDay.set(epochDay(d.date), (byDay.get(epochDay(d.date)) ?? 0) + d.value);
  const shaped = weekdayWeights(byDay, now);
  const weights = shaped ?? [1, 1, 1, 1, 1, 1, 1];
  const w = (day: number) => weights[weekdayOf(day)] ?? 1;
  let spent = 0;
  let elapsedWeight = 0;
  for (let day = first; day < now; day++) {
    spent += byDay.get(day) ?? 0;
    elapsedWeight += w(day);
  }
  let leftWeight = 0;
  for (let day = now; day <= last; day++) leftWeight += w(day);
  const rate = elapsedWeight > 0 ? spent / elapsedWeight : 0;
  return {
    month,
    spent,
    daysElapsed: now - first,
    daysInMonth,
    forecast: spent + rate * leftWeight,
    method: shaped ? 'weekday' : 'flat',
    weights,
  };
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
