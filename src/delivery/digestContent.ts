/**
 * What a named report's digest says besides its numbers: the "because" lines of the headline KPIs
 * that moved (explained against the report's comparison) and the month's budget pacing line. One
 * function for every door: the scheduled digest's explanation step, `/pivot run` and
 * `pivotbot run`, so the three build the same message.
 */
import { type ExplainDeps, type ExplainedReport, explainMoved, reportPacing } from '../insights/index.js';
import type { PacingFigures } from '../render/index.js';
import type { RangeSpec, ReportDefinition, ReportView } from '../reports/index.js';
import { becauseLines } from './postExplanation.js';

export interface DigestContent {
  /** The explanations behind the "because" lines (their ranking goes in the digest's thread). */
  explained?: ExplainedReport;
  because: string[];
  pacing?: PacingFigures;
}

/**
 * The digest's "because" lines (when `explain`) and its pacing line, for `view` run as of `asOf`.
 * Both are best effort: a failure is logged and the digest goes out without the line.
 *
 * @example const { because, pacing } = await digestContent(view, { report, asOf: slot, explain: true }, deps);
 */
export async function digestContent(
  view: ReportView,
  target: { report: { id: string; definition: ReportDefinition }; asOf: Date; range?: RangeSpec; explain: boolean },
  deps: ExplainDeps,
): Promise<DigestContent> {
  const explained = target.explain
    ? await explainMoved(view, { report: target.report, asOf: target.asOf, range: target.range }, deps)
    : undefined;
  const pacing = await pacingOf(target.report, target.asOf, deps);
  return {
    ...(explained ? { explained } : {}),
    because: explained ? becauseLines(explained) : [],
    ...(pacing ? { pacing } : {}),
  };
}

/** The pacing line alone (a digest posted first shows it at once: one request, no explanation). */
export async function pacingOf(
  report: { id: string; definition: ReportDefinition },
  asOf: Date,
  deps: ExplainDeps,
): Promise<PacingFigures | undefined> {
  return reportPacing(report, asOf, { ...deps, ...(deps.signal ? { signal: deps.signal } : {}) });
}
