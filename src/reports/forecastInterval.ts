/**
 * The month-end forecast's likely range: the forecast widened by how far the month's real spend
 * fell from it in bench/pacing's backtest, by the days the month had left. Pure; the table is
 * data measured once and kept here, so the digest, the rule and the bench read the same numbers.
 */
import type { MonthForecast } from './forecastSpend.js';

/** The share of backtested months whose real spend fell inside the range (the quantiles below are its edges). */
export const INTERVAL_LEVEL = 0.8;

/**
 * bench/pacing's backtest (`--scale=medium --seed=1`: every forecast day of every whole month,
 * for the whole account and for each app): the 10th and 90th percentiles of the relative error
 * actual ÷ forecast − 1, by the days the month had left when the forecast was made (today
 * included, and a day still arriving). `[daysLeft, low, high]`, daysLeft 1…30; regenerate with
 * the bench, which prints this table.
 */
export const FORECAST_ERROR_QUANTILES: ReadonlyArray<readonly [daysLeft: number, low: number, high: number]> = [
  [1, -0.0097, 0.0121],
  [2, -0.0151, 0.0185],
  [3, -0.018, 0.0238],
  [4, -0.0205, 0.0258],
  [5, -0.0228, 0.0301],
  [6, -0.0229, 0.0347],
  [7, -0.0258, 0.0363],
  [8, -0.0297, 0.0426],
  [9, -0.0312, 0.044],
  [10, -0.0348, 0.0504],
  [11, -0.035, 0.0539],
  [12, -0.0395, 0.0572],
  [13, -0.0431, 0.0628],
  [14, -0.0407, 0.0661],
  [15, -0.0459, 0.0695],
  [16, -0.0458, 0.0775],
  [17, -0.0507, 0.0829],
  [18, -0.0526, 0.0889],
  [19, -0.0599, 0.0939],
  [20, -0.0643, 0.1017],
  [21, -0.0665, 0.1091],
  [22, -0.0751, 0.1121],
  [23, -0.0857, 0.1259],
  [24, -0.0922, 0.1376],
  [25, -0.0952, 0.1496],
  [26, -0.1056, 0.1614],
  [27, -0.1206, 0.197],
  [28, -0.1261, 0.2083],
  [29, -0.1521, 0.2559],
  [30, -0.1926, 0.354],
];

/** The forecast's likely range: at least what is already spent. */
export interface ForecastInterval {
  low: number;
  high: number;
}

/**
 * forecast × (1 + q₁₀) … forecast × (1 + q₉₀), with the quantiles of the row for the month's days
 * left (the nearest row when the table has none for it); the low end never below the spend so far.
 *
 * @example forecastInterval({ spent: 41_200, forecast: 117_600, daysElapsed: 10, daysInMonth: 30 }) // { low: 110_000, high: 129_600 }
 */
export function forecastInterval(
  f: Pick<MonthForecast, 'spent' | 'forecast' | 'daysElapsed' | 'daysInMonth'>,
): ForecastInterval {
  const [low, high] = errorQuantiles(f.daysInMonth - f.daysElapsed);
  return { low: Math.max(f.spent, f.forecast * (1 + low)), high: Math.max(f.spent, f.forecast * (1 + high)) };
}

/** The table's quantiles for `daysLeft`: its row, or the nearest one. */
export function errorQuantiles(daysLeft: number): [number, number] {
  let best = FORECAST_ERROR_QUANTILES[0] as readonly [number, number, number];
  for (const row of FORECAST_ERROR_QUANTILES) {
    if (Math.abs(row[0] - daysLeft) < Math.abs(best[0] - daysLeft)) best = row;
  }
  return [best[1], best[2]];
}
