/**
 * An alert incident's outbox delivered to its threads: the parents redrawn when owed, then each
 * owed reply (reminder, large move, reopened, resolved) in every thread, each recorded right after
 * it lands, and looked for in the thread first when an earlier process may have posted it.
 */
import { editDone, owesThreads, replySent } from '../alerts/index.js';
import { failpoint } from '../core/index.js';
import { alertMessageInput } from '../insights/index.js';
import { type AlertMessageInput, alertReplyMessage } from '../render/index.js';
import { ALERT_EVENT, alertMetadata, type HistoryMessage } from '../slackapi/index.js';
import type { AlertIncident, OwedReply } from '../store/index.js';
import { editParents } from './alertParents.js';
import {
  GONE_LOG,
  HISTORY_PAGE,
  HISTORY_PAGES,
  messageContext,
  parentsOf,
  type RuleThreads,
  type ThreadDeps,
  threadGone,
} from './alertThreads.js';

function clearReplies(incident: AlertIncident): AlertIncident {
  const out = { ...incident };
  delete out.owedReplies;
  return out;
}

/** A reply's metadata: the incident's, plus the incident and notice ids a restart looks for in the thread. */
export function replyMetadata(
  input: AlertMessageInput,
  incident: AlertIncident,
  reply: OwedReply,
): { event_type: string; event_payload: Record<string, string> } {
  const base = alertMetadata(
    { ...input, entityKey: incident.entityKey },
    incident.state === 'resolved' ? 'resolved' : 'open',
  );
  return {
    event_type: base.event_type,
    event_payload: { ...base.event_payload, incident: incident.id, notice: reply.id },
  };
}

/** The reply `reply` in a thread read back from Slack (a post an earlier process made), if any. */
export function findAlertReply(
  messages: readonly HistoryMessage[],
  incident: AlertIncident,
  reply: OwedReply,
): HistoryMessage | undefined {
  return messages.find(
    (m) =>
      m.metadata?.event_type === ALERT_EVENT &&
      m.metadata.event_payload.incident === incident.id &&
      m.metadata.event_payload.notice === reply.id,
  );
}

/**
 * Delivers what the incident's outbox still owes its threads, oldest first, recording each effect
 * right after it lands: the parents redrawn in the current state (idempotent), then each owed reply
 * in every thread. A reply not owed by this very attempt (`fresh`) may have been posted by a
 * process that died before recording it, so its thread is read first (`conversations.replies`
 * with metadata) and a found reply is recorded instead of posted again. The first failure stops
 * this incident's outbox (later notices keep their order) and is raised.
 */
export async function deliverOwed(
  threads: RuleThreads,
  incident: AlertIncident,
  deps: ThreadDeps,
  options: { fresh: ReadonlySet<string> },
): Promise<{ replies: number; edits: number }> {
  const out = { replies: 0, edits: 0 };
  const store = deps.store.incidents;
  const latest = (): AlertIncident => store.get(incident.id) ?? incident;
  let current = latest();
  if (!owesThreads(current)) return out;
  const parents = parentsOf(current);
  if (parents.length === 0) {
    // Open: the missing parent goes out first (with the current state), then the replies. Resolved:
    // no parent will ever be posted, so there is no thread to tell.
    if (current.state === 'resolved') {
      deps.logger.info({ incident: current.id }, 'resolved alert incident never got a thread; nothing to tell');
      await store.save(editDone(clearReplies(latest())));
    }
    return out;
  }
  if (current.owedEdit) {
    out.edits += await editParents(threads, current, deps, { skipGone: true });
    current = await store.save(editDone(latest()));
  }
  const tsList = parents.map((p) => p.ts);
  for (const reply of current.owedReplies ?? []) {
    const input = alertMessageInput(current, messageContext(threads, current), reply);
    const message = alertReplyMessage(input, reply.kind);
    for (const parent of parents) {
      if (reply.sentTo?.includes(parent.ts)) continue;
      const where = { incident: current.id, notice: reply.id, channel: parent.channel, thread: parent.ts };
      try {
        let found: HistoryMessage | undefined;
        if (!options.fresh.has(reply.id)) {
          const thread = await deps.slack.replies(parent.channel, parent.ts, {
            oldest: (Date.parse(reply.at) / 1000 - 60).toFixed(6),
            includeAllMetadata: true,
            limit: HISTORY_PAGE,
            pages: HISTORY_PAGES,
            until: (m) => findAlertReply([m], current, reply) !== undefined,
            ...(threads.signal ? { signal: threads.signal } : {}),
          });
          found = findAlertReply(thread, current, reply);
          if (found)
            deps.logger.info(
              { ...where, ts: found.ts },
              'alert reply already posted by an earlier process; recording it',
            );
        }
        if (!found) {
          await deps.slack.post(parent.channel, message, {
            threadTs: parent.ts,
            metadata: replyMetadata(input, current, reply),
            ...(threads.signal ? { signal: threads.signal } : {}),
          });
          deps.logger.debug({ ...where, kind: reply.kind }, 'alert reply posted');
          // The crash test stops the bot here: posted, not yet recorded.
          failpoint('alert-after-reply-post');
          out.replies++;
        }
      } catch (error) {
        if (!threadGone(error)) throw error;
        deps.logger.warn({ ...where, err: error }, GONE_LOG);
      }
      current = await store.save(replySent(latest(), reply.id, parent.ts, tsList));
    }
  }
  return out;
}
