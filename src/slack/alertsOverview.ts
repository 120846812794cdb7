/**
 * `/pivot alerts` and App Home's alert section: every rule with when it last ran (or that it never
 * did), the open incidents with a link to their thread, and the rules that cannot be evaluated
 * (no schedule, no channel). Facts from the alert core (`summarizeAlerts`) and the scheduler
 * (`listAlertSchedules`), drawn by `alertsSummaryMessage`.
 */
import { ruleMetricKey, summarizeAlerts } from '../alerts/index.js';
import { alertsSummaryMessage, type Block, escapeMrkdwn, type SlackMessage } from '../render/index.js';
import { describeColumn, type LoadedReports } from '../reports/index.js';
import { listAlertSchedules } from '../scheduler/index.js';
import type { IncidentsRepository } from '../store/index.js';
import { threadUrl } from './alertThreads.js';

export interface AlertsOverviewInput {
  reports: Pick<LoadedReports, 'reports'>;
  incidents: Pick<IncidentsRepository, 'listEvaluations' | 'listOpen'>;
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
  });
  const rules = new Map(
    input.reports.reports.flatMap((r) => (r.definition.alerts ?? []).map((a) => [`${r.id}/${a.id}`, a])),
  );
  const message = alertsSummaryMessage({
    rules: summary.rules,
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
  const { problems } = listAlertSchedules(input.reports, { timezone: input.timezone });
  if (problems.length === 0) return message;
  const lines = problems
    .slice(0, 20)
    .map((p) => `• \`${escapeMrkdwn(p.report)}\`: ${escapeMrkdwn(p.message)}`)
    .join('\n');
  const block: Block = {
    type: 'section',
    text: { type: 'mrkdwn', text: `:warning: *Not evaluated (${problems.length})*\n${lines}`.slice(0, 2900) },
  };
  return {
    ...message,
    text: `${message.text}; ${problems.length} rule(s) cannot be evaluated`,
    blocks: [...(message.blocks ?? []), block].slice(0, 50),
  };
}

function unitOf(key: string) {
  const unit = describeColumn({ key, kind: 'metric', name: key, args: {} }).unit;
  return unit === 'text' || unit === 'time' ? undefined : unit;
}
