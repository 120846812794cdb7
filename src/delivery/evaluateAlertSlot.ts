/**
 * The scheduler's runner for one alert slot: the rule evaluated as of the slot (the alert core
 * decides), its next state and what it owes the threads (the outbox) stored in one write, then
 * the threads told. Restart safety: every open incident of the rule without a parent gets one,
 * after the channel's history is checked for a parent an earlier process posted (message
 * metadata), so no incident gets two; every owed reply and parent edit is delivered by whoever
 * comes next (a retried slot, the next evaluation, start-up), a reply after its thread is checked.
 */
import {
  type AlertTransition,
  owedWrite,
  oweNotices,
  owesThreads,
  runRuleEvaluation,
  TREND_DAYS,
} from '../alerts/index.js';
import { ErrorCode, failpoint, toError, UserInputError } from '../core/index.js';
import { explainIncident, explainSettings, movedPast } from '../insights/index.js';
import { compoundOf, findReport, type LoadedReport } from '../reports/index.js';
import type { SlotResult, SlotRun } from '../scheduler/index.js';
import { type AlertIncident, isReplicaStore, type Store } from '../store/index.js';
import { ensureParents, mayLackParents } from './alertParents.js';
import { deliverOwed } from './alertReplies.js';
import { type RuleThreads, ruleRange, type ThreadDeps } from './alertThreads.js';
import type { DigestDeps } from './deliverDigest.js';
import { postExplanation } from './postExplanation.js';

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
    throw new UserInputError(ErrorCode.AlertRuleGone, `report ${spec.report} no longer has an alert rule ${spec.rule}`);
  }
  const channels = report.definition.deliver?.channels ?? [];
  const first = channels[0];
  if (first === undefined) {
    throw new UserInputError(
      ErrorCode.AlertNoChannel,
      `report ${spec.report} has no deliver.channels for alert threads`,
    );
  }
  return oneAtATime(deps.store, `${report.id}/${rule.id}`, async () => {
    const store = deps.store.incidents;
    const stored = store.getEvaluation(report.id, rule.id);
    const range = ruleRange(report, rule, slot, deps.defaultTimeZone);
    const threads: RuleThreads = { report, rule, channels, ...range, now: slot, signal: run.signal };
    const outcome: AlertSlotOutcome = { transitions: 0, parents: 0, replies: 0, edits: 0 };
    let transitions: AlertTransition[] = [];
    const chartPoints = new Map<string, Array<{ at: string; value: number }>>();
    const chartUnavailable = new Set<string>();

    if (stored && Date.parse(stored.lastEvaluatedAt) >= slot.getTime()) {
      deps.logger.info(where, 'alert slot already evaluated by an earlier attempt; delivering what is still owed');
    } else {
      const result = await runRuleEvaluation({
        report,
        rule,
        pivot: (request) => deps.client.pivot(request, { signal: run.signal }),
        state: { incidents: store.listByReportRule(report.id, rule.id), ...(stored ? { evaluation: stored } : {}) },
        now: slot,
        channel: first,
        defaultTimeZone: deps.defaultTimeZone,
        // A threshold or change incident opening has one value: its chart gets the recent days.
        trendDays: TREND_DAYS,
      });
      if (result.trendShape) threads.chartShape = result.trendShape;
      if (result.pacingPath) threads.pacingPath = result.pacingPath;
      if (result.trendError)
        deps.logger.warn({ ...where, err: result.trendError }, 'alert chart values not fetched; the parents say so');
      // The outbox goes in the same write: what the threads are owed survives a crash from here on.
      const next = owedWrite(result.evaluation, slot, (id) => store.get(id));
      // A click while the rule was being queried is not undone by this write.
      const incidents = next.incidents.map((i) => keepUserFields(i, store.get(i.id)));
      await store.applyEvaluation({ evaluation: next.evaluation, incidents });
      transitions = result.evaluation.transitions;
      outcome.transitions = transitions.length;
      deps.logger.debug({ ...where, transitions: transitions.length }, 'alert evaluation stored');
      // The crash test stops the bot here: stored with its outbox, nothing posted yet.
      failpoint('alert-after-evaluation-stored');
      for (const t of transitions) {
        if (t.kind !== 'open') continue;
        if (t.condition.kind === 'anomaly') {
          chartPoints.set(t.incident.id, result.anomalyPoints?.(t.entityKey, t.value) ?? []);
        } else if (t.condition.kind === 'pacing') {
          // Its chart draws the month (`threads.pacingPath`), not recent points.
          chartPoints.set(t.incident.id, []);
        } else if (result.trendError) chartUnavailable.add(t.incident.id);
        else chartPoints.set(t.incident.id, [...(result.trend?.get(t.entityKey) ?? [])]);
      }
    }

    const posted = await deliverTransitions(threads, transitions, deps, {
      chartPoints,
      chartUnavailable,
      attempt: run.attempt,
      at: slot,
    });
    outcome.parents = posted.parents;
    outcome.replies = posted.replies;
    outcome.edits = posted.edits;
    await explainOpened(threads, transitions, deps);
    deps.logger.debug({ ...where, ...outcome }, 'alert slot delivered');
    return {};
  });
}

/** New incidents explained per evaluation: each costs up to the explanation's query budget. */
const EXPLAINED_PER_EVALUATION = 5;

/**
 * The first reply under each incident this evaluation opened: why the rule's metric moved for its
 * entity, against the rule's baseline. Best effort: an explanation that fails is logged and the
 * incident stands without it (a retried slot does not explain again: its transitions are empty).
 */
async function explainOpened(
  threads: RuleThreads,
  transitions: readonly AlertTransition[],
  deps: DigestDeps,
): Promise<void> {
  const settings = explainSettings(threads.report.definition);
  // A compound rule's parent names each condition and its value; one metric's drivers would tell
  // only part of it (spend's drivers say nothing of installs stopping).
  if (!settings.enabled || compoundOf(threads.rule)) return;
  const opened = transitions.filter((t) => t.kind === 'open');
  if (opened.length > EXPLAINED_PER_EVALUATION) {
    deps.logger.info(
      { report: threads.report.id, rule: threads.rule.id, opened: opened.length, explained: EXPLAINED_PER_EVALUATION },
      'more incidents opened than are explained at once; the first ones get an explanation',
    );
  }
  for (const t of opened.slice(0, EXPLAINED_PER_EVALUATION)) {
    const incident = deps.store.incidents.get(t.incident.id);
    if (!incident?.threadTs) continue;
    const where = { incident: incident.id, report: threads.report.id, rule: threads.rule.id };
    try {
      const explained = await explainIncident(
        { report: threads.report, rule: threads.rule, entityKey: incident.entityKey, at: threads.now },
        { ...deps, ...(threads.signal ? { signal: threads.signal } : {}) },
      );
      // A threshold breached by a value that barely moved against the baseline has no "why" to tell.
      const moved = explained.metrics.filter((m) => movedPast(m.explanation, settings.threshold));
      if (moved.length === 0) {
        deps.logger.debug(where, 'the new incident moved less than the explanation threshold; not explained');
        continue;
      }
      await postExplanation(
        { ...explained, metrics: moved },
        {
          title: incident.entityLabel ?? threads.rule.name ?? threads.rule.id,
          channel: incident.channel,
          threadTs: incident.threadTs,
          reportId: threads.report.id,
        },
        deps,
      );
    } catch (error) {
      deps.logger.warn({ ...where, err: error }, 'could not explain the new incident; its thread stands without it');
    }
  }
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

/**
 * At start-up: every incident that still owes its threads something (a crash or a Slack failure
 * after the evaluation was stored) is told now, instead of at its rule's next evaluation. Thread
 * checks guard every reply (nothing is fresh). Returns how many incidents were told; one that
 * fails is logged and left owed for the next evaluation.
 */
export async function deliverOwedAlerts(deps: DigestDeps): Promise<number> {
  const owing = owingIncidents(deps);
  if (owing.length === 0) return 0;
  const loaded = await deps.loadReports();
  let told = 0;
  for (const [key, incidents] of groupByRule(owing)) {
    const [reportId, ruleId] = key.split('/') as [string, string];
    const report = loaded.reports.find((r: LoadedReport) => r.id === reportId);
    const rule = report?.definition.alerts.find((r) => r.id === ruleId);
    const channels = report?.definition.deliver?.channels ?? [];
    if (!report || !rule || channels.length === 0) {
      deps.logger.warn({ report: reportId, rule: ruleId }, 'alert notices owed by a rule that is gone; left owed');
      continue;
    }
    const now = deps.clock();
    const threads: RuleThreads = {
      report,
      rule,
      channels,
      ...ruleRange(report, rule, now, deps.defaultTimeZone),
      now,
      signal: deps.signal,
    };
    await oneAtATime(deps.store, key, async () => {
      for (const incident of incidents) {
        try {
          await deliverOwed(threads, incident, deps, { fresh: new Set() });
          told++;
        } catch (error) {
          deps.logger.warn(
            { incident: incident.id, err: toError(error) },
            'owed alert notice not delivered; the next evaluation retries',
          );
        }
      }
    });
  }
  return told;
}

function owingIncidents(deps: DigestDeps): AlertIncident[] {
  const seen = new Set<string>();
  const out: AlertIncident[] = [];
  for (const evaluation of deps.store.incidents.listEvaluations()) {
    for (const incident of deps.store.incidents.listByReportRule(evaluation.reportId, evaluation.ruleId)) {
      if (seen.has(incident.id) || !owesThreads(incident)) continue;
      seen.add(incident.id);
      out.push(incident);
    }
  }
  return out;
}

function groupByRule(incidents: readonly AlertIncident[]): Map<string, AlertIncident[]> {
  const out = new Map<string, AlertIncident[]>();
  for (const incident of incidents) {
    const key = `${incident.reportId ?? ''}/${incident.ruleId}`;
    out.set(key, [...(out.get(key) ?? []), incident]);
  }
  return out;
}

/**
 * One delivery per rule at a time, in this process and across replicas: start-up's delivery of
 * what is owed and a slot of the same rule would otherwise both post the same reply.
 */
const running = new Map<string, Promise<unknown>>();
async function oneAtATime<T>(store: Store, key: string, work: () => Promise<T>): Promise<T> {
  // Across replicas too: two of them would otherwise evaluate successive slots of one rule at once
  // (the queue hands them to different workers), and both post a parent that is missing.
  // A holder frozen longer than a job heartbeat has had its slot handed over: go ahead then.
  const across = isReplicaStore(store) ? store : undefined;
  const guarded = across
    ? () => across.leases.exclusive(`pivotbot:alert:${key}`, across.queue.heartbeatMs, work)
    : work;
  const before = running.get(key) ?? Promise.resolve();
  const mine = before.catch(() => undefined).then(guarded);
  running.set(key, mine);
  try {
    return await mine;
  } finally {
    if (running.get(key) === mine) running.delete(key);
  }
}

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
