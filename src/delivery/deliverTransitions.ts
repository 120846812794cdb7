/** Telling an alert rule's threads what its evaluations decided: missing parents first, then every owed reply and edit. */
import { type AlertTransition, oweNotices, owesThreads } from '../alerts/index.js';
import type { AlertIncident } from '../store/index.js';
import { ensureParents, mayLackParents } from './alertParents.js';
import { deliverOwed } from './alertReplies.js';
import type { RuleThreads, ThreadDeps } from './alertThreads.js';

export interface AlertSlotOutcome {
  transitions: number;
  parents: number;
  replies: number;
  edits: number;
}

/**
 * Tells the threads what the rule's evaluations decided, after the state is stored: first a
 * parent for every open incident that lacks one (opened now, or by an attempt that died; those
 * after a history check), then each incident's outbox (parent edits and replies still owed, from
 * this evaluation or an earlier one that failed or died). `transitions` are this evaluation's:
 * what they owe was stored by this very attempt, so only attempt 1 skips the thread checks.
 *
 * @example await deliverTransitions(threads, evaluation.transitions, deps, { attempt: 1, at: slot })
 */
export async function deliverTransitions(
  threads: RuleThreads,
  transitions: readonly AlertTransition[],
  deps: ThreadDeps,
  options: {
    attempt: number;
    /** The evaluation's instant (the notices' ids); default `threads.now`. */
    at?: Date;
    chartPoints?: ReadonlyMap<string, ReadonlyArray<{ at: string; value: number }>>;
    /** Incidents whose chart values could not be fetched: their parents say "chart unavailable". */
    chartUnavailable?: ReadonlySet<string>;
  },
): Promise<Omit<AlertSlotOutcome, 'transitions'>> {
  const { report, rule, channels } = threads;
  const store = deps.store.incidents;
  const outcome = { parents: 0, replies: 0, edits: 0 };
  // One thread that cannot be told (a channel that refuses the bot) does not silence the others:
  // the first failure is raised once everything else was tried, so the slot is retried.
  let failure: { error: unknown } | undefined;
  const attempt = async (what: Record<string, unknown>, work: () => Promise<void>): Promise<boolean> => {
    try {
      await work();
      return true;
    } catch (error) {
      deps.logger.warn({ ...what, err: error }, 'alert thread not updated');
      failure ??= { error };
      return false;
    }
  };
  const firstAttempt = options.attempt <= 1;
  const openedNow = new Set(transitions.filter((t) => t.kind === 'open').map((t) => t.incident.id));
  // What this very attempt stored cannot have been posted before: its replies skip the thread check.
  const fresh = new Map<string, Set<string>>();
  if (firstAttempt) {
    for (const [id, owed] of oweNotices(transitions, options.at ?? threads.now))
      fresh.set(id, new Set(owed.replies.map((r) => r.id)));
  }
  const lacking = new Set<string>();
  for (const incident of store.listByReportRule(report.id, rule.id)) {
    if (incident.state !== 'open') continue;
    if (!mayLackParents(channels, incident)) continue;
    const before = countParents(incident);
    const points = options.chartPoints?.get(incident.id);
    const done = await attempt({ incident: incident.id }, async () => {
      const saved = await ensureParents(threads, incident, deps, {
        checkHistory: !openedNow.has(incident.id) || !firstAttempt,
        ...(points ? { chartPoints: points } : {}),
        ...(options.chartUnavailable?.has(incident.id) ? { chartUnavailable: true } : {}),
      });
      outcome.parents += countParents(saved) - before;
    });
    // Replies wait for every parent: the slot fails and its retry posts the parent, then them.
    if (!done) lacking.add(incident.id);
  }
  for (const incident of [...store.listByReportRule(report.id, rule.id)].reverse()) {
    if (!owesThreads(incident) || lacking.has(incident.id)) continue;
    await attempt({ incident: incident.id, owed: true }, async () => {
      const sent = await deliverOwed(threads, incident, deps, { fresh: fresh.get(incident.id) ?? new Set() });
      outcome.replies += sent.replies;
      outcome.edits += sent.edits;
    });
  }
  if (failure) throw failure.error;
  return outcome;
}

function countParents(incident: AlertIncident): number {
  return (incident.threadTs ? 1 : 0) + (incident.threads?.length ?? 0);
}
