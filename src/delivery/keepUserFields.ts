/** What an evaluation's write keeps of an incident as stored: the fields people set, which it never takes back. */
import type { AlertIncident } from '../store/index.js';

/** Fields people set on an incident (buttons) or the poster records: an evaluation never takes them back. */
const KEPT_FIELDS = ['acknowledgedBy', 'acknowledgedAt', 'snoozedUntil', 'threadTs', 'threads', 'chartFileId'] as const;

/**
 * The incident an evaluation writes, with what people set since it was read (an acknowledgement,
 * a snooze, a thread posted) kept, unless a reopening cleared it on purpose.
 *
 * @example const incidents = next.incidents.map((i) => keepUserFields(i, store.get(i.id)));
 */
export function keepUserFields(next: AlertIncident, current: AlertIncident | undefined): AlertIncident {
  if (!current) return next;
  const out: Record<string, unknown> = { ...next };
  for (const field of KEPT_FIELDS) {
    if (current[field] !== undefined && next[field] === undefined) out[field] = current[field];
  }
  // A reopening clears the acknowledgement on purpose; keep only one given since.
  if (
    next.reopenedAt !== undefined &&
    current.acknowledgedAt !== undefined &&
    current.acknowledgedAt < next.reopenedAt
  ) {
    delete out.acknowledgedBy;
    delete out.acknowledgedAt;
  }
  if (current.channel !== next.channel && current.threadTs !== undefined) out.channel = current.channel;
  return out as unknown as AlertIncident;
}
