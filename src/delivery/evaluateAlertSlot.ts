/**
 * The scheduler's runner for one alert slot: the rule evaluated as of the slot (the alert core
 * decides), its next state and what it owes the threads (the outbox) stored in one write, then
 * the threads told. Restart safety: every open incident of the rule without a parent gets one,
 * after the channel's history is checked for a parent an earlier process posted (message
 * metadata), so no incident gets two; every owed reply and parent edit is delivered by whoever
 * comes next (a retried slot, the next evaluation, start-up), a reply after its thread is checked.
 */
import { type AlertTransition, owedWrite, runRuleEvaluation, TREND_DAYS } from '../alerts/index.js';
import { ErrorCode, failpoint, UserInputError } from '../core/index.js';
import { findReport } from '../reports/index.js';
import type { SlotResult, SlotRun } from '../scheduler/index.js';
import { countEvaluation } from './alertMetrics.js';
import { type RuleThreads, ruleRange } from './alertThreads.js';
import type { DigestDeps } from './deliverDigest.js';
import { type AlertSlotOutcome, deliverTransitions } from './deliverTransitions.js';
import { explainOpened } from './explainOpened.js';
import { keepUserFields } from './keepUserFields.js';
import { oneAtATime } from './oneAtATime.js';

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
  // The lock covers the evaluation and the threads; the explanations come after it (a long one
  // would hold the rule past the heartbeat other replicas wait for it).
  const { threads, transitions } = await oneAtATime(deps.store, `${report.id}/${rule.id}`, async () => {
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
      const result = await countEvaluation(
        deps.metrics,
        report.id,
        rule.id,
        () =>
          runRuleEvaluation({
            report,
            rule,
            pivot: (request) => deps.client.pivot(request, { signal: run.signal }),
            state: { incidents: store.listByReportRule(report.id, rule.id), ...(stored ? { evaluation: stored } : {}) },
            now: slot,
            channel: first,
            defaultTimeZone: deps.defaultTimeZone,
            // A threshold or change incident opening has one value: its chart gets the recent days.
            trendDays: TREND_DAYS,
          }),
        (r) => r.evaluation.transitions,
      );
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
    deps.logger.debug({ ...where, ...outcome }, 'alert slot delivered');
    return { threads, transitions };
  });
  await explainOpened(threads, transitions, deps);
  return {};
}
