/**
 * One entity's step of the incident state machine, as a pure function: its latest incident (or
 * pending streak) and this evaluation's judgement in, what changes out: a transition the thread
 * hears about, an incident recorded silently, a streak still waiting, or nothing.
 */
import { createHash } from 'node:crypto';
import type { AlertRule } from '../reports/index.js';
import type { AlertIncident, PendingBreach } from '../store/index.js';
import type { Judgement } from './judge.js';
import type { Observation } from './observeEntities.js';
import type { AlertTransition } from './types.js';

/** A breach this soon after resolving reopens the same incident (and thread) instead of a new one. */
export const REOPEN_WINDOW_MS = 24 * 3_600_000;
/** Observations kept per incident (the store's default bound). */
export const VALUES_KEPT = 50;

/** `30m`, `6h`, `1d` in milliseconds. */
export function durationMs(text: string): number {
  const match = /^(\d+)(m|h|d)$/.exec(text);
  if (!match) throw new RangeError(`not a duration: ${text}`);
  const unit = { m: 60_000, h: 3_600_000, d: 86_400_000 }[match[2] as 'm' | 'h' | 'd'];
  return Number(match[1]) * unit;
}

/** A stable id: the same breach evaluated twice (a retried slot) gives the same incident id. */
export function incidentId(reportId: string, ruleId: string, entityKey: string, openedAt: string): string {
  const hash = createHash('sha256')
    .update(JSON.stringify([reportId, ruleId, entityKey, openedAt]))
    .digest('hex');
  return `inc_${hash.slice(0, 20)}`;
}

/** The rule being evaluated and the moment of the evaluation. */
export interface StepContext {
  reportId: string;
  rule: AlertRule;
  /** Where new incidents' threads go. */
  channel: string;
  /** `now` as an ISO string and in milliseconds. */
  at: string;
  nowMs: number;
}

/** One entity judged (not skipped) in this evaluation. */
export interface Observed {
  judged: Judgement;
  value: number;
  obs: Observation;
}

/** What one entity's evaluation changes; `undefined` when nothing does. */
export type IncidentStep =
  | { kind: 'transition'; transition: AlertTransition }
  | { kind: 'record'; incident: AlertIncident }
  | { kind: 'pending'; pending: PendingBreach }
  | undefined;

/**
 * The step for one judged entity: an open incident reminds, reports a big move, tells an untold
 * reopening or resolves; one resolved within `REOPEN_WINDOW_MS` counts its streak and reopens; an
 * entity without either counts its pending streak and opens a new incident after `consecutive`.
 *
 * @example nextIncidentState(latest.get(key), pendingBefore.get(key), { judged, value, obs }, ctx)
 */
export function nextIncidentState(
  incident: AlertIncident | undefined,
  pendingBefore: PendingBreach | undefined,
  observed: Observed,
  ctx: StepContext,
): IncidentStep {
  if (incident?.state === 'open') return whileOpen(incident, observed, ctx);
  const recent =
    incident?.state === 'resolved' &&
    incident.resolvedAt !== undefined &&
    ctx.nowMs - Date.parse(incident.resolvedAt) <= REOPEN_WINDOW_MS;
  if (incident && recent) return afterResolving(incident, observed, ctx);
  return beforeOpening(pendingBefore, observed, ctx);
}

/** An open incident: a reopening a snooze kept quiet, a big move, a reminder, recovery, or a silent record. */
function whileOpen(incident: AlertIncident, observed: Observed, ctx: StepContext): IncidentStep {
  const { judged } = observed;
  const { at, nowMs, rule } = ctx;
  const next = observe(incident, observed, at);
  const snoozed = isSnoozed(incident, nowMs);
  const announce = (kind: 'reopen' | 'bigMove' | 'remind'): IncidentStep => ({
    kind: 'transition',
    transition: transition(kind, ctx, tell(next, judged, at), observed, incident),
  });
  if (judged.breach) {
    const told = incident.notifiedValue;
    const lastTold = Date.parse(incident.lastNotifiedAt ?? incident.openedAt);
    const moved =
      told !== undefined && judged.distance(told) > 0 && judged.distance(judged.measure) >= 2 * judged.distance(told);
    const remindAfter = rule.renotify === undefined ? undefined : durationMs(rule.renotify);
    // A reopening that a snooze kept quiet is told once the snooze is over.
    const untoldReopen = incident.reopenedAt !== undefined && lastTold < Date.parse(incident.reopenedAt);
    if (untoldReopen && !snoozed) return announce('reopen');
    if (moved && !snoozed) return announce('bigMove');
    if (
      remindAfter !== undefined &&
      incident.acknowledgedAt === undefined &&
      !snoozed &&
      nowMs - lastTold >= remindAfter
    ) {
      return announce('remind');
    }
    return { kind: 'record', incident: next };
  }
  if (judged.recovered) {
    const resolved: AlertIncident = { ...next, state: 'resolved', resolvedAt: at };
    const t = transition('resolve', ctx, resolved, observed, incident);
    t.durationMs = nowMs - Date.parse(t.openedAt);
    return { kind: 'transition', transition: t };
  }
  return { kind: 'record', incident: next };
}

/** Resolved within the reopen window: the breach streak counts up, and reaching `consecutive` reopens it. */
function afterResolving(incident: AlertIncident, observed: Observed, ctx: StepContext): IncidentStep {
  const { judged } = observed;
  const { at, rule } = ctx;
  if (!judged.breach) {
    if ((incident.streak ?? 0) > 0) {
      return { kind: 'record', incident: { ...incident, streak: 0, updatedAt: at, lastEvaluatedAt: at } };
    }
    return undefined;
  }
  const streak = (incident.streak ?? 0) + 1;
  const next = { ...observe(incident, observed, at), streak };
  if (streak < rule.consecutive) return { kind: 'record', incident: next };
  const { resolvedAt: _resolved, acknowledgedBy: _by, acknowledgedAt: _ackAt, ...rest } = next;
  const notify = !isSnoozed(incident, ctx.nowMs);
  const reopened: AlertIncident = {
    ...rest,
    state: 'open',
    reopenedAt: at,
    reopenCount: (incident.reopenCount ?? 0) + 1,
  };
  const t = transition('reopen', ctx, notify ? tell(reopened, judged, at) : reopened, observed, incident);
  t.notify = notify;
  return { kind: 'transition', transition: t };
}

/** No incident to continue: a breach extends the pending streak, and reaching `consecutive` opens one. */
function beforeOpening(before: PendingBreach | undefined, observed: Observed, ctx: StepContext): IncidentStep {
  const { judged, value, obs } = observed;
  const { at, reportId, rule } = ctx;
  if (!judged.breach) return undefined;
  const streak = (before?.streak ?? 0) + 1;
  if (streak < rule.consecutive) {
    const pending = {
      entityKey: obs.entityKey,
      entityLabel: obs.entityLabel,
      streak,
      since: before?.since ?? at,
      lastValue: value,
    };
    return { kind: 'pending', pending };
  }
  const opened: AlertIncident = {
    id: incidentId(reportId, rule.id, obs.entityKey, at),
    ruleId: rule.id,
    reportId,
    entityKey: obs.entityKey,
    entityLabel: obs.entityLabel,
    ...(obs.entity ? { entity: obs.entity } : {}),
    state: 'open',
    channel: ctx.channel,
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
  return { kind: 'transition', transition: transition('open', ctx, opened, observed, undefined) };
}

/** The incident with this evaluation's value, streak and thresholds recorded. */
function observe(incident: AlertIncident, { judged, value, obs }: Observed, at: string): AlertIncident {
  const next: AlertIncident = {
    ...incident,
    entityLabel: obs.entityLabel,
    // A record written before entities were stored gets its parts from the row observed now.
    ...(obs.entity ? { entity: obs.entity } : {}),
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
  ctx: StepContext,
  incident: AlertIncident,
  { judged, value, obs }: Observed,
  before: AlertIncident | undefined,
): AlertTransition {
  const t: AlertTransition = {
    kind,
    reportId: ctx.reportId,
    ruleId: ctx.rule.id,
    ruleName: ctx.rule.name ?? ctx.rule.id,
    severity: ctx.rule.severity,
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
