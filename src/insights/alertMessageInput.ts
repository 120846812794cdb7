/**
 * From the alert core's records to the facts the message builders take: one function for the
 * parent and the replies, from an incident (and the transition that changed it, when there is
 * one), so the Slack side only posts what it is given.
 */
import {
  type AlertCondition,
  type AlertTransition,
  type CompoundPart,
  type ConditionFacts,
  conditionRule,
  entityOwners,
  ruleMetricKey,
  type SimpleAlertCondition,
} from '../alerts/index.js';
import type { AlertMessageInput, ChartImage, FormatUnit } from '../render/index.js';
import { type AlertRule, compoundOf, describeColumn, type ReportOwners } from '../reports/index.js';
import type { AlertIncident } from '../store/index.js';

export interface MessageContext {
  rule: AlertRule;
  reportId: string;
  reportTitle: string;
  /** The zone times are shown in (the report's). */
  timezone: string;
  /** The data range evaluated: `Yesterday (Thu 19 Nov 2026)`. */
  rangeLabel: string;
  now: Date;
  chart?: ChartImage;
  threadUrl?: string;
  /** The report's `owners:` map: an incident whose entity is mapped mentions its owners. */
  owners?: ReportOwners;
}

/**
 * The message facts of an incident, after `transition` when one changed it (its condition facts
 * are then exact; without one they are rebuilt from the rule and the stored thresholds).
 *
 * @example alertParentMessage(alertMessageInput(t.incident, ctx, t)) // the parent after an `open`
 */
export function alertMessageInput(
  incident: AlertIncident,
  ctx: MessageContext,
  /** The transition, or an owed reply (the outbox keeps the same facts). */
  transition?: Pick<AlertTransition, 'value' | 'condition' | 'previousValue'>,
): AlertMessageInput {
  const { rule } = ctx;
  const name = typeof rule.metric === 'string' ? rule.metric : rule.metric.name;
  const described = describeColumn({ key: ruleMetricKey(rule), kind: 'metric', name, args: {} });
  const unit = described.unit === 'text' || described.unit === 'time' ? 'count' : described.unit;
  const input: AlertMessageInput = {
    incidentId: incident.id,
    ruleId: rule.id,
    ruleName: rule.name ?? rule.id,
    reportId: ctx.reportId,
    reportTitle: ctx.reportTitle,
    severity: rule.severity,
    entity: incident.entityLabel ?? incident.entityKey,
    metric: { key: described.key, label: described.label, unit, polarity: described.polarity },
    value: transition?.value ?? incident.lastValue ?? null,
    condition: transition ? conditionOf(transition.condition, rule) : storedCondition(rule, incident),
    rangeLabel: ctx.rangeLabel,
    timezone: ctx.timezone,
    openedAt: incident.reopenedAt ?? incident.openedAt,
    now: ctx.now.toISOString(),
    mentions: rule.mentions,
  };
  const owners = entityOwners(ctx.owners, incident.entityKey, rule.mentions);
  if (owners.length > 0) input.owners = owners;
  if (transition?.previousValue !== undefined) input.previousValue = transition.previousValue;
  if (incident.acknowledgedBy !== undefined) input.acknowledgedBy = incident.acknowledgedBy;
  if (incident.acknowledgedAt !== undefined) input.acknowledgedAt = incident.acknowledgedAt;
  if (incident.snoozedUntil !== undefined) input.snoozedUntil = incident.snoozedUntil;
  if (incident.state === 'resolved' && incident.resolvedAt !== undefined) input.resolvedAt = incident.resolvedAt;
  if (incident.reopenCount !== undefined) input.reopenCount = incident.reopenCount;
  if (ctx.chart) input.chart = ctx.chart;
  if (ctx.threadUrl) input.threadUrl = ctx.threadUrl;
  return input;
}

function baselineText(kind: 'same_weekday' | 'same_hour', weeks: number): string {
  return kind === 'same_weekday'
    ? `the same weekday of the last ${weeks} weeks`
    : `the same hours of the last ${weeks * 7} days`;
}

/** A metric's label and unit as the digest shows them. */
function metricFacts(metric: AlertRule['metric'], key: string): { label: string; unit: FormatUnit } {
  const name = typeof metric === 'string' ? metric : metric.name;
  const described = describeColumn({ key, kind: 'metric', name, args: {} });
  return {
    label: described.label,
    unit: described.unit === 'text' || described.unit === 'time' ? 'count' : described.unit,
  };
}

function partsOf(rule: AlertRule, mode: 'all' | 'any', parts: readonly CompoundPart[]): AlertCondition {
  const conditions = compoundOf(rule)?.conditions ?? [];
  return {
    kind: 'compound',
    mode,
    parts: parts.map((p, i) => ({
      ...metricFacts(conditions[i]?.metric ?? p.metric, p.metric),
      value: p.value,
      breach: p.breach,
      condition: conditionOf(p.facts, rule) as SimpleAlertCondition,
    })),
  };
}

function conditionOf(facts: ConditionFacts, rule: AlertRule): AlertCondition {
  switch (facts.kind) {
    case 'above':
    case 'below':
      return { kind: facts.kind, threshold: facts.threshold, recovery: facts.recovery };
    case 'equals':
      return { kind: 'equals', target: facts.target };
    case 'compound':
      return partsOf(rule, facts.mode, facts.parts);
    case 'change': {
      const out: AlertCondition = {
        kind: 'change',
        comparisonValue: facts.comparisonValue,
        against: facts.vs.replace(/_/g, ' '),
        change: facts.percent,
      };
      if (facts.above !== undefined) out.above = facts.above;
      if (facts.below !== undefined) out.below = facts.below;
      return out;
    }
    case 'pacing': {
      const { kind: _kind, ...figures } = facts;
      return { kind: 'pacing', ...figures };
    }
    case 'anomaly':
      return {
        kind: 'anomaly',
        low: facts.low,
        high: facts.high,
        median: facts.median,
        score: facts.score,
        baseline: baselineText(facts.baseline, facts.weeks),
      };
  }
}

/** The condition of a stored incident (ack and snooze redraw the parent without an evaluation). */
function storedCondition(rule: AlertRule, incident: AlertIncident): AlertCondition {
  if (rule.pacing && incident.pacing) return conditionOf(incident.pacing, rule);
  const compound = compoundOf(rule);
  if (compound) {
    if (incident.conditionParts) return partsOf(rule, compound.mode, incident.conditionParts);
    // Stored before its parts were recorded: the conditions without values.
    return {
      kind: 'compound',
      mode: compound.mode,
      parts: compound.conditions.map((c) => ({
        ...metricFacts(c.metric, typeof c.metric === 'string' ? c.metric : (c.metric.as ?? c.metric.name)),
        value: null,
        breach: incident.state === 'open',
        condition: storedCondition(conditionRule(rule, c), incident) as SimpleAlertCondition,
      })),
    };
  }
  if (rule.equals !== undefined) return { kind: 'equals', target: rule.equals };
  if (rule.above !== undefined || rule.below !== undefined) {
    const kind = rule.above !== undefined ? 'above' : 'below';
    const threshold = (rule.above ?? rule.below) as number;
    return { kind, threshold, recovery: typeof rule.recovery === 'number' ? rule.recovery : threshold };
  }
  if (rule.change) {
    const previous = incident.comparisonValue ?? null;
    const value = incident.lastValue;
    const out: AlertCondition = {
      kind: 'change',
      comparisonValue: previous,
      against: rule.change.vs.replace(/_/g, ' '),
      change: previous && value !== undefined ? (value - previous) / Math.abs(previous) : null,
    };
    if (rule.change.above !== undefined) out.above = rule.change.above;
    if (rule.change.below !== undefined) out.below = rule.change.below;
    return out;
  }
  const band = incident.band ?? { low: Number.NaN, high: Number.NaN, median: Number.NaN };
  const k = rule.anomaly?.sensitivity ?? 3;
  const spread = (band.high - band.median) / k;
  const value = incident.lastValue ?? band.median;
  return {
    kind: 'anomaly',
    low: band.low,
    high: band.high,
    median: band.median,
    score: spread > 0 ? (value - band.median) / spread : 0,
    baseline: baselineText(rule.anomaly?.baseline ?? 'same_weekday', rule.anomaly?.weeks ?? 4),
  };
}
