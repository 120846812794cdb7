/**
 * The shared start of a button on an answer that saves something ("Schedule this", an admin's;
 * "Watch this", anyone's): who may click it, and the query and channel the button carries.
 */
import type { SlackAction } from '../receiver/index.js';
import type { PivotCommandsDeps } from './answers.js';
import { noticeMessage } from './screens/infoMessages.js';

/**
 * How to answer the clicker privately, and the answer's query and channel; undefined when the
 * clicker was already told why not (not an admin, unless `anyone`; or a button from an older version).
 */
export async function adminClick(
  deps: PivotCommandsDeps,
  event: SlackAction,
  what: string,
  options: { anyone?: boolean } = {},
): Promise<{ answer: (text: string) => Promise<void>; query: string; channelId: string } | undefined> {
  const { slack, settings } = deps;
  const answer = async (text: string): Promise<void> => {
    await (event.responseUrl
      ? slack.respond(event.responseUrl, noticeMessage(text))
      : slack.ephemeral(event.channelId ?? event.userId, event.userId, noticeMessage(text)));
  };
  if (!options.anyone && !settings.admins.includes(event.userId)) {
    await answer(
      `:no_entry: Only pivotbot admins can ${what}. Ask one of them, or the operator who runs pivotbot can add you to its admins.`,
    );
    return undefined;
  }
  const query = queryOfButton(event.value);
  if (!query || !event.channelId) {
    await answer('That button is from an older pivotbot version; run the query again.');
    return undefined;
  }
  return { answer, query, channelId: event.channelId };
}

/** The query a "Schedule this" button carries (`{ reportId: 'adhoc', query }`). */
export function queryOfButton(raw: string | undefined): string | undefined {
  try {
    const value = JSON.parse(raw ?? '') as { query?: unknown };
    return typeof value.query === 'string' && value.query.trim() !== '' ? value.query : undefined;
  } catch {
    return undefined;
  }
}
