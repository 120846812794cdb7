/** The answer to an ad-hoc `/pivot` query: what was understood, the query echoed, headline totals, chart, table, CSV and "Schedule this" buttons. */
import type { ReportView } from '../../view/index.js';
import { fitMessage } from '../slackLimits.js';
import { ACTION_IDS, type ReportActionValue } from './actionIds.js';
import { type DigestOptions, fallbackText, footer, resultBlocks } from './digestMessage.js';
import { button, context, escapeMrkdwn, mrkdwn } from './text.js';
import type { Block, SlackMessage } from './types.js';

/** Slack allows 2,000 characters in a button value; the JSON around the query needs some. */
const MAX_QUERY_IN_BUTTON = 1_500;

export interface AdhocOptions extends DigestOptions {
  /** What the user typed, echoed so the channel sees the question with the answer. */
  query: string;
  /** Slack user id of who asked, shown as a mention. */
  userId?: string;
  /**
   * The answer to a reply in a thread: its first line is the whole refined query in catalog terms
   * (`understood`), then the reply and what it changed.
   */
  followUp?: { understood: string; reply: string; changed: string };
}

/**
 * The message answering an ad-hoc query, fitted to Slack's limits.
 *
 * @example adhocMessage(view, { query: 'installs by country last 7 days', userId: 'U123' })
 */
export function adhocMessage(view: ReportView, options: AdhocOptions): SlackMessage {
  const cuts: string[] = [];
  const csvName = options.csvName ?? (view.csvPath ? view.csvPath.split(/[\\/]/).pop() : undefined);
  const who = options.userId ? `<@${escapeMrkdwn(options.userId)}> ${options.followUp ? 'replied' : 'asked'} ` : '';
  const code = (text: string) => `\`${escapeMrkdwn(text.replace(/`/g, "'"))}\``;
  const asked = options.followUp
    ? `${who}${code(options.followUp.reply)} · ${escapeMrkdwn(options.followUp.changed)}`
    : `${who}${code(options.query)}`;
  // First what was understood, in the catalog's words (an ad-hoc definition's description), so
  // people who typed "cpi by country" learn "installsCpi by countryCode"; a follow-up's answer
  // states the whole refined query, so nobody has to guess what changed.
  const understoodText = options.followUp?.understood ?? view.description;
  const understood = understoodText ? `${code(understoodText)}\n` : '';
  const blocks: Block[] = [
    { type: 'section', text: mrkdwn(`${understood}${asked}`) },
    context(
      `:calendar: ${escapeMrkdwn(view.range.label)}  ·  ${escapeMrkdwn(view.range.timezone)}${view.filtersText ? `  ·  ${escapeMrkdwn(view.filtersText)}` : ''}`,
    ),
    ...resultBlocks(view, options, cuts),
    context(footer(view, csvName)),
  ];
  // The buttons carry the query (to fetch its CSV, or to save it as a scheduled query); one too
  // long for a button value gets no buttons.
  if (options.buttons !== false && options.query.length <= MAX_QUERY_IN_BUTTON) {
    const value = { reportId: view.reportId, query: options.query } satisfies ReportActionValue;
    blocks.push({
      type: 'actions',
      elements: [
        ...(csvName ? [button('Download CSV', ACTION_IDS.csv, value)] : []),
        button('Schedule this', ACTION_IDS.scheduleThis, value),
        button('Watch this', ACTION_IDS.watchThis, value),
        ...(view.comparison ? [button('Explain', ACTION_IDS.explain, value)] : []),
      ],
    });
  }
  return fitMessage({ text: fallbackText(view), blocks }, { cuts, ...(csvName ? { csvName } : {}) }).message;
}
