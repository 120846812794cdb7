import type { Command } from 'commander';
import { loadConfig } from '../../config/index.js';
import { findReport, formatViewTable, loadReports, type RangeSpec, runReport } from '../../reports/index.js';
import { cliLogger, openReporting } from '../openReporting.js';
import { type CliIo, CommandExit } from './io.js';
import { NotBuiltYetError } from './notBuiltYet.js';

interface RunFlags {
  out: string;
  post?: boolean;
  range?: string;
  mode?: 'sync' | 'async' | 'auto';
}

/** `pivotbot run <report>`: one named report, once. */
export function registerRun(program: Command, io: CliIo): void {
  program
    .command('run <report>')
    .description('run one named report once and write its results (or post them with --post)')
    .option('--out <dir>', 'output folder', 'out')
    .option('--post', 'post to Slack instead of writing files')
    .option('--range <range>', 'override the report range (yesterday, last_7_days, 2026-11-01..2026-11-08)')
    .option('--mode <mode>', 'override the mode: sync, async or auto')
    .action(async (id: string, flags: RunFlags) => {
      if (flags.post) throw new NotBuiltYetError('run --post', 'the Slack app issue');
      if (flags.mode !== undefined && !['sync', 'async', 'auto'].includes(flags.mode)) {
        io.err(`pivotbot run: --mode is sync, async or auto, not "${flags.mode}"\n`);
        throw new CommandExit(1);
      }
      const config = loadConfig(io.env);
      const logger = cliLogger(config, io);
      const loaded = await loadReports(config.reportsDir, { now: new Date(), defaultTimeZone: config.timezone });
      const report = findReport(loaded, id);
      const started = performance.now();
      const reporting = await openReporting(config, logger);
      try {
        const view = await runReport(
          report,
          {
            client: reporting.client,
            now: () => new Date(),
            outDir: flags.out,
            logger,
            defaultTimeZone: config.timezone,
          },
          {
            ...(flags.range !== undefined ? { range: flags.range as RangeSpec } : {}),
            ...(flags.mode !== undefined ? { mode: flags.mode } : {}),
          },
        );
        io.out(formatViewTable(view));
        const seconds = ((performance.now() - started) / 1000).toFixed(1);
        const files = [view.csvPath, `${flags.out}/${view.reportId}.json`].filter(Boolean).join(', ');
        io.out(`\n${report.id}: ${view.totalRowCount} row(s), ${view.mode}, ${seconds} s → ${files}\n`);
      } finally {
        await reporting.close();
      }
    });
}
