/**
 * The words of budget pacing, shared by the digest line and the pacing rule's incident messages:
 * "Spend $41.2K, pacing 98 % of the $120K plan (forecast $117.6K, likely $113K–$123.5K)", and
 * what the plan needs: "needs $3.9K a day for the rest of the month to land on plan".
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
  /** The forecast's likely range (absent in incidents stored before it existed). */
  low?: number;
  high?: number;
  /** Spend a day the rest of the month needs to land on plan; 0 once the plan is spent. */
  neededPerDay?: number;
  /** Yesterday (`YYYY-MM-DD`) when its data was still arriving and not counted. */
  pending?: string;
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
 * @example pacingLine({ month: '2026-11', spent: 41_200, forecast: 117_600, low: 113_000, high: 123_500, plan: 120_000, share: 0.98, neededPerDay: 3_940, daysElapsed: 10, daysInMonth: 30 })
 *          // 'Spend $41.2K, pacing 98 % of the $120K plan (forecast $117.6K, likely $113K–$123.5K) · November 2026, 10 of 30 days · needs $3.9K a day for the rest of the month to land on plan'
 */
export function pacingLine(p: PacingFigures): string {
  const needs = neededText(p);
  return (
    `Spend ${money(p.spent)}, pacing ${shareText(p.share)} of the ${money(p.plan)} plan (forecast ${money(p.forecast)}${likelyText(p)})` +
    ` · ${monthName(p.month)}, ${daysText(p)}${needs ? ` · ${needs}` : ''}`
  );
}

/**
 * The pacing rule's statement: `forecast $150K (likely $138K–$162K) for November 2026, 125 % of
 * the $120K plan ($60K spent in 12 of 30 days)`.
 */
export function pacingStatement(p: PacingFigures): string {
  const likely = p.low !== undefined && p.high !== undefined ? ` (likely ${range(p.low, p.high)})` : '';
  return (
    `forecast ${money(p.forecast)}${likely} for ${monthName(p.month)}, ${shareText(p.share)} of the ${money(p.plan)} plan` +
    ` (${money(p.spent)} spent in ${daysText(p)})`
  );
}

/**
 * What the plan needs: `needs $1.9K a day for the rest of the month to land on plan`, `the $120K
 * plan is spent already` once it is; empty without the figure (an incident stored before it).
 */
export function neededText(p: PacingFigures): string {
  if (p.neededPerDay === undefined) return '';
  if (p.neededPerDay <= 0) return `the ${money(p.plan)} plan is spent already`;
  return `needs ${money(p.neededPerDay)} a day for the rest of the month to land on plan`;
}

const range = (low: number, high: number): string => `${money(low)}–${money(high)}`;

function likelyText(p: PacingFigures): string {
  return p.low !== undefined && p.high !== undefined ? `, likely ${range(p.low, p.high)}` : '';
}

/** `10 of 30 days`, and the day not counted while its data arrives: `9 of 30 days (19 Nov still arriving)`. */
function daysText(p: PacingFigures): string {
  const days = `${p.daysElapsed} of ${p.daysInMonth} days`;
  if (p.pending === undefined) return days;
  const [, month, day] = p.pending.split('-').map(Number) as [number, number, number];
  const name = new Date(Date.UTC(2000, month - 1, day)).toLocaleString('en-GB', {
    day: 'numeric',
    month: 'short',
    timeZone: 'UTC',
  });
  return `${days} (${name} still arriving)`;
}
