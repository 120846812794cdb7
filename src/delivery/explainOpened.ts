/** An alert slot's explanations: why the metric moved, under each incident the evaluation opened. */
import type { AlertTransition } from '../alerts/index.js';
import { explainIncident, explainSettings, movedPast } from '../insights/index.js';
import { compoundOf } from '../reports/index.js';
import { countExplanation } from './alertMetrics.js';
import type { RuleThreads } from './alertThreads.js';
import type { DigestDeps } from './deliverDigest.js';
import { postExplanation } from './postExplanation.js';

/** New incidents explained per evaluation: each costs up to the explanation's query budget. */
const EXPLAINED_PER_EVALUATION = 5;

/**
 * The first reply under each incident this evaluation opened: why the rule's metric moved for its
 * entity, against the rule's baseline. Best effort: an explanation that fails is logged and the
 * incident stands without it (a retried slot does not explain again: its transitions are empty).
 */
export async function explainOpened(
  threads: RuleThreads,
  transitions: readonly AlertTransition[],
  deps: DigestDeps,
): Promise<void> {
  const settings = explainSettings(threads.report.definition);
  const opened = transitions.filter((t) => t.kind === 'open');
  const count = (outcome: 'posted' | 'skipped', reason: string, times = 1) =>
    countExplanation(deps.metrics, 'incident', outcome, reason, times);
  // A compound rule's parent names each condition and its value; one metric's drivers would tell
  // only part of it (spend's drivers say nothing of installs stopping).
  if (!settings.enabled || compoundOf(threads.rule)) {
    count('skipped', settings.enabled ? 'compound_rule' : 'disabled', opened.length);
    return;
  }
  if (opened.length > EXPLAINED_PER_EVALUATION) {
    count('skipped', 'too_many_opened', opened.length - EXPLAINED_PER_EVALUATION);
    deps.logger.info(
      { report: threads.report.id, rule: threads.rule.id, opened: opened.length, explained: EXPLAINED_PER_EVALUATION },
      'more incidents opened than are explained at once; the first ones get an explanation',
    );
  }
  for (const t of opened.slice(0, EXPLAINED_PER_EVALUATION)) {
    const incident = deps.store.incidents.get(t.incident.id);
    if (!incident?.threadTs) {
      count('skipped', 'no_thread');
      continue;
    }
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
        count('skipped', 'not_moved');
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
      count('posted', '');
    } catch (error) {
      count('skipped', 'failed');
      deps.logger.warn({ ...where, err: error }, 'could not explain the new incident; its thread stands without it');
    }
  }
}
