/**
 * The incident state machine of one alert rule, as a pure function: a report's rows, the rule's
 * incidents and pending streaks in; transitions for the threads and the records to store out.
 * The scheduler's driver runs the report, calls this, stores `nextState` in one write, then posts.
 */
import { createHash } from 'node:crypto';
import type { AlertRule, MonthPacing, ReportView } from '../reports/index.js';
import type { AlertIncident, PendingBreach } from '../store/index.js';
import type { Judgement } from './judge.js';
import { judgeEntities } from './judgeEntities.js';
import type { Observation, PeriodRows } from './observeEntities.js';
import type { AlertTransition, RuleEvaluation, RuleState, SkippedEntity } from './types.js';

/** A breach this soon after resolving reopens the same incident (and thread) instead of a new one. */
export const REOPEN_WINDOW_MS = 24 * 3_600_000;
/** Observations kept per incident (the store's default bound). */
export const VALUES_KEPT = 50;

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

/** `30m`, `6h`, `1d` in milliseconds. */
export function durationMs(text: string): number {
  const match = /^(\d+)(m|h|d)$/.exec(text);
  if (!match) throw new RangeError(`not a duration: ${text}`);
  const unit = { m: 60_000, h: 3_600_000, d: 86_400_000 }[match[2] as 'm' | 'h' | 'd'];
  return Number(match[1]) * unit;
}

/** `<report>/<rule>`: the key of a rule's evaluation record. */
export function ruleKey(reportId: string, ruleId: string): string {
  return `${reportId}/${ruleId}`;
}

/** A stable id: the same breach evaluated twice (a retried slot) gives the same incident id. */
export function incidentId(reportId: string, ruleId: string, entityKey: string, openedAt: string): string {
  const hash = createHash('sha256')
    .update(JSON.stringify([reportId, ruleId, entityKey, openedAt]))
    .digest('hex');
  return `inc_${hash.slice(0, 20)}`;
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
  const at = now.toISOString();
  const nowMs = now.getTime();
  const periods: { comparison?: PeriodRows; history?: readonly PeriodRows[]; pacing?: MonthPacing } = {};
  if (input.comparison) periods.comparison = input.comparison;
  if (input.history) periods.history = input.history;
  if (input.pacing) periods.pacing = input.pacing;
  const observed = judgeEntities(rule, input.current, periods);

  const latest = new Map<string, AlertIncident>();
  for (const incident of input.state.incidents) {
    if (incident.ruleId !== rule.id || (incident.reportId !== undefined && incident.reportId !== reportId)) continue;
    const seen = latest.get(incident.entityKey);
    if (seen === undefined || incident.openedAt > seen.openedAt) latest.set(incident.entityKey, incident);
  }
  const previousPending = new Map((input.state.evaluation?.pending ?? []).map((p) => [p.entityKey, p]));

  const transitions: AlertTransition[] = [];
  const changed: AlertIncident[] = [];
  const skipped: SkippedEntity[] = [];
  const pending: PendingBreach[] = [];
  let evaluated = 0;
  let breaching = 0;

  const entities = 'reason' in observed ? [] : observed.entities;
  if ('reason' in observed) {
    skipped.push({ entityKey: '*', entityLabel: 'every entity', reason: 'no_metric', detail: observed.reason });
  }
  const seen = new Set<string>();

  for (const { obs, judged } of entities) {
    seen.add(obs.entityKey);
    const incident = latest.get(obs.entityKey);
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
    const value = obs.value as number;
    const base = { judged, value, obs };

    if (incident?.state === 'open') {
      const next = observe(incident, base, at);
      const snoozed = isSnoozed(incident, nowMs);
      if (judged.breach) {
        const told = incident.notifiedValue;
        const lastTold = Date.parse(incident.lastNotifiedAt ?? incident.openedAt);
        const moved =
          told !== undefined &&
          judged.distance(told) > 0 &&
          judged.distance(judged.measure) >= 2 * judged.distance(told);
        const remindAfter = rule.renotify === undefined ? undefined : durationMs(rule.renotify);
        // A reopening that a snooze kept quiet is told once the snooze is over.
        const untoldReopen = incident.reopenedAt !== undefined && lastTold < Date.parse(incident.reopenedAt);
        if (untoldReopen && !snoozed) {
          transitions.push(transition('reopen', input, tell(next, judged, at), base, incident));
        } else if (moved && !snoozed) {
          transitions.push(transition('bigMove', input, tell(next, judged, at), base, incident));
        } else if (
          remindAfter !== undefined &&
          incident.acknowledgedAt === undefined &&
          !snoozed &&
          nowMs - lastTold >= remindAfter
        ) {
          transitions.push(transition('remind', input, tell(next, judged, at), base, incident));
        } else {
          changed.push(next);
        }
      } else if (judged.recovered) {
        const resolved: AlertIncident = { ...next, state: 'resolved', resolvedAt: at };
        const t = transition('resolve', input, resolved, base, incident);
        t.durationMs = nowMs - Date.parse(t.openedAt);
        transitions.push(t);
      } else {
        changed.push(next);
      }
      continue;
    }

    const recent =
      incident?.state === 'resolved' &&
      incident.resolvedAt !== undefined &&
      nowMs - Date.parse(incident.resolvedAt) <= REOPEN_WINDOW_MS;
    if (incident && recent) {
      if (!judged.breach) {
        if ((incident.streak ?? 0) > 0) changed.push({ ...incident, streak: 0, updatedAt: at, lastEvaluatedAt: at });
        continue;
      }
      const streak = (incident.streak ?? 0) + 1;
      const next = { ...observe(incident, base, at), streak };
      if (streak < rule.consecutive) {
        changed.push(next);
        continue;
      }
      const { resolvedAt: _resolved, acknowledgedBy: _by, acknowledgedAt: _ackAt, ...rest } = next;
      const notify = !isSnoozed(incident, nowMs);
      const reopened: AlertIncident = {
        ...rest,
        state: 'open',
        reopenedAt: at,
        reopenCount: (incident.reopenCount ?? 0) + 1,
      };
      const t = transition('reopen', input, notify ? tell(reopened, judged, at) : reopened, base, incident);
      t.notify = notify;
      transitions.push(t);
      continue;
    }

    if (!judged.breach) continue;
    const before = previousPending.get(obs.entityKey);
    const streak = (before?.streak ?? 0) + 1;
    if (streak < rule.consecutive) {
      pending.push({
        entityKey: obs.entityKey,
        entityLabel: obs.entityLabel,
        streak,
        since: before?.since ?? at,
        lastValue: value,
      });
      continue;
    }
    const opened: AlertIncident = {
      id: incidentId(reportId, rule.id, obs.entityKey, at),
      ruleId: rule.id,
      reportId,
      entityKey: obs.entityKey,
      entityLabel: obs.entityLabel,
      state: 'open',
      channel: input.channel,
      values: [{ at, value }],
      openedAt: at,
      updatedAt: at,
      streak,
      lastValue: value,
      threshold: judged.threshold,
      lastEvaluatedAt: at,
      lastNotifiedAt: at,
      notifiedValue: judged.measure,
      ...(judged.band ? { band: judged.band } : {}),
      ...(judged.comparisonValue !== undefined ? { comparisonValue: judged.comparisonValue } : {}),
      ...(judged.facts.kind === 'compound' ? { conditionParts: judged.facts.parts } : {}),
      ...(judged.facts.kind === 'pacing' ? { pacing: judged.facts } : {}),
    };
    transitions.push(transition('open', input, opened, base, undefined));
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
    skipped,
    nextState: {
      evaluation: {
        ruleKey: ruleKey(reportId, rule.id),
        reportId,
        ruleId: rule.id,
        lastEvaluatedAt: at,
        evaluated,
        breaching,
        skipped: skipped.length,
        pending,
      },
      incidents: changed,
    },
  };
}

interface Observed {
  judged: Judgement;
  value: number;
  obs: Observation;
}

/** The incident with this evaluation's value, streak and thresholds recorded. */
function observe(incident: AlertIncident, { judged, value, obs }: Observed, at: string): AlertIncident {
  const next: AlertIncident = {
    ...incident,
    entityLabel: obs.entityLabel,
    values: [...incident.values, { at, value }].slice(-VALUES_KEPT),
    lastValue: value,
    threshold: judged.threshold,
    streak: judged.breach ? (incident.streak ?? 0) + 1 : 0,
    updatedAt: at,
    lastEvaluatedAt: at,
  };
  if (judged.band) next.band = judged.band;
  if (judged.comparisonValue !== undefined) next.comparisonValue = judged.comparisonValue;
  if (judged.facts.kind === 'compound') next.conditionParts = judged.facts.parts;
  if (judged.facts.kind === 'pacing') next.pacing = judged.facts;
  return next;
}

/** Marks the incident as announced now, with this measure (large moves are measured from it). */
function tell(incident: AlertIncident, judged: Judgement, at: string): AlertIncident {
  return { ...incident, lastNotifiedAt: at, notifiedValue: judged.measure };
}

function isSnoozed(incident: AlertIncident, nowMs: number): boolean {
  return incident.snoozedUntil !== undefined && Date.parse(incident.snoozedUntil) > nowMs;
}

function transition(
  kind: AlertTransition['kind'],
  input: EvaluateInput,
  incident: AlertIncident,
  { judged, value, obs }: Observed,
  before: AlertIncident | undefined,
): AlertTransition {
  const t: AlertTransition = {
    kind,
    reportId: input.reportId,
    ruleId: input.rule.id,
    ruleName: input.rule.name ?? input.rule.id,
    severity: input.rule.severity,
    entityKey: obs.entityKey,
    entityLabel: obs.entityLabel,
    incident,
    value,
    condition: judged.facts,
    openedAt: incident.reopenedAt ?? incident.openedAt,
    notify: true,
  };
  if ((kind === 'remind' || kind === 'bigMove') && before?.lastValue !== undefined) t.previousValue = before.lastValue;
  return t;
}
