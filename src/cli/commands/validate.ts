import type { Command } from 'commander';
import { loadConfig } from '../../config/index.js';
import { workspaceGlossaryOf } from '../../query/index.js';
import { formatReportProblem, loadReports } from '../../reports/index.js';
import { type CliIo, CommandExit } from './io.js';

/** `pivotbot validate [dir]`: checks every report definition. */
export function registerValidate(program: Command, io: CliIo): void {
  program
    .command('validate [dir]')
    .description('check every report definition; exit 1 with file:line messages on any error')
    .action(async (dir: string | undefined) => {
      const config = loadConfig(io.env);
      const folder = dir ?? config.reportsDir;
      const loaded = await loadReports(folder, { now: new Date(), defaultTimeZone: config.timezone });
      for (const problem of loaded.problems) io.out(`${formatReportProblem(problem)}\n`);
      // The workspace glossary (glossary.yaml) is checked like a report and fails validation the same way.
      const glossaryProblems = workspaceGlossaryOf(loaded).problems;
      for (const problem of glossaryProblems) io.out(`${formatReportProblem(problem)}\n`);
      if (glossaryProblems.length > 0 && loaded.problems.length === 0) {
        io.out(`\n${glossaryProblems.length} problem(s) in ${loaded.glossary?.file}\n`);
        throw new CommandExit(1);
      }
      const total = loaded.reports.length + loaded.broken.length;
      if (loaded.problems.length > 0) {
        io.out(
          `\n${loaded.problems.length} problem(s) in ${loaded.broken.length} of ${total} report(s): ${loaded.broken.join(', ')}\n`,
        );
        throw new CommandExit(1);
      }
      if (total === 0) {
        io.err(`pivotbot validate: no *.yaml report definitions in ${folder}\n`);
        throw new CommandExit(1);
      }
      io.out(`${total} report(s) valid in ${folder}: ${loaded.reports.map((r) => r.id).join(', ')}\n`);
    });
}
