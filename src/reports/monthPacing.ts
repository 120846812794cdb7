/**
 * Budget pacing of a report: which month "now" is in (in the report's zone), its plan, the one
 * request that fetches the spend by day it needs (the month so far and the 28 days before, for
 * the weekday weights), and the forecast with its share of the plan. The digest line and the
 * pacing rule both use these, so they say the same numbers.
 */
import type { PivotRequest, PivotRow } from '../reporting/index.js';
import { canonicalTimeZone, wallClock } from '../time/index.js';
import { planFor } from './budgetSchema.js';
import { compileReport } from './compileReport.js';
import { forecastInterval } from './forecastInterval.js';
import {
  type DayValue,
  forecastMonthEnd,
  type MonthForecast,
  type PacingDay,
  pacingPath,
  pacingShare,
  WEIGHT_DAYS,
} from './forecastSpend.js';
import type { ReportDefinition } from './schema.js';

const DAY_MS = 86_400_000;

/** The month being paced: `today` (local, `YYYY-MM-DD`) in the report's zone, and that month's plan. */
export interface PacingPlan {
  month: string;
  today: string;
  plan: number;
  timezone: string;
}

/** The forecast of the month against its plan. */
export interface MonthPacing extends MonthForecast {
  plan: number;
  /** forecast ÷ plan: 0.98 = pacing 98 % of the plan. */
  share: number;
  /** The forecast's likely range (`forecastInterval`: 8 months in 10 of the backtest landed inside). */
  low: number;
  high: number;
  /**
   * What the plan needs: (plan − spent) ÷ the days left (today included, and a day still
   * arriving), 0 once the plan is spent.
   */
  neededPerDay: number;
}

/**
 * The month that holds `now` in the report's zone and its plan; undefined when the report has no
 * `budgets:` or no plan for that month.
 *
 * @example pacingPlan(definition, { now: new Date('2026-11-11T12:00:00Z') }) // { month: '2026-11', today: '2026-11-11', plan: 120000, timezone: 'UTC' }
 */
export function pacingPlan(
  definition: ReportDefinition,
  options: { now: Date; defaultTimeZone?: string },
): PacingPlan | undefined {
  if (definition.budgets === undefined) return undefined;
  const written = definition.query.timezone ?? options.defaultTimeZone ?? 'UTC';
  const timezone = canonicalTimeZone(written) ?? written;
  const today = new Date(wallClock(options.now.getTime(), timezone)).toISOString().slice(0, 10);
  const month = today.slice(0, 7);
  const plan = planFor(definition.budgets, month);
  return plan === undefined ? undefined : { month, today, plan, timezone };
}

/**
 * The one request pacing needs: the report's query (its filter, channel and zone; not its
 * dimensions, metrics or cleanup) as spend by day, from the month's first day or the 28 days
 * before today, whichever is earlier, to today (exclusive: complete days only).
 *
 * @example pacingRequest(definition, plan, { now }) // { from: '2026-10-14T00:00:00+00:00', to: '2026-11-11T00:00:00+00:00', dimensions: [date DAILY], metrics: [spend] }
 */
export function pacingRequest(
  definition: ReportDefinition,
  plan: PacingPlan,
  options: { now: Date; defaultTimeZone?: string },
): PivotRequest | undefined {
  const today = Date.parse(`${plan.today}T00:00:00Z`);
  const first = Math.min(Date.parse(`${plan.month}-01T00:00:00Z`), today - WEIGHT_DAYS * DAY_MS);
  const from = new Date(first).toISOString().slice(0, 10);
  const compiled = compileReport(definition, {
    now: options.now,
    range: `${from}..${plan.today}`,
    ...(options.defaultTimeZone !== undefined ? { defaultTimeZone: options.defaultTimeZone } : {}),
  });
  const base = compiled.request;
  if (base === undefined) return undefined;
  return {
    from: compiled.range.from,
    to: compiled.range.to,
    dimensions: [{ name: 'date', args: { granularity: 'DAILY' } }],
    metrics: [{ name: 'spend' }],
    ...(base.filter ? { filter: base.filter } : {}),
    ...(base.context ? { context: base.context } : {}),
    ...(base.campaignChannel ? { campaignChannel: base.campaignChannel } : {}),
    totals: false,
  };
}

/**
 * The month's forecast (`forecastMonthEnd`) from the rows of `pacingRequest`, against the plan.
 * Undefined on the month's first day (no complete day yet).
 *
 * @example monthPacing(rows, plan) // { spent: 41_200, forecast: 117_600, low: 110_000, high: 129_600, plan: 120_000, share: 0.98, neededPerDay: 3_940, daysElapsed: 10, … }
 */
export function monthPacing(rows: readonly PivotRow[], plan: PacingPlan): MonthPacing | undefined {
  const forecast = forecastMonthEnd(dayValues(rows), plan.today);
  if (forecast === undefined) return undefined;
  const daysLeft = forecast.daysInMonth - forecast.daysElapsed;
  return {
    ...forecast,
    plan: plan.plan,
    share: pacingShare(forecast, plan.plan),
    ...forecastInterval(forecast),
    neededPerDay: Math.max(0, plan.plan - forecast.spent) / Math.max(1, daysLeft),
  };
}

/**
 * The month's days for the pacing chart (`pacingPath`) from the rows of `pacingRequest`: spend so
 * far, the forecast's path to the month's end, the plan pro rata. Undefined on the month's first day.
 *
 * @example monthPacingPath(rows, plan)?.at(-1) // { date: '2026-11-30', spent: null, forecast: 41_300, plan: 42_000 }
 */
export function monthPacingPath(rows: readonly PivotRow[], plan: PacingPlan): PacingDay[] | undefined {
  return pacingPath(dayValues(rows), plan.today, plan.plan);
}

function dayValues(rows: readonly PivotRow[]): DayValue[] {
  const days: DayValue[] = [];
  for (const row of rows) {
    const date = row.date;
    const value = typeof row.spend === 'number' ? row.spend : Number(row.spend);
    if (date === null || date === undefined || !Number.isFinite(value)) continue;
    days.push({ date: String(date).slice(0, 10), value });
  }
  return days;
}
