/** An alert slot's explanations: why the metric moved, under each incident the evaluation opened. */
import { type AlertTransition, incidentEntity } from '../alerts/index.js';
import { explainIncident } from '../insights/index.js';
import { countExplanation } from './alertMetrics.js';
import type { RuleThreads } from './alertThreads.js';
import type { DigestDeps } from './deliverDigest.js';
import { postExplanation } from './postExplanation.js';

/** New incidents explained per evaluation: each costs up to the explanation's query budget. */
const EXPLAINED_PER_EVALUATION = 5;

/**
 * The first reply under each incident this evaluation opened: why the rule's metric moved for its
 * entity, against the rule's baseline. Called after the rule's lock is released (the threads are
 * posted by then), so a long explanation never holds the rule. Best effort: an incident that gets
 * no explanation is logged at info with the reason and counted (`pivotbot_explanations_total`),
 * and its thread stands without it (a retried slot does not explain again: its transitions are
 * empty).
 */
export async function explainOpened(
  threads: RuleThreads,
  transitions: readonly AlertTransition[],
  deps: DigestDeps,
): Promise<void> {
  const opened = transitions.filter((t) => t.kind === 'open');
  const rule = { report: threads.report.id, rule: threads.rule.id };
  const skipped = (where: Record<string, unknown>, reason: string, detail: string) => {
    countExplanation(deps.metrics, 'incident', 'skipped', reason);
    deps.logger.info({ ...where, reason, detail }, `new incident not explained: ${detail}`);
  };
  if (opened.length > EXPLAINED_PER_EVALUATION) {
    countExplanation(deps.metrics, 'incident', 'skipped', 'too_many_opened', opened.length - EXPLAINED_PER_EVALUATION);
    deps.logger.info(
      { ...rule, opened: opened.length, explained: EXPLAINED_PER_EVALUATION },
      'more incidents opened than are explained at once; the first ones get an explanation',
    );
  }
  for (const t of opened.slice(0, EXPLAINED_PER_EVALUATION)) {
    const incident = deps.store.incidents.get(t.incident.id) ?? t.incident;
    const where = { ...rule, incident: incident.id, entity: incident.entityKey };
    if (!incident.threadTs) {
      skipped(where, 'no_thread', 'its parent message was not posted');
      continue;
    }
    try {
      const answer = await explainIncident(
        { report: threads.report, rule: threads.rule, entity: incidentEntity(incident), at: threads.now },
        { ...deps, ...(threads.signal ? { signal: threads.signal } : {}) },
      );
      if ('skipped' in answer) {
        skipped(where, answer.skipped.reason, answer.skipped.detail);
        continue;
      }
      await postExplanation(
        answer.explained,
        {
          title: incident.entityLabel ?? threads.rule.name ?? threads.rule.id,
          channel: incident.channel,
          threadTs: incident.threadTs,
          reportId: threads.report.id,
        },
        deps,
      );
      countExplanation(deps.metrics, 'incident', 'posted', '');
    } catch (error) {
      countExplanation(deps.metrics, 'incident', 'skipped', 'failed');
      deps.logger.warn({ ...where, err: error }, 'could not explain the new incident; its thread stands without it');
    }
  }
}
