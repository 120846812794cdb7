/**
 * The incident state machine of one alert rule, as a pure function: a report's rows, the rule's
 * incidents and pending streaks in; transitions for the threads and the records to store out.
 * The scheduler's driver runs the report, calls this, stores `nextState` in one write, then posts.
 * Each entity's step is `nextIncidentState`.
 */
import type { AlertRule, MonthPacing, ReportView } from '../reports/index.js';
import type { AlertIncident, PendingBreach } from '../store/index.js';
import { judgeEntities } from './judgeEntities.js';
import { nextIncidentState, type StepContext } from './nextIncidentState.js';
import type { PeriodRows } from './observeEntities.js';
import type { AlertTransition, JudgedValue, RuleEvaluation, RuleState, SkippedEntity } from './types.js';

export interface EvaluateInput {
  reportId: string;
  rule: AlertRule;
  /** The report's view of the evaluated period. */
  current: ReportView;
  /** Change rules: the rows of the rule's comparison period, when the view has no comparison of that kind. */
  comparison?: PeriodRows;
  /** Anomaly rules: the baseline periods (see `anomalyRequests`). */
  history?: readonly PeriodRows[];
  /** Pacing rules: the month's forecast against its plan (`monthPacing`); absent when there is none. */
  pacing?: MonthPacing;
  state: RuleState;
  now: Date;
  /** Where new incidents' threads go: the report's first delivery channel. */
  channel: string;
}

/** `<report>/<rule>`: the key of a rule's evaluation record. */
export function ruleKey(reportId: string, ruleId: string): string {
  return `${reportId}/${ruleId}`;
}

/**
 * Evaluates a rule over every entity of the view. Per entity: `consecutive` breaches open an
 * incident; while open, at most one reminder per `renotify` (none when acknowledged or snoozed)
 * and a `bigMove` reply when the value goes twice as far beyond the trigger as last announced;
 * recovery past `recovery` resolves it; a breach within 24 h of resolving reopens it. Entities
 * below the volume floor, without a value, a comparison or a baseline are skipped with a reason
 * and change nothing.
 *
 * @example const { transitions, nextState } = evaluateRule({ reportId: 'daily-kpi', rule, current: view, state, now, channel: 'C1' });
 *          await store.incidents.applyEvaluation(nextState);
 */
export function evaluateRule(input: EvaluateInput): RuleEvaluation {
  const { rule, reportId, now } = input;
  const ctx: StepContext = { reportId, rule, channel: input.channel, at: now.toISOString(), nowMs: now.getTime() };
  const periods: { comparison?: PeriodRows; history?: readonly PeriodRows[]; pacing?: MonthPacing } = {};
  if (input.comparison) periods.comparison = input.comparison;
  if (input.history) periods.history = input.history;
  if (input.pacing) periods.pacing = input.pacing;
  const observed = judgeEntities(rule, input.current, periods);

  const latest = latestIncidents(input.state, reportId, rule);
  const previousPending = new Map((input.state.evaluation?.pending ?? []).map((p) => [p.entityKey, p]));

  const transitions: AlertTransition[] = [];
  const changed: AlertIncident[] = [];
  const skipped: SkippedEntity[] = [];
  const pending: PendingBreach[] = [];
  const judgedValues: JudgedValue[] = [];
  let evaluated = 0;
  let breaching = 0;

  const entities = 'reason' in observed ? [] : observed.entities;
  if ('reason' in observed) {
    skipped.push({ entityKey: '*', entityLabel: 'every entity', reason: 'no_metric', detail: observed.reason });
  }
  const seen = new Set<string>();

  for (const { obs, judged } of entities) {
    seen.add(obs.entityKey);
    if (!('breach' in judged)) {
      skipped.push({
        entityKey: obs.entityKey,
        entityLabel: obs.entityLabel,
        reason: judged.reason,
        detail: judged.detail,
      });
      // A skipped entity neither opens nor resolves: its streak waits for the next evaluation.
      const waiting = previousPending.get(obs.entityKey);
      if (waiting) pending.push(waiting);
      continue;
    }
    evaluated++;
    if (judged.breach) breaching++;
    judgedValues.push({
      entityKey: obs.entityKey,
      entityLabel: obs.entityLabel,
      value: obs.value as number,
      breach: judged.breach,
      threshold: judged.threshold,
      condition: judged.facts,
    });
    const observation = { judged, value: obs.value as number, obs };
    const step = nextIncidentState(latest.get(obs.entityKey), previousPending.get(obs.entityKey), observation, ctx);
    if (step?.kind === 'transition') transitions.push(step.transition);
    else if (step?.kind === 'record') changed.push(step.incident);
    else if (step?.kind === 'pending') pending.push(step.pending);
  }

  // Open incidents whose entity has no row this time are left as they are, and said so.
  for (const incident of latest.values()) {
    if (incident.state !== 'open' || seen.has(incident.entityKey) || 'reason' in observed) continue;
    skipped.push({
      entityKey: incident.entityKey,
      entityLabel: incident.entityLabel ?? incident.entityKey,
      reason: 'not_in_rows',
      detail: 'the entity has no row in this evaluation; its incident stays open',
    });
  }

  for (const t of transitions) changed.push(t.incident);
  return {
    transitions,
    judged: judgedValues,
    skipped,
    nextState: {
      evaluation: {
        ruleKey: ruleKey(reportId, rule.id),
        reportId,
        ruleId: rule.id,
        lastEvaluatedAt: ctx.at,
        evaluated,
        breaching,
        skipped: skipped.length,
        pending,
      },
      incidents: changed,
    },
  };
}

/** The rule's newest incident per entity (older ones of the same entity are history). */
function latestIncidents(state: RuleState, reportId: string, rule: AlertRule): Map<string, AlertIncident> {
  const latest = new Map<string, AlertIncident>();
  for (const incident of state.incidents) {
    if (incident.ruleId !== rule.id || (incident.reportId !== undefined && incident.reportId !== reportId)) continue;
    const seen = latest.get(incident.entityKey);
    if (seen === undefined || incident.openedAt > seen.openedAt) latest.set(incident.entityKey, incident);
  }
  return latest;
}
