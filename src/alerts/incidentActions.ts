/**
 * What the Acknowledge and Snooze buttons do to an incident, as pure functions: the Slack handler
 * loads the incident, applies one of these, saves the result and redraws the parent.
 */
import { ErrorCode, UserInputError } from '../core/index.js';
import type { AlertIncident } from '../store/index.js';

/** The snooze lengths the buttons offer. */
export const SNOOZE_HOURS = [1, 4, 24] as const;
const MAX_SNOOZE_HOURS = 7 * 24;

/** A button press on an incident that no longer takes it (resolved, unknown length). */
export class IncidentActionError extends UserInputError {}

/**
 * Records who acknowledged an open incident and when: reminders stop (a large move still
 * replies). Acknowledging again keeps the first acknowledgement.
 *
 * @example acknowledge(incident, 'U024BE7LH', new Date())
 */
export function acknowledge(incident: AlertIncident, user: string, now: Date): AlertIncident {
  if (incident.state !== 'open') {
    throw new IncidentActionError(
      ErrorCode.IncidentNotOpen,
      'This incident is already resolved; there is nothing to acknowledge.',
    );
  }
  if (incident.acknowledgedBy !== undefined) return incident;
  const at = now.toISOString();
  return { ...incident, acknowledgedBy: user, acknowledgedAt: at, updatedAt: at };
}

/**
 * Silences an incident for `hours` from now: no reminder, large-move or reopening message until
 * then (it still resolves). A later snooze replaces an earlier one.
 *
 * @example snooze(incident, 4, new Date())
 */
export function snooze(incident: AlertIncident, hours: number, now: Date): AlertIncident {
  if (!Number.isInteger(hours) || hours < 1 || hours > MAX_SNOOZE_HOURS) {
    throw new IncidentActionError(
      ErrorCode.SnoozeInvalid,
      `A snooze lasts 1 to ${MAX_SNOOZE_HOURS} whole hours (the buttons offer ${SNOOZE_HOURS.join(', ')}); got ${hours}.`,
    );
  }
  if (incident.state !== 'open') {
    throw new IncidentActionError(
      ErrorCode.IncidentNotOpen,
      'This incident is already resolved; there is nothing to snooze.',
    );
  }
  const at = now.toISOString();
  return { ...incident, snoozedUntil: new Date(now.getTime() + hours * 3_600_000).toISOString(), updatedAt: at };
}
