/**
 * `/pivot alerts` and App Home's alert section: every rule with when it last ran (or that it never
 * did), the open incidents with a link to their thread, and the rules that cannot be evaluated
 * (no schedule, no channel). Facts from the alert core (`summarizeAlerts`) and the scheduler
 * (`listAlertSchedules`), drawn by `alertsSummaryMessage`.
 */
import { ruleMetricKey, summarizeAlerts } from '../../../alerts/index.js';
import { threadUrl } from '../../../delivery/index.js';
import {
  alertsSummaryMessage,
  type Block,
  escapeMrkdwn,
  mrkdwnSection,
  type SlackMessage,
} from '../../../render/index.js';
import { describeColumn, type LoadedReports } from '../../../reports/index.js';
import { listAlertSchedules, specRunKeyPrefix } from '../../../scheduler/index.js';
import type { IncidentsRepository, Run, RunsRepository } from '../../../store/index.js';

export interface AlertsOverviewInput {
  reports: Pick<LoadedReports, 'reports'>;
  incidents: Pick<IncidentsRepository, 'listEvaluations' | 'listOpen'> &
    Partial<Pick<IncidentsRepository, 'listByReportRule'>>;
  /** The scheduler's runs: a rule whose latest evaluation failed is named with the reason. */
  runs?: Pick<RunsRepository, 'listByReport'>;
  now: Date;
  timezone: string;
}

/**
 * The alerts summary as a message: open incidents (report, rule, entity, since, value, state,
 * acknowledged by, thread), each rule's last run, and what is not evaluated and why.
 *
 * @example alertsOverview({ reports: await loadReports(), incidents: store.incidents, now: new Date(), timezone: 'UTC' })
 */
export function alertsOverview(input: AlertsOverviewInput): SlackMessage {
  const reports = input.reports.reports.map((r) => ({
    id: r.id,
    title: r.definition.title,
    rules: r.definition.alerts ?? [],
  }));
  const summary = summarizeAlerts({
    reports,
    evaluations: input.incidents.listEvaluations(),
    openIncidents: input.incidents.listOpen(),
    ...(input.incidents.listByReportRule
      ? { incidentsOf: input.incidents.listByReportRule.bind(input.incidents), now: input.now }
      : {}),
  });
  const rules = new Map(
    input.reports.reports.flatMap((r) => (r.definition.alerts ?? []).map((a) => [`${r.id}/${a.id}`, a])),
  );
  const { problems } = listAlertSchedules(input.reports, { timezone: input.timezone });
  const failing = failingRules(input);
  const message = alertsSummaryMessage({
    rules: summary.rules,
    troubled: failing.length + problems.length,
    open: summary.open.map((o) => {
      const rule = rules.get(`${o.reportId}/${o.incident.ruleId}`);
      const unit = rule ? unitOf(ruleMetricKey(rule)) : undefined;
      const url = o.incident.threadTs ? threadUrl(o.incident.channel, o.incident.threadTs) : undefined;
      return {
        reportTitle: o.reportTitle,
        ruleName: o.ruleName,
        incident: o.incident,
        ...(unit ? { unit } : {}),
        ...(url ? { threadUrl: url } : {}),
      };
    }),
    now: input.now.toISOString(),
    timezone: input.timezone,
  });
  const blocks: Block[] = [];
  if (failing.length > 0) {
    const lines = failing
      .slice(0, 20)
      .map(({ report, rule, run }) => {
        const when = (run.finishedAt ?? run.startedAt).slice(0, 16).replace('T', ' ');
        return `• \`${escapeMrkdwn(report)}\` · \`${escapeMrkdwn(rule)}\`: ${escapeMrkdwn(run.error?.message ?? 'failed')} (${when} UTC)`;
      })
      .join('\n');
    blocks.push(section(`:x: *Latest evaluation failed (${failing.length})*\n${lines}`));
  }
  if (problems.length > 0) {
    const lines = problems
      .slice(0, 20)
      .map((p) => `• \`${escapeMrkdwn(p.report)}\`: ${escapeMrkdwn(p.message)}`)
      .join('\n');
    blocks.push(section(`:warning: *Not evaluated (${problems.length})*\n${lines}`));
  }
  if (blocks.length === 0) return message;
  const notes = [
    failing.length > 0 ? `${failing.length} rule(s) failing` : '',
    problems.length > 0 ? `${problems.length} rule(s) cannot be evaluated` : '',
  ].filter((t) => t !== '');
  return {
    ...message,
    text: `${message.text}; ${notes.join('; ')}`,
    blocks: [...(message.blocks ?? []), ...blocks].slice(0, 50),
  };
}

const section = (text: string): Block => mrkdwnSection(text);

/** Rules whose latest finished evaluation run failed (its attempts spent, or failing now). */
function failingRules(input: AlertsOverviewInput): Array<{ report: string; rule: string; run: Run }> {
  if (!input.runs) return [];
  const out: Array<{ report: string; rule: string; run: Run }> = [];
  for (const report of input.reports.reports) {
    const rules = report.definition.alerts ?? [];
    if (rules.length === 0) continue;
    const runs = input.runs.listByReport(report.id, 200);
    for (const rule of rules) {
      const prefix = specRunKeyPrefix({ kind: 'alert', report: report.id, channel: '', rule: rule.id });
      const latest = runs.find((r) => r.idempotencyKey.startsWith(prefix) && r.status !== 'running');
      if (latest?.status === 'failed') out.push({ report: report.id, rule: rule.id, run: latest });
    }
  }
  return out;
}

function unitOf(key: string) {
  const unit = describeColumn({ key, kind: 'metric', name: key, args: {} }).unit;
  return unit === 'text' || unit === 'time' ? undefined : unit;
}
