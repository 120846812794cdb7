/**
 * The digest's pacing line: the month's spend so far and its month-end forecast against the
 * plan in the report's `budgets:`, from one request of spend by day. Best effort: a report
 * without a plan for the month, the month's first day, or a failed request gives no line.
 */
import type { Logger } from '../core/index.js';
import type { ReportingClient } from '../reporting/index.js';
import { type MonthPacing, monthPacing, pacingPlan, pacingRequest, type ReportDefinition } from '../reports/index.js';

export interface PacingDeps {
  client: Pick<ReportingClient, 'pivot'>;
  logger: Logger;
  defaultTimeZone: string;
  signal?: AbortSignal;
}

/**
 * The pacing of the month holding `asOf` (in the report's zone), or undefined when there is no
 * line to show. A failure is logged, never thrown: the digest goes out without the line.
 *
 * @example const pacing = await reportPacing(report, slot, deps); // { spent: 41_200, forecast: 117_600, plan: 120_000, share: 0.98, … }
 */
export async function reportPacing(
  report: { id: string; definition: ReportDefinition },
  asOf: Date,
  deps: PacingDeps,
): Promise<MonthPacing | undefined> {
  const options = { now: asOf, defaultTimeZone: deps.defaultTimeZone };
  const plan = pacingPlan(report.definition, options);
  if (plan === undefined) return undefined;
  const request = pacingRequest(report.definition, plan, options);
  if (request === undefined || plan.today.endsWith('-01')) return undefined;
  try {
    const response = await deps.client.pivot(request, deps.signal ? { signal: deps.signal } : {});
    return monthPacing(response.rows, plan);
  } catch (error) {
    deps.logger.warn(
      { err: error, report: report.id },
      'could not fetch the spend for the pacing line; posting without it',
    );
    return undefined;
  }
}
