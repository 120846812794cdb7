import type { Command } from 'commander';
import { type CliIo, CommandExit } from './io.js';

/** `pivotbot demo`: sandbox + every report + out/index.html. */
export function registerDemo(program: Command, io: CliIo): void {
  program
    .command('demo')
    .description(
      'start the sandbox, run every report and evaluate its alerts, write out/ with an index.html preview, exit',
    )
    .option('--out <dir>', 'output folder', 'out')
    .option('--reports <dir>', 'report definitions folder (default: PIVOTBOT_REPORTS_DIR or reports)')
    .action(async (options: { out: string; reports?: string }) => {
      const reportsDir = options.reports ?? io.env.PIVOTBOT_REPORTS_DIR ?? 'reports';
      // Loaded here: the demo's renderer and page writer are not needed by other commands.
      const { runDemo } = await import('../runDemo.js');
      const result = await runDemo({ reportsDir, outDir: options.out, progress: (line) => io.out(`${line}\n`) });
      const failed = result.reports.filter((r) => !r.ok);
      for (const b of result.broken) io.err(`broken definition ${b.id}: ${b.reason}\n`);
      for (const a of result.alerts.failed) io.err(`alert rule ${a.id} could not be evaluated: ${a.reason}\n`);
      io.out(
        `\n${result.reports.length - failed.length}/${result.reports.length} reports ran in ${(result.durationMs / 1000).toFixed(1)} s` +
          `${result.broken.length > 0 ? `, ${result.broken.length} definitions did not load` : ''}.\n` +
          `Open ${result.indexPath} to see every message as Slack would show it.\n`,
      );
      if (failed.length > 0 || result.broken.length > 0 || result.alerts.failed.length > 0) throw new CommandExit(1);
    });
}
