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
    .option('--now <instant>', "the demo's instant, ISO 8601 (default: now): the same preview every time")
    .action(async (options: { out: string; reports?: string; now?: string }) => {
      const reportsDir = options.reports ?? io.env.PIVOTBOT_REPORTS_DIR ?? 'reports';
      const now = options.now === undefined ? undefined : new Date(options.now);
      if (now !== undefined && Number.isNaN(now.getTime())) {
        io.err(`--now "${options.now}" is not an ISO 8601 instant (like 2026-11-20T12:00:00Z).\n`);
        throw new CommandExit(1);
      }
      // Loaded here: the demo's renderer and page writer are not needed by other commands.
      const { runDemo } = await import('../runDemo.js');
      const result = await runDemo({
        reportsDir,
        outDir: options.out,
        progress: (line) => io.out(`${line}\n`),
        ...(now ? { now } : {}),
      });
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
