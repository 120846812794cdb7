/**
 * The scheduler's runner for one alert slot: the rule evaluated as of the slot (the alert core
 * decides), its next state stored in one write, then the threads told. Restart safety: every
 * open incident of the rule without a parent gets one, after the channel's history is checked for
 * a parent an earlier process posted (message metadata), so no incident gets two.
 */
import { type AlertTransition, alertMessageInput, runRuleEvaluation } from '../alerts/index.js';
import { UserInputError } from '../core/index.js';
import { findReport } from '../reports/index.js';
import type { SlotResult, SlotRun } from '../scheduler/index.js';
import type { AlertIncident } from '../store/index.js';
import {
  editParents,
  ensureParents,
  messageContext,
  type RuleThreads,
  replyInThreads,
  ruleRange,
  type ThreadDeps,
} from './alertThreads.js';
import type { DigestDeps } from './deliverDigest.js';

/** Fields people set on an incident (buttons) or the poster records: an evaluation never takes them back. */
const KEPT_FIELDS = ['acknowledgedBy', 'acknowledgedAt', 'snoozedUntil', 'threadTs', 'threads', 'chartFileId'] as const;

export interface AlertSlotOutcome {
  transitions: number;
  parents: number;
  replies: number;
  edits: number;
}

/**
 * Evaluates one claimed alert slot and posts its transitions. A slot an earlier attempt already
 * evaluated (its record is as new as the slot) is not evaluated again: only the missing parents
 * are posted.
 *
 * @example createScheduler({ runSlot: (run) => run.spec.kind === 'alert' ? evaluateAlertSlot(run, deps) : deliverDigest(run, deps), … })
 */
export async function evaluateAlertSlot(run: SlotRun, deps: DigestDeps): Promise<SlotResult> {
  const { spec, slot } = run;
  const where = { report: spec.report, rule: spec.rule, slot: slot.toISOString(), attempt: run.attempt };
  deps.logger.debug(where, 'alert slot claimed');
  const loaded = await deps.loadReports();
  const report = findReport(loaded, spec.report);
  const rule = report.definition.alerts.find((r) => r.id === spec.rule);
  if (!rule) {
    throw new UserInputError('ALERT_RULE_GONE', `report ${spec.report} no longer has an alert rule ${spec.rule}`);
  }
  const channels = report.definition.deliver?.channels ?? [];
  const first = channels[0];
  if (first === undefined) {
    throw new UserInputError('ALERT_NO_CHANNEL', `report ${spec.report} has no deliver.channels for alert threads`);
  }
  const store = deps.store.incidents;
  const stored = store.getEvaluation(report.id, rule.id);
  const range = ruleRange(report, rule, slot, deps.defaultTimeZone);
  const threads: RuleThreads = { report, rule, channels, ...range, now: slot, signal: run.signal };
  const outcome: AlertSlotOutcome = { transitions: 0, parents: 0, replies: 0, edits: 0 };
  let transitions: AlertTransition[] = [];
  const chartPoints = new Map<string, Array<{ at: string; value: number }>>();

  if (stored && Date.parse(stored.lastEvaluatedAt) >= slot.getTime()) {
    deps.logger.info(where, 'alert slot already evaluated by an earlier attempt; posting only missing parents');
  } else {
    const result = await runRuleEvaluation({
      report,
      rule,
      pivot: (request) => deps.client.pivot(request, { signal: run.signal }),
      state: { incidents: store.listByReportRule(report.id, rule.id), ...(stored ? { evaluation: stored } : {}) },
      now: slot,
      channel: first,
      defaultTimeZone: deps.defaultTimeZone,
    });
    const next = result.evaluation.nextState;
    // A click while the rule was being queried is not undone by this write.
    const incidents = next.incidents.map((i) => keepUserFields(i, store.get(i.id)));
    await store.applyEvaluation({ evaluation: next.evaluation, incidents });
    transitions = result.evaluation.transitions;
    outcome.transitions = transitions.length;
    deps.logger.debug({ ...where, transitions: transitions.length }, 'alert evaluation stored');
    for (const t of transitions) {
      if (t.kind !== 'open') continue;
      const points = t.incident.values.map((v) => ({ at: v.at, value: v.value }));
      chartPoints.set(t.incident.id, [...baselinePoints(result, t), ...points]);
    }
  }

  const posted = await deliverTransitions(threads, transitions, deps, { chartPoints, attempt: run.attempt });
  outcome.parents = posted.parents;
  outcome.replies = posted.replies;
  outcome.edits = posted.edits;
  deps.logger.debug({ ...where, ...outcome }, 'alert slot delivered');
  return {};
}

/**
 * Tells the threads what one evaluation of a rule decided, after its state is stored: first a
 * parent for every open incident that lacks one (opened now, or by an attempt that died; those
 * after a history check), then the replies and parent edits of the other transitions.
 *
 * @example await deliverTransitions(threads, evaluation.transitions, deps, { attempt: 1 })
 */
export async function deliverTransitions(
  threads: RuleThreads,
  transitions: readonly AlertTransition[],
  deps: ThreadDeps,
  options: { attempt: number; chartPoints?: ReadonlyMap<string, ReadonlyArray<{ at: string; value: number }>> },
): Promise<Omit<AlertSlotOutcome, 'transitions'>> {
  const { report, rule, channels } = threads;
  const store = deps.store.incidents;
  const outcome = { parents: 0, replies: 0, edits: 0 };
  // One thread that cannot be told (a channel that refuses the bot) does not silence the others:
  // the first failure is raised once everything else was tried, so the slot is retried.
  let failure: { error: unknown } | undefined;
  const attempt = async (what: Record<string, unknown>, work: () => Promise<void>) => {
    try {
      await work();
    } catch (error) {
      deps.logger.warn({ ...what, err: error }, 'alert thread not updated');
      failure ??= { error };
    }
  };
  const openedNow = new Set(transitions.filter((t) => t.kind === 'open').map((t) => t.incident.id));
  for (const incident of store.listByReportRule(report.id, rule.id)) {
    if (incident.state !== 'open') continue;
    const missing = incident.threadTs === undefined || (incident.threads?.length ?? 0) < channels.length - 1;
    if (!missing) continue;
    const before = countParents(incident);
    const points = options.chartPoints?.get(incident.id);
    await attempt({ incident: incident.id }, async () => {
      const done = await ensureParents(threads, incident, deps, {
        checkHistory: !openedNow.has(incident.id) || options.attempt > 1,
        ...(points ? { chartPoints: points } : {}),
      });
      outcome.parents += countParents(done) - before;
    });
  }
  for (const t of transitions) {
    if (t.kind === 'open') continue;
    const incident = store.get(t.incident.id) ?? t.incident;
    const input = alertMessageInput(incident, messageContext(threads, incident), t);
    await attempt({ incident: incident.id, transition: t.kind }, async () => {
      if (t.kind === 'resolve' || t.kind === 'reopen') outcome.edits += await editParents(threads, incident, deps);
      if (!t.notify) return;
      const kind = REPLY_KIND[t.kind as Exclude<typeof t.kind, 'open'>];
      outcome.replies += await replyInThreads(threads, incident, kind, input, deps);
    });
  }
  if (failure) throw failure.error;
  return outcome;
}

/** The reply each transition posts in its threads. */
const REPLY_KIND = { remind: 'reminder', bigMove: 'bigMove', resolve: 'resolved', reopen: 'reopened' } as const;

function countParents(incident: AlertIncident): number {
  return (incident.threadTs ? 1 : 0) + (incident.threads?.length ?? 0);
}

function keepUserFields(next: AlertIncident, current: AlertIncident | undefined): AlertIncident {
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

/** Anomaly rules: the entity's baseline values at their periods' starts, oldest first, so the parent's chart has a past. */
function baselinePoints(
  result: Awaited<ReturnType<typeof runRuleEvaluation>>,
  t: AlertTransition,
): Array<{ at: string; value: number }> {
  if (t.condition.kind !== 'anomaly' || !result.historyFrom) return [];
  const baseline = result.baselineOf?.(t.entityKey);
  if (!baseline || baseline.length !== result.historyFrom.length) return [];
  return baseline.map((value, i) => ({ at: result.historyFrom?.[i] as string, value })).reverse();
}
