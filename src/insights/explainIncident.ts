/**
 * The first reply under a new alert incident: why the rule's metric moved for the incident's
 * entity, against the rule's own baseline (the comparison of a change rule, the same day a week
 * earlier for an anomaly rule, the previous period for a threshold).
 */
import { ruleMetricKey, TOTAL_KEY } from '../alerts/index.js';
import { type AlertRule, canonicalDimension, type ReportDefinition, ruleChange } from '../reports/index.js';
import { type ExplainDeps, type ExplainedReport, explainReport } from './explainReport.js';

/** `countryCode=BR|source=Vungle` → `{ countryCode: 'BR', source: 'Vungle' }`; the total is `{}`. */
export function entityWhere(entityKey: string): Record<string, string> {
  if (entityKey === TOTAL_KEY || entityKey === '') return {};
  const where: Record<string, string> = {};
  for (const pair of entityKey.split('|')) {
    const at = pair.indexOf('=');
    if (at <= 0) continue;
    where[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return where;
}

/** The comparison an explanation of this rule's breach uses. */
export function ruleComparison(rule: AlertRule): 'previous_period' | 'same_period_last_week' {
  if (rule.anomaly) return 'same_period_last_week';
  const change = ruleChange(rule);
  if (change) return change.vs;
  return 'previous_period';
}

/**
 * Explains the rule's metric for one entity as of `at`: the report's query narrowed to the entity,
 * its own dimensions left out of the candidates (they hold one value).
 *
 * @example const why = await explainIncident({ report, rule, entityKey: 'countryCode=BR', at: slot }, deps);
 */
export async function explainIncident(
  input: { report: { id: string; definition: ReportDefinition }; rule: AlertRule; entityKey: string; at: Date },
  deps: ExplainDeps,
): Promise<ExplainedReport> {
  const { definition } = input.report;
  const where = entityWhere(input.entityKey);
  const filter: Record<string, unknown> = { ...(definition.query.filter ?? {}) };
  for (const [key, value] of Object.entries(where)) filter[canonicalDimension(key).name] = [value];
  const metricKey = ruleMetricKey(input.rule);
  const metrics =
    typeof input.rule.metric === 'string' ? definition.query.metrics : [...definition.query.metrics, input.rule.metric];
  const narrowed: ReportDefinition = {
    ...definition,
    query: {
      ...definition.query,
      metrics,
      filter: filter as NonNullable<ReportDefinition['query']['filter']>,
    },
    present: { ...definition.present, compare: ruleComparison(input.rule) },
  };
  return explainReport(
    {
      report: { id: input.report.id, definition: narrowed },
      asOf: input.at,
      // The period the rule judged: its own range, or the report's.
      ...(input.rule.range !== undefined ? { range: input.rule.range } : {}),
      metrics: [metricKey],
      exclude: Object.keys(where).map((key) => canonicalDimension(key).name),
    },
    deps,
  );
}
