/**
 * The buttons under a result: run it again (another range), its CSV into the thread, Explain.
 * The button's value says which report or query; where the click happened says where to answer.
 */
import type { Logger } from '../../core/index.js';
import { ACTION_IDS, type ReportActionValue } from '../../render/index.js';
import type { SlackGateway } from '../../slackapi/index.js';
import type { SlackAction } from '../receiver/index.js';
import type { PivotCommands } from './PivotCommands.js';
import { noticeMessage } from './screens/infoMessages.js';

/**
 * One click on a result's button. Never throws: a click that cannot run tells the clicker why.
 *
 * @example await reportButton(action, { commands, gateway, logger })
 */
export async function reportButton(
  action: SlackAction,
  deps: { commands: PivotCommands; gateway: SlackGateway; logger: Logger },
): Promise<void> {
  const { commands, gateway, logger } = deps;
  const { channelId, responseUrl } = action;
  if (!channelId || !responseUrl) {
    // Nowhere to post the result (or its errors): the clicker hears so wherever Slack allows.
    logger.warn(
      { userId: action.userId, actionId: action.actionId, channelId, hasResponseUrl: responseUrl !== undefined },
      'button click without a channel or response URL: not run',
    );
    const note = noticeMessage(
      'I could not tell which channel that button is in, so nothing ran; run the command again in the channel.',
    );
    return responseUrl
      ? gateway.respond(responseUrl, note)
      : channelId
        ? gateway.ephemeral(channelId, action.userId, note)
        : gateway.post(action.userId, note).then(() => undefined);
  }
  const value = parseActionValue(action.value);
  if (!value) {
    return gateway.respond(
      responseUrl,
      noticeMessage('That button is from an older pivotbot version; run the command again.'),
    );
  }
  const ctx = { userId: action.userId, channelId, responseUrl, triggerId: action.triggerId };
  const query = value.query !== undefined ? { query: value.query } : {};
  if (action.actionId === ACTION_IDS.explain) {
    // The explanation goes into the answer's thread (or the thread the answer is in).
    const threadTs = action.threadTs ?? action.messageTs;
    return commands.queries.explainClick(
      { reportId: value.reportId, ...query, ...(value.range ? { range: value.range } : {}) },
      { ...ctx, ...(threadTs ? { threadTs } : {}) },
    );
  }
  const range = action.actionId.startsWith(ACTION_IDS.rangePrefix)
    ? action.actionId.slice(ACTION_IDS.rangePrefix.length)
    : value.range;
  const csv = action.actionId === ACTION_IDS.csv;
  // A result that is itself a reply (an async run's, in its progress thread): the CSV goes
  // into that thread, never under the reply (Slack: "never use a reply's ts").
  const threadTs = csv ? (action.threadTs ?? action.messageTs) : undefined;
  return commands.queries.button(
    { reportId: value.reportId, ...query, ...(range ? { range } : {}), csv },
    { ...ctx, ...(threadTs ? { threadTs } : {}) },
  );
}

/** A button's value: `{ reportId, range?, query? }` as JSON; undefined when unreadable. */
export function parseActionValue(raw: string | undefined): (ReportActionValue & { query?: string }) | undefined {
  if (!raw) return undefined;
  try {
    const value = JSON.parse(raw) as Record<string, unknown>;
    if (typeof value.reportId !== 'string') return undefined;
    return {
      reportId: value.reportId,
      ...(typeof value.range === 'string' ? { range: value.range } : {}),
      ...(typeof value.query === 'string' ? { query: value.query } : {}),
    };
  } catch {
    return undefined;
  }
}
