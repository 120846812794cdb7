import { join } from 'node:path';
import type { Command } from 'commander';
import { configSecrets, loadConfig } from '../../config/index.js';
import { ConfigError } from '../../core/index.js';
import { digestContent, postView } from '../../delivery/index.js';
import { sharedChartRenderer } from '../../render/index.js';
import { findReport, formatViewTable, loadReports, type RangeSpec, runReport } from '../../reports/index.js';
import { slackGatewayFor } from '../../slackapi/index.js';
import { cliLogger, openReporting } from '../openReporting.js';
import { writeDigestFiles } from '../writeDigestFiles.js';
import { type CliIo, CommandExit } from './io.js';

interface RunFlags {
  out: string;
  post?: boolean;
  channel?: string;
  range?: string;
  mode?: 'sync' | 'async' | 'auto';
}

/** `pivotbot run <report>`: one named report, once. */
export function registerRun(program: Command, io: CliIo): void {
  program
    .command('run <report>')
    .description('run one named report once and write its results (or post them with --post)')
    .option('--out <dir>', 'output folder', 'out')
    .option('--post', "also post the digest to Slack: the report's deliver.channels, or --channel")
    .option('--channel <id>', 'with --post: post to this channel (an id like C0123ABCD, or #name)')
    .option('--range <range>', 'override the report range (yesterday, last_7_days, 2026-11-01..2026-11-08)')
    .option('--mode <mode>', 'override the mode: sync, async or auto')
    .action(async (id: string, flags: RunFlags) => {
      if (flags.mode !== undefined && !['sync', 'async', 'auto'].includes(flags.mode)) {
        io.err(`pivotbot run: --mode is sync, async or auto, not "${flags.mode}"\n`);
        throw new CommandExit(1);
      }
      const config = loadConfig(io.env);
      const slack = flags.post ? config.slack : undefined;
      if (flags.post && !slack) {
        throw new ConfigError(['SLACK_BOT_TOKEN: missing. `pivotbot run --post` posts with the bot token (xoxb-…)']);
      }
      const logger = cliLogger(config, io);
      const loaded = await loadReports(config.reportsDir, { now: new Date(), defaultTimeZone: config.timezone });
      const report = findReport(loaded, id);
      const channels = flags.channel ? [flags.channel] : (report.definition.deliver?.channels ?? []);
      if (flags.post && channels.length === 0) {
        io.err(`pivotbot run: report "${report.id}" has no deliver.channels; add some, or pass --channel C0123ABCD\n`);
        throw new CommandExit(1);
      }
      const started = performance.now();
      // One instant for the run and its lines (ranges, the comparison, the month's pacing).
      const asOf = io.now?.() ?? new Date();
      const reporting = await openReporting(config, logger);
      try {
        const view = await runReport(
          report,
          {
            client: reporting.client,
            now: () => asOf,
            outDir: flags.out,
            logger,
            defaultTimeZone: config.timezone,
          },
          {
            ...(flags.range !== undefined ? { range: flags.range as RangeSpec } : {}),
            ...(flags.mode !== undefined ? { mode: flags.mode } : {}),
          },
        );
        const charts = sharedChartRenderer();
        // The scheduled digest's lines: why its KPIs moved, how its budget paces (digestContent).
        const content = await digestContent(
          view,
          { report, asOf, explain: true, ...(flags.range !== undefined ? { range: flags.range as RangeSpec } : {}) },
          { client: reporting.client, logger, defaultTimeZone: config.timezone, clock: () => asOf },
        );
        const written = await writeDigestFiles(view, flags.out, charts, {
          because: content.because,
          ...(content.pacing ? { pacing: content.pacing } : {}),
        });
        io.out(formatViewTable(view));
        const seconds = ((performance.now() - started) / 1000).toFixed(1);
        const files = [...written.files, `${view.reportId}.json`].map((f) => join(flags.out, f)).join(', ');
        io.out(`\n${report.id}: ${view.totalRowCount} row(s), ${view.mode}, ${seconds} s → ${files}\n`);
        if (slack) {
          const gateway = slackGatewayFor(slack, logger, { secrets: configSecrets(config) });
          for (const channel of channels) {
            const { ts } = await postView(
              view,
              {
                csv: report.definition.deliver?.csv !== false,
                ...(content.because.length > 0 ? { because: content.because } : {}),
                ...(content.pacing ? { pacing: content.pacing } : {}),
              },
              { channel, user: 'pivotbot-cli' },
              {
                slack: gateway,
                charts,
                logger,
              },
            );
            io.out(`posted to ${channel} (ts ${ts})\n`);
          }
        }
      } finally {
        await reporting.close();
      }
    });
}
