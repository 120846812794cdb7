/**
 * The facts behind `/pivot alerts` and App Home: every rule with when it last ran (or that it
 * never did), and every open incident. A rule never evaluated is reported as such: silence about
 * an unchecked rule would read as an all-clear.
 */
import type { AlertRule } from '../reports/index.js';
import type { AlertEvaluation, AlertIncident } from '../store/index.js';
import { median } from './anomalyScore.js';

/** The days a rule's figures (`RuleFigures`) cover. */
export const FIGURE_DAYS = 30;
const DAY_MS = 86_400_000;

/** A rule's incidents over the last `FIGURE_DAYS` days, from the stored incidents: how noisy it is. */
export interface RuleFigures {
  /** Incidents opened in the period. */
  opened: number;
  /** Of those, acknowledged by someone. */
  acknowledged: number;
  /** Of those, resolved within a day with nobody acknowledging them: the noise signal. */
  selfResolved: number;
  /** The median time open (those still open count to now); absent with none opened. */
  medianOpenMs?: number;
}

export interface RuleStatus {
  reportId: string;
  reportTitle: string;
  ruleId: string;
  ruleName: string;
  severity: AlertRule['severity'];
  /** Undefined: never evaluated. */
  lastEvaluatedAt?: string;
  evaluated?: number;
  breaching?: number;
  skipped?: number;
  openIncidents: number;
  /** With `incidentsOf`: the rule's last 30 days. */
  figures?: RuleFigures;
}

export interface OpenIncident {
  incident: AlertIncident;
  reportId: string;
  reportTitle: string;
  ruleName: string;
}

export interface AlertsSummary {
  rules: RuleStatus[];
  open: OpenIncident[];
  /** Rules with at least one evaluation, and the others. */
  evaluatedRules: number;
  neverEvaluated: number;
}

export interface SummaryInput {
  reports: ReadonlyArray<{ id: string; title: string; rules: readonly AlertRule[] }>;
  evaluations: readonly AlertEvaluation[];
  openIncidents: readonly AlertIncident[];
  /** Every stored incident of a rule (open and resolved), for its figures; with `now`. */
  incidentsOf?: (reportId: string, ruleId: string) => readonly AlertIncident[];
  now?: Date;
}

/**
 * A rule's figures over the `days` days before `now` from its incidents: opened, acknowledged,
 * resolved by themselves within a day (never acknowledged), the median time open.
 *
 * @example ruleFigures(store.incidents.listByReportRule('daily-kpi', 'cpi-too-high'), new Date()) // { opened: 4, acknowledged: 1, selfResolved: 3, medianOpenMs: 18_000_000 }
 */
export function ruleFigures(incidents: readonly AlertIncident[], now: Date, days = FIGURE_DAYS): RuleFigures {
  const since = now.getTime() - days * DAY_MS;
  const recent = incidents.filter((i) => Date.parse(i.openedAt) >= since && Date.parse(i.openedAt) <= now.getTime());
  const openFor = (i: AlertIncident) => Date.parse(i.resolvedAt ?? now.toISOString()) - Date.parse(i.openedAt);
  const figures: RuleFigures = {
    opened: recent.length,
    acknowledged: recent.filter((i) => i.acknowledgedAt !== undefined).length,
    selfResolved: recent.filter((i) => i.state === 'resolved' && i.acknowledgedAt === undefined && openFor(i) <= DAY_MS)
      .length,
  };
  if (recent.length > 0) figures.medianOpenMs = median(recent.map(openFor));
  return figures;
}

/**
 * Joins the rules of the loaded reports with the store's evaluations and open incidents.
 * Incidents of rules no longer defined are still listed (under their stored ids).
 *
 * @example summarizeAlerts({ reports, evaluations: store.incidents.listEvaluations(), openIncidents: store.incidents.listOpen() })
 */
export function summarizeAlerts(input: SummaryInput): AlertsSummary {
  const byRule = new Map(input.evaluations.map((e) => [`${e.reportId}/${e.ruleId}`, e]));
  const rules: RuleStatus[] = [];
  const names = new Map<string, { reportTitle: string; ruleName: string; reportId: string }>();
  for (const report of input.reports) {
    for (const rule of report.rules) {
      const evaluation = byRule.get(`${report.id}/${rule.id}`);
      const ruleName = rule.name ?? rule.id;
      names.set(`${report.id}/${rule.id}`, { reportTitle: report.title, ruleName, reportId: report.id });
      const status: RuleStatus = {
        reportId: report.id,
        reportTitle: report.title,
        ruleId: rule.id,
        ruleName,
        severity: rule.severity,
        openIncidents: input.openIncidents.filter(
          (i) => i.ruleId === rule.id && (i.reportId ?? report.id) === report.id,
        ).length,
      };
      if (input.incidentsOf && input.now)
        status.figures = ruleFigures(input.incidentsOf(report.id, rule.id), input.now);
      if (evaluation) {
        status.lastEvaluatedAt = evaluation.lastEvaluatedAt;
        status.evaluated = evaluation.evaluated;
        status.breaching = evaluation.breaching;
        status.skipped = evaluation.skipped;
      }
      rules.push(status);
    }
  }
  const open = input.openIncidents
    .map((incident) => {
      const known =
        names.get(`${incident.reportId ?? ''}/${incident.ruleId}`) ??
        [...names.entries()].find(([k]) => incident.reportId === undefined && k.endsWith(`/${incident.ruleId}`))?.[1];
      return {
        incident,
        reportId: known?.reportId ?? incident.reportId ?? '?',
        reportTitle: known?.reportTitle ?? incident.reportId ?? 'unknown report',
        ruleName: known?.ruleName ?? incident.ruleId,
      };
    })
    .sort((a, b) => a.incident.openedAt.localeCompare(b.incident.openedAt));
  const evaluatedRules = rules.filter((r) => r.lastEvaluatedAt !== undefined).length;
  return { rules, open, evaluatedRules, neverEvaluated: rules.length - evaluatedRules };
}
