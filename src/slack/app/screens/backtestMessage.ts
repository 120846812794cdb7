/**
 * `/pivot backtest`'s answer and the Watch-this modal's preview: the backtest's sentence, how it
 * was replayed, the incidents per entity (a few), and the chart of the metric with the rule's line.
 * Pure: the chart comes as an uploaded file's id.
 */
import { type BacktestResult, backtestSummary, backtestValue, conditionText, shortDay } from '../../../alerts/index.js';
import {
  type Block,
  escapeMrkdwn,
  fitText,
  mrkdwnContext,
  mrkdwnSection,
  SLACK_LIMITS,
  type SlackMessage,
} from '../../../render/index.js';

/** Transitions listed at most; the rest is counted. */
const MAX_EVENTS = 12;
const KIND_WORDS = { open: 'opens', remind: 'reminds', bigMove: 'moves far', resolve: 'resolves', reopen: 'reopens' };

/** The chart's image block, when one was drawn and uploaded. */
export interface BacktestChart {
  slackFileId: string;
  alt: string;
}

/** "How": the evaluations, their timing and the queries it took. */
export function backtestHow(result: BacktestResult): string {
  const queries = `${result.queries} ${result.queries === 1 ? 'query' : 'queries'}`;
  return `${result.evaluations} evaluations at ${result.timing} · ${queries} · times in ${result.timezone}`;
}

/** The blocks of a backtest: sentence, how, events, chart. */
export function backtestBlocks(result: BacktestResult, chart?: BacktestChart, maxEvents = MAX_EVENTS): Block[] {
  const title = `*${escapeMrkdwn(result.ruleName)}* (\`${escapeMrkdwn(result.reportId)}\` · \`${escapeMrkdwn(result.ruleId)}\`)`;
  const blocks: Block[] = [
    mrkdwnSection(fitText(`${title} ${escapeMrkdwn(backtestSummary(result))}.`, SLACK_LIMITS.sectionText)),
    mrkdwnContext(escapeMrkdwn(backtestHow(result))),
  ];
  const lines = result.events.slice(0, maxEvents).map((e) => {
    const lasted = e.durationMs === undefined ? '' : ` after ${Math.max(1, Math.round(e.durationMs / 3_600_000))} h`;
    return `• ${shortDay(e.day)}: *${escapeMrkdwn(e.entityLabel)}* ${KIND_WORDS[e.kind]} at ${escapeMrkdwn(backtestValue(e.value))} (${escapeMrkdwn(conditionText(e.condition))})${lasted}`;
  });
  if (result.events.length > maxEvents) lines.push(`… and ${result.events.length - maxEvents} more`);
  if (lines.length > 0) blocks.push(mrkdwnSection(fitText(lines.join('\n'), SLACK_LIMITS.sectionText)));
  if (chart) blocks.push({ type: 'image', slack_file: { id: chart.slackFileId }, alt_text: fitText(chart.alt, 2000) });
  return blocks;
}

/**
 * `/pivot backtest <report> [rule]`'s answer: one backtest per rule, and the rules that could
 * not run with why.
 *
 * @example backtestMessage([{ result, chart }], [{ rule: 'cpi-too-high', why: 'siteBundle is kept for 3 months …' }])
 */
export function backtestMessage(
  done: ReadonlyArray<{ result: BacktestResult; chart?: BacktestChart }>,
  refused: ReadonlyArray<{ report: string; rule: string; why: string }>,
): SlackMessage {
  const blocks: Block[] = [];
  for (const { result, chart } of done) blocks.push(...backtestBlocks(result, chart, done.length > 1 ? 6 : MAX_EVENTS));
  for (const r of refused) {
    blocks.push(
      mrkdwnSection(
        fitText(
          `:warning: \`${escapeMrkdwn(r.report)}\` · \`${escapeMrkdwn(r.rule)}\` cannot be backtested: ${escapeMrkdwn(r.why)}`,
          SLACK_LIMITS.sectionText,
        ),
      ),
    );
  }
  const text =
    done.map(({ result }) => `${result.ruleId} ${backtestSummary(result)}`).join('; ') || 'No rule could be backtested';
  return { text: fitText(text, 3000), blocks: blocks.slice(0, 50) };
}
