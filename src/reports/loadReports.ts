import type { Dirent } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { ErrorCode, PivotbotError } from '../core/index.js';
import { parseReportText } from './parseReport.js';
import type { LoadedReport } from './schema.js';

/** Not a report: the workspace glossary, which the query language reads and validates. */
const GLOSSARY = /^glossary\.ya?ml$/i;

/** One problem in one file, with a 1-based line and column. */
export interface ReportProblem {
  file: string;
  line: number;
  col: number;
  /** Where in the definition (`query.metrics[2]`), when known. */
  path?: string;
  message: string;
  suggestions: readonly string[];
}

export interface LoadedReports {
  reports: LoadedReport[];
  /** Every problem of every broken file; a broken file does not stop the others. */
  problems: ReportProblem[];
  /** Ids of files that had at least one problem. */
  broken: string[];
  /** `glossary.yaml`, the workspace's own words for the query language (read by src/query). */
  glossary?: { file: string; text: string };
}

export interface LoadOptions {
  now: Date;
  /** PIVOTBOT_TIMEZONE, for definitions that name no zone. */
  defaultTimeZone?: string;
}

/**
 * Loads every `*.yaml` / `*.yml` in `dir`: parses, validates against the schema and the catalog,
 * and returns the good reports and every problem of the bad ones as `file:line:col` problems.
 *
 * @example const { reports, problems } = await loadReports('reports', { now: new Date() });
 */
export async function loadReports(dir: string, options: LoadOptions): Promise<LoadedReports> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    throw new PivotbotError(
      ErrorCode.ReportsDirUnreadable,
      `Cannot read the reports folder ${dir}: ${(error as Error).message}`,
      {
        cause: error,
        userMessage:
          'pivotbot cannot read its report definitions; ask an admin to check where its reports folder is set.',
      },
    );
  }
  const files = entries
    .filter((e) => e.isFile() && /\.ya?ml$/i.test(e.name))
    .map((e) => e.name)
    .sort();
  const result: LoadedReports = { reports: [], problems: [], broken: [] };
  for (const name of files) {
    const file = join(dir, name);
    const id = basename(name, extname(name));
    const text = await readFile(file, 'utf8');
    if (GLOSSARY.test(name)) {
      result.glossary = { file, text };
      continue;
    }
    const parsed = parseReportText(text, { ...options, file, id });
    if (parsed.problems.length > 0) {
      result.problems.push(...parsed.problems);
      result.broken.push(id);
    } else if (parsed.report) result.reports.push(parsed.report);
  }
  return result;
}

/** `reports/x.yaml:14:5: query.metrics[2]: Unknown metric "instals". Did you mean "installs"?` */
export function formatReportProblem(problem: ReportProblem): string {
  const where = problem.path ? `${problem.path}: ` : '';
  return `${problem.file}:${problem.line}:${problem.col}: ${where}${problem.message}`;
}
