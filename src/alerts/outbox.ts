/**
 * The incidents' outbox: what an evaluation owes the threads, written in the same store write as
 * the evaluation and removed as each effect lands in Slack. A crash, a Slack failure or a restart
 * then loses nothing: whoever delivers next (a retried slot, the next evaluation, start-up) finds
 * it still owed. Pure: the Slack side decides when something landed.
 */
import type { AlertIncident, OwedReply } from '../store/index.js';
import type { AlertTransition, RuleEvaluation } from './types.js';

/** The reply each transition posts in its threads (an `open` posts the parent instead). */
export const REPLY_KIND = { remind: 'reminder', bigMove: 'bigMove', resolve: 'resolved', reopen: 'reopened' } as const;

/** What one evaluation owes one incident's threads. */
export interface OwedNotices {
  replies: OwedReply[];
  /** Resolve and reopen redraw the parents. */
  edit: boolean;
}

/**
 * The notices an evaluation's transitions owe, per incident id. A reply is owed only when the
 * transition notifies (a reopening during a snooze edits the parents and says nothing). Notice ids
 * are `<kind>@<evaluation instant>`: a retried evaluation of the same slot owes the same ids.
 *
 * @example oweNotices(evaluation.transitions, slot).get(incident.id) // { replies: [{ id: 'resolved@2026-11-23T12:00:00.000Z', … }], edit: true }
 */
export function oweNotices(transitions: readonly AlertTransition[], at: Date): Map<string, OwedNotices> {
  const iso = at.toISOString();
  const out = new Map<string, OwedNotices>();
  for (const t of transitions) {
    if (t.kind === 'open') continue;
    const owed = out.get(t.incident.id) ?? { replies: [], edit: false };
    if (t.kind === 'resolve' || t.kind === 'reopen') owed.edit = true;
    if (t.notify) {
      const kind = REPLY_KIND[t.kind];
      const reply: OwedReply = { id: `${kind}@${iso}`, kind, at: iso, value: t.value, condition: t.condition };
      if (t.previousValue !== undefined) reply.previousValue = t.previousValue;
      owed.replies.push(reply);
    }
    out.set(t.incident.id, owed);
  }
  return out;
}

/**
 * The incident to store: `next` (the evaluation's) with the outbox of `stored` (what the store
 * holds now, which a concurrent delivery may have shortened) plus what this evaluation owes.
 */
export function withOwed(
  next: AlertIncident,
  stored: AlertIncident | undefined,
  owed: OwedNotices | undefined,
): AlertIncident {
  const out: AlertIncident = { ...next };
  delete out.owedReplies;
  delete out.owedEdit;
  const kept = stored?.owedReplies ?? [];
  const fresh = (owed?.replies ?? []).filter((r) => !kept.some((k) => k.id === r.id));
  const replies = [...kept, ...fresh];
  if (replies.length > 0) out.owedReplies = replies;
  if (stored?.owedEdit || owed?.edit) out.owedEdit = true;
  return out;
}

/**
 * The store write of an evaluation with its outbox: `nextState` whose incidents carry what the
 * transitions owe the threads (and what `stored` still owed), so both land in one write.
 *
 * @example await store.incidents.applyEvaluation(owedWrite(evaluation, slot, (id) => store.incidents.get(id)))
 */
export function owedWrite(
  evaluation: RuleEvaluation,
  at: Date,
  stored: (id: string) => AlertIncident | undefined,
): RuleEvaluation['nextState'] {
  const owed = oweNotices(evaluation.transitions, at);
  const incidents = evaluation.nextState.incidents.map((i) => withOwed(i, stored(i.id), owed.get(i.id)));
  return { evaluation: evaluation.nextState.evaluation, incidents };
}

/** Whether the incident still owes its threads anything. */
export function owesThreads(incident: AlertIncident): boolean {
  return incident.owedEdit === true || (incident.owedReplies?.length ?? 0) > 0;
}

/**
 * `incident` after a reply landed in the thread of parent `parentTs`: the reply leaves the outbox
 * once every parent in `parents` has it.
 */
export function replySent(
  incident: AlertIncident,
  replyId: string,
  parentTs: string,
  parents: readonly string[],
): AlertIncident {
  const replies: OwedReply[] = [];
  for (const reply of incident.owedReplies ?? []) {
    if (reply.id !== replyId) {
      replies.push(reply);
      continue;
    }
    const sentTo = [...new Set([...(reply.sentTo ?? []), parentTs])];
    if (parents.every((ts) => sentTo.includes(ts))) continue;
    replies.push({ ...reply, sentTo });
  }
  const out: AlertIncident = { ...incident };
  if (replies.length > 0) out.owedReplies = replies;
  else delete out.owedReplies;
  return out;
}

/** `incident` once its parents were redrawn. */
export function editDone(incident: AlertIncident): AlertIncident {
  const out: AlertIncident = { ...incident };
  delete out.owedEdit;
  return out;
}
