/**
 * Backtests in Slack: `/pivot backtest <report> [rule]` (each rule over the last 30 days, answered
 * privately with its sentence, incidents and chart) and the Watch-this modal's preview of the
 * rule being written. The replay itself is the alert core's (`backtestRule`).
 */
import { type BacktestResult, backtestChartLine, backtestRule, rulesToBacktest } from '../../alerts/index.js';
import { ErrorCode, toError, UserInputError } from '../../core/index.js';
import { alertChartView } from '../../render/index.js';
import { type AlertRule, describeColumn, findReport, type ReportDefinition } from '../../reports/index.js';
import type { Answers, CommandContext, PivotCommandsDeps } from './answers.js';
import type { SlashCommand } from './parseSlashCommand.js';
import { type BacktestChart, backtestMessage } from './screens/backtestMessage.js';

/** Days `/pivot backtest` and the modal's preview replay. */
export const SLACK_BACKTEST_DAYS = 30;

/** Why a backtest was refused (`BACKTEST_REFUSED`), or undefined for any other failure. */
export function refusal(error: unknown): string | undefined {
  return error instanceof UserInputError && error.code === ErrorCode.BacktestRefused ? error.message : undefined;
}

export class BacktestCommands {
  constructor(
    private readonly deps: PivotCommandsDeps,
    private readonly answers: Answers,
  ) {}

  /** `/pivot backtest <report> [rule]`: every rule of the report (or the one named), privately. */
  async run(command: Extract<SlashCommand, { kind: 'backtest' }>, ctx: CommandContext): Promise<void> {
    const report = findReport(await this.deps.loadReports(), command.report);
    const rules = rulesToBacktest(report, command.rule);
    const done: Array<{ result: BacktestResult; chart?: BacktestChart }> = [];
    const refused: Array<{ report: string; rule: string; why: string }> = [];
    for (const rule of rules) {
      try {
        const result = await this.backtest(report, rule);
        const chart = await this.chart(result, rule);
        done.push({ result, ...(chart ? { chart } : {}) });
      } catch (error) {
        const why = refusal(error);
        if (why === undefined) throw error;
        refused.push({ report: report.id, rule: rule.id, why });
      }
    }
    this.deps.logger.info({ report: report.id, rules: rules.length, refused: refused.length }, 'backtest answered');
    await this.answers.tell(ctx, backtestMessage(done, refused));
  }

  /** One rule over the last 30 days, on the Reporting Service, at the bot's clock. */
  backtest(report: { id: string; definition: ReportDefinition }, rule: AlertRule): Promise<BacktestResult> {
    const { client, clock, signal, defaultTimeZone } = this.deps;
    return backtestRule({
      report,
      rule,
      pivot: (request) => client.pivot(request, { signal }),
      now: clock(),
      days: SLACK_BACKTEST_DAYS,
      defaultTimeZone,
    });
  }

  /**
   * The chart of the entity that fired most (else the first), with the rule's line where it has
   * a fixed one, uploaded as a file shared nowhere; undefined when it cannot be drawn or uploaded.
   */
  async chart(result: BacktestResult, rule: AlertRule): Promise<BacktestChart | undefined> {
    const line = backtestChartLine(result, rule);
    if (!line) return undefined;
    const column = describeColumn({ key: line.metric, kind: 'metric', name: line.metric, args: {} });
    const unit = column.unit === 'text' || column.unit === 'time' ? 'count' : column.unit;
    const view = alertChartView({
      title: `${result.ruleName}: the last ${result.days} days`,
      metric: { key: line.metric, label: column.label, unit, polarity: column.polarity },
      points: line.points.map((p) => ({ at: p.at, value: p.value })),
      ...(line.threshold !== undefined ? { threshold: line.threshold } : {}),
      entity: line.label,
      timezone: result.timezone,
    });
    if (!view) return undefined;
    try {
      const png = await this.deps.charts.renderView(view);
      if (!png) return undefined;
      const id = await this.deps.slack.uploadPrivate({
        filename: `backtest-${result.ruleId}.png`,
        data: png.data,
        title: png.alt,
        altText: png.alt,
      });
      return id === undefined ? undefined : { slackFileId: id, alt: png.alt };
    } catch (error) {
      this.deps.logger.warn({ err: toError(error), rule: result.ruleId }, 'backtest chart unavailable');
      return undefined;
    }
  }
}
