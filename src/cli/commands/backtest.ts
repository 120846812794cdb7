import type { Command } from 'commander';
import {
  BACKTEST_DAYS,
  type BacktestResult,
  backtestRule,
  backtestSummary,
  backtestValue,
  conditionText,
  rulesToBacktest,
} from '../../alerts/index.js';
import { loadConfig } from '../../config/index.js';
import { ErrorCode, UserInputError } from '../../core/index.js';
import { findReport, loadReports } from '../../reports/index.js';
import { isoInZone } from '../../time/index.js';
import { cliLogger, openReporting } from '../openReporting.js';
import { type CliIo, CommandExit } from './io.js';

interface BacktestFlags {
  rule?: string;
  days: string;
  json?: boolean;
}

const KIND_WORDS = {
  open: 'opened',
  remind: 'reminded',
  bigMove: 'moved far',
  resolve: 'resolved',
  reopen: 'reopened',
};

/** `pivotbot backtest <report>`: when each rule would have opened, reminded and resolved incidents over the last days. */
export function registerBacktest(program: Command, io: CliIo): void {
  program
    .command('backtest <report>')
    .description(
      "replay a report's alert rules over the last days of real data: when each would have opened, reminded and resolved incidents, per entity",
    )
    .option('--rule <id>', 'only this rule (default: every rule of the report)')
    .option('--days <n>', 'days to replay, up to 400', String(BACKTEST_DAYS))
    .option('--json', 'print one JSON object per rule, in an array')
    .action(async (id: string, flags: BacktestFlags) => {
      const days = Number(flags.days);
      if (!Number.isInteger(days) || days < 1 || days > 400) {
        throw new UserInputError(
          ErrorCode.CliCountInvalid,
          `--days is a whole number of days from 1 to 400, not "${flags.days}".`,
        );
      }
      const config = loadConfig(io.env);
      const now = new Date();
      const loaded = await loadReports(config.reportsDir, { now, defaultTimeZone: config.timezone });
      const report = findReport(loaded, id);
      const rules = rulesToBacktest(report, flags.rule);
      const reporting = await openReporting(config, cliLogger(config, io));
      const results: BacktestResult[] = [];
      let refused = 0;
      try {
        for (const rule of rules) {
          try {
            const result = await backtestRule({
              report,
              rule,
              pivot: (request) => reporting.client.pivot(request),
              now,
              days,
              defaultTimeZone: config.timezone,
            });
            results.push(result);
            if (!flags.json) io.out(backtestText(result));
          } catch (error) {
            if (!(error instanceof UserInputError) || error.code !== ErrorCode.BacktestRefused) throw error;
            refused++;
            io.err(`pivotbot backtest: ${report.id}/${rule.id}: cannot backtest: ${error.message}\n`);
          }
        }
      } finally {
        await reporting.close();
      }
      if (flags.json) io.out(`${JSON.stringify(results.map(backtestJson), null, 2)}\n`);
      if (refused > 0) throw new CommandExit(1);
    });
}

/** The terminal's text: the sentence, how it was replayed, then each entity's incidents with values and bounds. */
export function backtestText(result: BacktestResult): string {
  const lines = [`${result.reportId} / ${result.ruleId} (${result.ruleName}): ${backtestSummary(result)}`];
  const queries = `${result.queries} ${result.queries === 1 ? 'query' : 'queries'}`;
  lines.push(
    `  ${result.evaluations} evaluations at ${result.timing}, ${result.from.slice(0, 10)} to ${result.to.slice(0, 10)}; ${result.granularity.toLowerCase()} data, ${queries}`,
  );
  const byEntity = new Map<string, typeof result.events>();
  for (const event of result.events)
    byEntity.set(event.entityLabel, [...(byEntity.get(event.entityLabel) ?? []), event]);
  for (const [label, events] of byEntity) {
    lines.push(`  ${label}`);
    for (const e of events) {
      const at = isoInZone(Date.parse(e.at), result.timezone).slice(0, 16).replace('T', ' ');
      const lasted = e.durationMs === undefined ? '' : ` after ${hours(e.durationMs)}`;
      lines.push(
        `    ${at}  ${KIND_WORDS[e.kind].padEnd(9)} ${backtestValue(e.value)}, ${conditionText(e.condition)}${lasted} · ${e.range}`,
      );
    }
  }
  if (result.openAtEnd > 0) lines.push(`  ${result.openAtEnd} incident(s) still open at the end`);
  for (const s of result.skipped) lines.push(`  skipped ${s.count}× ${s.reason}: ${s.detail}`);
  return `${lines.join('\n')}\n\n`;
}

function hours(ms: number): string {
  const h = ms / 3_600_000;
  return h >= 48 ? `${Math.round(h / 24)} d` : `${Math.round(h)} h`;
}

/** The JSON of one rule's backtest: everything in the result, each entity's series as an object. */
export function backtestJson(result: BacktestResult) {
  const { series, ...rest } = result;
  return {
    ...rest,
    summary: backtestSummary(result),
    series: Object.fromEntries([...series].map(([key, line]) => [key, line])),
  };
}
