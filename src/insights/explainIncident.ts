/**
 * The first reply under a new alert incident: why the rule's metric moved for the incident's
 * entity, against the rule's own baseline (the comparison of a change rule, the same day a week
 * earlier for an anomaly rule, the previous period for a threshold); or why there is none, in
 * words a log line and a metric can carry.
 */
import { type EntityPart, ruleMetricKey } from '../alerts/index.js';
import { type AlertRule, compileReport, compoundOf, type ReportDefinition, ruleChange } from '../reports/index.js';
import { entityFilter } from './entityFilter.js';
import {
  type ExplainBounds,
  type ExplainDeps,
  type ExplainedReport,
  explainReport,
  explainSettings,
  movedPast,
} from './explainReport.js';

/** Why an incident gets no explanation: the metric's reason label, and the sentence for the log. */
export interface ExplanationSkip {
  reason:
    | 'disabled'
    | 'compound_rule'
    | 'pacing_rule'
    | 'no_value'
    | 'not_filterable'
    | 'not_explainable'
    | 'not_moved';
  detail: string;
}

/** The comparison an explanation of this rule's breach uses. */
export function ruleComparison(rule: AlertRule): 'previous_period' | 'same_period_last_week' {
  if (rule.anomaly) return 'same_period_last_week';
  const change = ruleChange(rule);
  if (change) return change.vs;
  return 'previous_period';
}

/**
 * Explains the rule's metric for one entity as of `at`: the report's query narrowed to the entity
 * (by id for name dimensions: `entityFilter`), its own dimensions left out of the candidates (they
 * hold one value). Answers the explained metrics that moved past the report's explanation
 * threshold, or why nothing is explained. Throws only what the Reporting Service throws.
 *
 * @example const why = await explainIncident({ report, rule, entity: [{ dimension: 'countryCode', value: 'BR' }], at: slot }, deps);
 */
export async function explainIncident(
  input: {
    report: { id: string; definition: ReportDefinition };
    rule: AlertRule;
    entity: readonly EntityPart[];
    at: Date;
    bounds?: ExplainBounds;
  },
  deps: ExplainDeps,
): Promise<{ explained: ExplainedReport } | { skipped: ExplanationSkip }> {
  const { definition } = input.report;
  const { rule } = input;
  const settings = explainSettings(definition);
  if (!settings.enabled) return skip('disabled', 'the report turns explanations off (present.explain: false)');
  // A compound rule's parent names each condition and its value; one metric's drivers would tell
  // only part of it (spend's drivers say nothing of installs stopping).
  if (compoundOf(rule)) return skip('compound_rule', "a compound rule's parent already names each condition");
  // The month against its plan has no segments to split: yesterday's drivers would answer another question.
  if (rule.pacing !== undefined) {
    return skip(
      'pacing_rule',
      "a pacing incident compares the month's spend with its plan, which has no segments to explain it by",
    );
  }
  const metricKey = ruleMetricKey(rule);
  const metrics =
    typeof rule.metric === 'string' ? definition.query.metrics : [...definition.query.metrics, rule.metric];
  const judged: ReportDefinition = {
    ...definition,
    query: { ...definition.query, metrics },
    present: { ...definition.present, compare: ruleComparison(rule) },
  };
  const range = rule.range !== undefined ? { range: rule.range } : {};
  const compiled = compileReport(judged, { now: input.at, defaultTimeZone: deps.defaultTimeZone, ...range });
  if (!compiled.request) return skip('not_explainable', 'the report has no query to narrow');
  const narrowing = await entityFilter(input.entity, definition, {
    client: deps.client,
    request: compiled.request,
    now: input.at,
    ...(deps.signal ? { signal: deps.signal } : {}),
  });
  if ('reason' in narrowing) return { skipped: narrowing };
  const narrowed: ReportDefinition = {
    ...judged,
    query: {
      ...judged.query,
      filter: { ...(definition.query.filter ?? {}), ...narrowing.filter } as NonNullable<
        ReportDefinition['query']['filter']
      >,
    },
  };
  const explained = await explainReport(
    {
      report: { id: input.report.id, definition: narrowed },
      asOf: input.at,
      // The period the rule judged: its own range, or the report's.
      ...range,
      metrics: [metricKey],
      exclude: narrowing.pinned,
      ...(input.bounds ? { bounds: input.bounds } : {}),
    },
    deps,
  );
  const first = explained.metrics[0];
  if (first === undefined) {
    const why = explained.skipped.map((s) => `${s.label}: ${s.reason}`).join('; ');
    return skip('not_explainable', why || `${metricKey} could not be explained`);
  }
  // A threshold breached by a value that barely moved against the baseline has no "why" to tell.
  const moved = explained.metrics.filter((m) => movedPast(m.explanation, settings.threshold));
  if (moved.length === 0) {
    const { change, baseline } = first.explanation;
    const relative = baseline === 0 ? 'no change' : `${((change / baseline) * 100).toFixed(1)} %`;
    return skip(
      'not_moved',
      `${first.label} moved ${relative} (${explained.periods}), under the ${(settings.threshold * 100).toFixed(0)} % explanation threshold`,
    );
  }
  return { explained: { ...explained, metrics: moved } };
}

function skip(reason: ExplanationSkip['reason'], detail: string): { skipped: ExplanationSkip } {
  return { skipped: { reason, detail } };
}
