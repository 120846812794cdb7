/** The answer to an ad-hoc `/pivot` query: the query echoed, headline totals, chart, table, CSV button. */
import type { ReportView } from '../../reports/ReportView.js';
import { fitMessage } from '../slackLimits.js';
import { ACTION_IDS } from './actionIds.js';
import { type DigestOptions, fallbackText, footer, resultBlocks } from './digestMessage.js';
import { button, context, escapeMrkdwn, mrkdwn } from './text.js';
import type { Block, SlackMessage } from './types.js';

export interface AdhocOptions extends DigestOptions {
  /** What the user typed, echoed so the channel sees the question with the answer. */
  query: string;
  /** Slack user id of who asked, shown as a mention. */
  userId?: string;
}

/**
 * The message answering an ad-hoc query, fitted to Slack's limits.
 *
 * @example adhocMessage(view, { query: 'installs by country last 7 days', userId: 'U123' })
 */
export function adhocMessage(view: ReportView, options: AdhocOptions): SlackMessage {
  const cuts: string[] = [];
  const csvName = options.csvName ?? (view.csvPath ? view.csvPath.split(/[\\/]/).pop() : undefined);
  const who = options.userId ? `<@${escapeMrkdwn(options.userId)}> asked ` : '';
  const blocks: Block[] = [
    { type: 'section', text: mrkdwn(`${who}\`${escapeMrkdwn(options.query.replace(/`/g, "'"))}\``) },
    context(
      `:calendar: ${escapeMrkdwn(view.range.label)}  ·  ${escapeMrkdwn(view.range.timezone)}${view.filtersText ? `  ·  ${escapeMrkdwn(view.filtersText)}` : ''}`,
    ),
    ...resultBlocks(view, options, cuts),
    context(footer(view, csvName)),
  ];
  if (options.buttons !== false && csvName) {
    blocks.push({
      type: 'actions',
      elements: [
        button('Download CSV', ACTION_IDS.csv, { reportId: view.reportId, query: options.query.slice(0, 1500) }),
      ],
    });
  }
  return fitMessage({ text: fallbackText(view), blocks }, { cuts, ...(csvName ? { csvName } : {}) }).message;
}
