import type { Command } from 'commander';
import { loadConfig } from '../../config/index.js';
import {
  compileQuery,
  describeUnderstood,
  formatQueryError,
  loadWorkspaceGlossary,
  QueryError,
} from '../../query/index.js';
import {
  findReport,
  formatReportProblem,
  formatViewTable,
  type LoadedReport,
  loadReports,
  type RangeSpec,
  type ReportDefinition,
  runReport,
} from '../../reports/index.js';
import { cliLogger, openReporting } from '../openReporting.js';
import { type CliIo, CommandExit } from './io.js';

interface QueryFlags {
  csv?: string;
  json?: boolean;
}

/** `pivotbot query "<query>"`: the slash command's language in a terminal. */
export function registerQuery(program: Command, io: CliIo): void {
  program
    .command('query <query>')
    .description('run an ad-hoc query in the /pivot language and print a table')
    .option('--csv <file>', 'also write every row to FILE as CSV')
    .option('--json', 'print the report view as JSON instead of a table')
    .action(async (text: string, flags: QueryFlags) => {
      const config = loadConfig(io.env);
      const now = new Date();
      const workspace = await loadWorkspaceGlossary(config.reportsDir);
      for (const problem of workspace.problems) io.err(`${formatReportProblem(problem)} (word ignored)\n`);
      let compiled: ReturnType<typeof compileQuery>;
      try {
        compiled = compileQuery(text, { now, defaultTimeZone: config.timezone, glossary: workspace.glossary });
      } catch (error) {
        if (!(error instanceof QueryError)) throw error;
        io.err(`${formatQueryError(text, error)}\n`);
        throw new CommandExit(1);
      }
      let report: Pick<LoadedReport, 'id'> & { definition: ReportDefinition };
      let range: RangeSpec | undefined;
      let csvPath = flags.csv;
      if (compiled.kind === 'run') {
        const loaded = await loadReports(config.reportsDir, { now, defaultTimeZone: config.timezone });
        report = findReport(loaded, compiled.report.value);
        range = compiled.range;
      } else {
        report = { id: compiled.kind === 'postbacks' ? 'postbacks' : 'query', definition: compiled.definition };
        if (compiled.csv && csvPath === undefined) csvPath = `out/${report.id}.csv`;
      }
      const logger = cliLogger(config, io);
      const reporting = await openReporting(config, logger);
      try {
        const view = await runReport(
          report,
          {
            client: reporting.client,
            now: () => new Date(),
            logger,
            defaultTimeZone: config.timezone,
            ...(csvPath !== undefined ? { csvPath } : {}),
          },
          range !== undefined ? { range } : {},
        );
        // The first line says what was understood, in the catalog's words, so people learn the language.
        const understood =
          compiled.kind === 'run' ? undefined : describeUnderstood(compiled.definition, config.timezone);
        if (flags.json) io.out(`${JSON.stringify(understood ? { understood, ...view } : view, null, 2)}\n`);
        else io.out(`${understood ? `${understood}\n\n` : ''}${formatViewTable(view)}`);
        if (view.csvPath && !flags.json) io.out(`\nCSV: ${view.csvPath}\n`);
      } finally {
        await reporting.close();
      }
    });
}
