import { didYouMean, ErrorCode, suggest, UserInputError } from '../core/index.js';
import { formatReportProblem, type LoadedReports } from './loadReports.js';
import type { LoadedReport } from './schema.js';

/**
 * The loaded report named `id` (ignoring case). A missing one fails with "Did you mean …?"; a
 * broken one fails with its problems.
 *
 * @example const report = findReport(await loadReports('reports', { now }), 'daily-kpi');
 */
export function findReport(loaded: LoadedReports, id: string): LoadedReport {
  const wanted = id.toLowerCase().replace(/\.ya?ml$/, '');
  const found = loaded.reports.find((r) => r.id.toLowerCase() === wanted);
  if (found) return found;
  const broken = loaded.broken.find((b) => b.toLowerCase() === wanted);
  if (broken) {
    const problems = loaded.problems.filter((p) => /[^/\\]+(?=\.ya?ml$)/i.exec(p.file)?.[0] === broken);
    throw new UserInputError(
      ErrorCode.ReportInvalid,
      `Report "${broken}" has problems; fix them first:\n${problems.map(formatReportProblem).join('\n')}`,
      { userMessage: `Report "${broken}" has ${problems.length} problem(s); run \`pivotbot validate\`.` },
    );
  }
  const ids = [...loaded.reports.map((r) => r.id), ...loaded.broken];
  const suggestions = suggest(wanted, ids);
  throw new UserInputError(
    ErrorCode.ReportNotFound,
    `No report named "${id}".${didYouMean(suggestions)}${ids.length > 0 ? ` Reports: ${ids.join(', ')}.` : ''}`,
    { suggestions },
  );
}
