/** What delivery tells the bot's metrics: alert evaluations, incidents opened and resolved, explanations. */
import type { AlertTransition } from '../alerts/index.js';
import type { BotMetrics } from '../metrics/index.js';

/**
 * Runs one rule evaluation, counting it by outcome (`evaluated`, `failed`) and the incidents its
 * transitions open (`open`, `reopen`) and resolve. Without metrics it only runs it.
 *
 * @example const result = await countEvaluation(deps.metrics, 'daily', 'cpi-high', evaluate, (r) => r.evaluation.transitions);
 */
export async function countEvaluation<T>(
  metrics: BotMetrics | undefined,
  report: string,
  rule: string,
  evaluate: () => Promise<T>,
  transitionsOf: (result: T) => readonly AlertTransition[],
): Promise<T> {
  if (!metrics) return evaluate();
  const { alerts } = metrics;
  let result: T;
  try {
    result = await evaluate();
  } catch (error) {
    alerts.evaluations.inc({ report, rule, outcome: 'failed' });
    throw error;
  }
  alerts.evaluations.inc({ report, rule, outcome: 'evaluated' });
  for (const t of transitionsOf(result)) {
    if (t.kind === 'open' || t.kind === 'reopen') alerts.incidentsOpened.inc({ report, rule });
    else if (t.kind === 'resolve') alerts.incidentsResolved.inc({ report, rule });
  }
  return result;
}

/**
 * Counts an explanation of a report run (`report`) or a new incident (`incident`): posted, or
 * skipped with a reason from a fixed list (`disabled`, `not_moved`, `failed`…).
 *
 * @example countExplanation(deps.metrics, 'incident', 'skipped', 'not_moved');
 */
export function countExplanation(
  metrics: BotMetrics | undefined,
  subject: 'report' | 'incident',
  outcome: 'posted' | 'skipped',
  reason: string,
  times = 1,
): void {
  if (times > 0) metrics?.alerts.explanations.inc({ subject, outcome, reason }, times);
}
