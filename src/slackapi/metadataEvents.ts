/**
 * The event types of pivotbot's Slack message metadata, in one place: what a digest, an alert
 * parent (and its replies) and an answer carry. After a crash the channel's history (read with
 * `include_all_metadata`) tells whether a post went out (DESIGN.md, restart safety), and a reply in
 * an answer's thread refines the query its metadata keeps.
 */

/** A scheduled digest: `{ report, channel, slot, late }`. */
export const DIGEST_EVENT = 'pivotbot_digest';
/**
 * A digest's explanation ranking, in the digest's thread: `{ report, channel, slot }`. A retry of the
 * digest's explanation step reads the thread for it before posting the ranking again.
 */
export const DIGEST_EXPLANATION_EVENT = 'pivotbot_digest_explanation';
/** An alert parent and the replies in its thread: `{ report, rule, entity, state }`. */
export const ALERT_EVENT = 'pivotbot_alert';
/** An answer to `/pivot`, a DM or a mention: `{ query }`. */
export const ANSWER_EVENT = 'pivotbot_answer';

export type PivotbotEventType =
  | typeof DIGEST_EVENT
  | typeof DIGEST_EXPLANATION_EVENT
  | typeof ALERT_EVENT
  | typeof ANSWER_EVENT;

/**
 * The message metadata of an alert parent: after a crash, the channel's history says whether
 * the parent of this (report, rule, entity) went out.
 *
 * @example alertMetadata(input, 'open') // { event_type: 'pivotbot_alert', event_payload: { report, rule, entity, state: 'open' } }
 */
export function alertMetadata(
  input: { reportId: string; ruleId: string; entity?: string; entityKey?: string },
  state: 'open' | 'resolved',
): { event_type: string; event_payload: { report: string; rule: string; entity: string; state: string } } {
  return {
    event_type: ALERT_EVENT,
    event_payload: {
      report: input.reportId,
      rule: input.ruleId,
      entity: input.entityKey ?? input.entity ?? 'total',
      state,
    },
  };
}

/**
 * The message metadata of an answer: the query it ran, which a reply in its thread refines.
 *
 * @example answerMetadata('cpi by country yesterday') // { event_type: 'pivotbot_answer', event_payload: { query: 'cpi by country yesterday' } }
 */
export function answerMetadata(query: string): { event_type: string; event_payload: { query: string } } {
  return { event_type: ANSWER_EVENT, event_payload: { query } };
}
