/**
 * The words of budget pacing, shared by the digest line and the pacing rule's incident messages:
 * "Spend $41.2K, pacing 98 % of the $120K plan (forecast $117.6K)".
 */
import { formatValue } from '../format.js';

/** A month's spend so far and its month-end forecast against the plan (in US dollars). */
export interface PacingFigures {
  /** `YYYY-MM`. */
  month: string;
  spent: number;
  forecast: number;
  plan: number;
  /** forecast ÷ plan. */
  share: number;
  daysElapsed: number;
  daysInMonth: number;
}

const money = (n: number) => formatValue(n, 'currency', { compact: true });

/** `98 %`: a share of the plan, whole percent. */
export function shareText(share: number): string {
  return `${Math.round(share * 100)} %`;
}

/** `November 2026` from `2026-11`. */
export function monthName(month: string): string {
  const [year, number] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(year, number - 1, 1)).toLocaleString('en-GB', {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

/**
 * The digest's pacing line.
 *
 * @example pacingLine({ month: '2026-11', spent: 41_200, forecast: 117_600, plan: 120_000, share: 0.98, daysElapsed: 10, daysInMonth: 30 })
 *          // 'Spend $41.2K, pacing 98 % of the $120K plan (forecast $117.6K) · November 2026, 10 of 30 days'
 */
export function pacingLine(p: PacingFigures): string {
  return (
    `Spend ${money(p.spent)}, pacing ${shareText(p.share)} of the ${money(p.plan)} plan (forecast ${money(p.forecast)})` +
    ` · ${monthName(p.month)}, ${p.daysElapsed} of ${p.daysInMonth} days`
  );
}

/**
 * The pacing rule's statement: `forecast $150K for November 2026, 125 % of the $120K plan
 * ($60K spent in 12 of 30 days)`.
 */
export function pacingStatement(p: PacingFigures): string {
  return (
    `forecast ${money(p.forecast)} for ${monthName(p.month)}, ${shareText(p.share)} of the ${money(p.plan)} plan` +
    ` (${money(p.spent)} spent in ${p.daysElapsed} of ${p.daysInMonth} days)`
  );
}
