/**
 * The chart of a pacing incident: the month as the rule judged it. Spend so far this month (the
 * running total by day), the forecast's path from the last complete day to the month's end (its
 * last point is the forecast the rule judged), the plan pro rata, and a dashed line at the edge of
 * the tolerance the forecast crossed (plan × (1 ± tolerance)): the forecast's path ends past it.
 */
import type { PacingCondition } from '../alerts/index.js';
import type { ReportView, ViewColumn } from '../view/index.js';
import { monthName, shareText } from './blocks/pacingLine.js';
import { buildChartConfig } from './buildChartConfig.js';
import type { ChartSpec } from './chartStyle.js';
import { formatValue } from './format.js';

/** One day of the month, each value at the day's end (`pacingPath` in reports). */
export interface PacingChartDay {
  /** `YYYY-MM-DD`. */
  date: string;
  /** Spend of the month through this day; null once the days are not complete. */
  spent: number | null;
  /** The forecast's path; null before the last complete day. */
  forecast: number | null;
  /** The plan pro rata. */
  plan: number;
}

export interface PacingChartInput {
  /** The rule's name, as the title. */
  title: string;
  /** The spend metric's label (`Spend`). */
  label: string;
  /** Every day of the month, first to last. */
  days: readonly PacingChartDay[];
  condition: PacingCondition;
  timezone: string;
}

const money = (n: number) => formatValue(n, 'currency', { compact: true });

/**
 * The edge of the tolerance band a forecast is judged against on its side of the plan: above the
 * plan, plan × (1 + tolerance); below it, plan × (1 − tolerance). The value of `judgePacing`'s threshold.
 *
 * @example pacingLimit({ plan: 42_000, tolerance: 0.15, share: 1.3, … }) // { value: 48_300, label: 'plan +15 % $48.3K' }
 */
export function pacingLimit(c: Pick<PacingCondition, 'plan' | 'tolerance' | 'share'>): {
  value: number;
  label: string;
} {
  const over = c.share >= 1;
  const value = c.plan * (over ? 1 + c.tolerance : 1 - c.tolerance);
  return { value, label: `plan ${over ? '+' : '−'}${shareText(c.tolerance)} ${money(value)}` };
}

/**
 * The pacing chart as a view (for the bot's chart process): three series over the month's days and
 * the tolerance edge, or null without two days to draw.
 *
 * @example const png = await charts.renderView(pacingChartView({ title, label: 'Spend', days: result.pacingPath, condition, timezone }))
 */
export function pacingChartView(input: PacingChartInput): ReportView | null {
  const days = input.days;
  if (days.length < 2 || !days.some((d) => d.spent !== null)) return null;
  const c = input.condition;
  const time: ViewColumn = {
    key: 'at',
    kind: 'dimension',
    name: 'date',
    args: {},
    label: 'Day',
    unit: 'time',
    polarity: 'neutral',
  };
  const series = (key: string, label: string): ViewColumn => ({
    key,
    kind: 'metric',
    name: 'spend',
    args: {},
    label,
    unit: 'currency',
    polarity: 'neutral',
  });
  const limit = pacingLimit(c);
  const first = days[0]?.date ?? '';
  const last = days[days.length - 1]?.date ?? '';
  return {
    reportId: 'alert',
    title: input.title,
    range: {
      from: first,
      to: last,
      label: `${monthName(c.month)}, ${c.daysElapsed} of ${c.daysInMonth} days`,
      timezone: input.timezone,
    },
    columns: [
      time,
      series('spent', `${input.label} so far`),
      series('forecast', 'Forecast'),
      series('plan', 'Plan, pro rata'),
    ],
    rows: days.map((d) => ({ at: d.date, spent: d.spent, forecast: d.forecast, plan: d.plan })),
    totalRowCount: days.length,
    headline: ['spent'],
    mode: 'sync',
    warnings: [],
    generatedAt: last,
    chart: {
      kind: 'line',
      x: 'at',
      series: ['spent', 'forecast', 'plan'],
      dashed: ['forecast'],
      title: input.title,
      thresholds: [{ metric: 'spent', ...limit }],
    },
  };
}

/**
 * The pacing chart as a Chart.js spec (the demo's renderer), with its alt text.
 *
 * @example const spec = pacingChartSpec({ title, label: 'Spend', days, condition, timezone: 'UTC' })
 */
export function pacingChartSpec(input: PacingChartInput): ChartSpec | null {
  const view = pacingChartView(input);
  const spec = view ? buildChartConfig(view) : null;
  if (!spec) return null;
  spec.alt = pacingChartAlt(input.condition);
  return spec;
}

/** What the pacing chart shows, in words (the image's alt text). */
export function pacingChartAlt(c: PacingCondition): string {
  return (
    `Line chart of spend so far in ${monthName(c.month)} (${money(c.spent)} in ${c.daysElapsed} of ${c.daysInMonth} days), ` +
    `its forecast to the month's end (${money(c.forecast)}, ${shareText(c.share)} of the plan) and the ${money(c.plan)} plan pro rata; ` +
    `dashed line at ${pacingLimit(c).label}.`
  );
}
