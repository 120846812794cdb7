import { type Block, escapeMrkdwn, type HomeView, mrkdwnSection, type SlackMessage } from '../../../render/index.js';
import type { LoadedReports } from '../../../reports/index.js';
import type { IncidentsRepository, Run, RunsRepository } from '../../../store/index.js';
import { scheduleText } from './infoMessages.js';
import { historyLine, problemLines, type ScheduleOverview, scheduleLineText } from './scheduleMessages.js';

export interface HomeInput {
  reports: LoadedReports;
  /** What the scheduler runs (the same facts as `/pivot schedule`). */
  schedules: ScheduleOverview;
  /** The alerts summary (`alertsOverview`): open incidents, and which rules ran when or never. */
  alerts: SlackMessage;
  timezone: string;
  sandbox: boolean;
  /** The latest runs of every report, newest first (as `/pivot history` lists one report's). */
  recentRuns?: readonly Run[];
  incidents?: Pick<IncidentsRepository, 'listByReportRule'>;
}

/** Runs listed under "Recent runs", as `/pivot history` lists a report's. */
export const HOME_RECENT_RUNS = 10;

/**
 * The latest runs across reports and saved queries (their subscriptions' report ids), newest first.
 *
 * @example recentRuns(store.runs, await loadReports(), store.subscriptions.list())
 */
export function recentRuns(
  runs: Pick<RunsRepository, 'listByReport'>,
  reports: Pick<LoadedReports, 'reports'>,
  subscriptions: ReadonlyArray<{ report: string }> = [],
): Run[] {
  const ids = new Set([...reports.reports.map((r) => r.id), ...subscriptions.map((s) => s.report)]);
  return [...ids]
    .flatMap((id) => runs.listByReport(id, HOME_RECENT_RUNS))
    .sort((a, b) => b.startedAt.localeCompare(a.startedAt))
    .slice(0, HOME_RECENT_RUNS);
}

/** Slack allows 100 blocks in a Home tab; keep a margin for the headers. */
const MAX_ITEMS = 25;

/**
 * The App Home tab: the reports available, every schedule with its next post and last outcome, and open incidents.
 *
 * @example gateway.publishHome(userId, homeView({ reports, schedules: scheduleOverview(…), alerts: alertsOverview(…), timezone: 'UTC', sandbox: true }))
 */
export function homeView(input: HomeInput): HomeView {
  const blocks: Block[] = [{ type: 'header', text: { type: 'plain_text', text: 'pivotbot', emoji: true } }];
  if (input.sandbox) {
    blocks.push({
      type: 'context',
      elements: [{ type: 'mrkdwn', text: ':test_tube: Embedded sandbox: synthetic data.' }],
    });
  }
  blocks.push({
    type: 'header',
    text: { type: 'plain_text', text: `Reports (${input.reports.reports.length})`, emoji: true },
  });
  for (const report of input.reports.reports.slice(0, MAX_ITEMS)) {
    blocks.push({
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: `*${escapeMrkdwn(report.definition.title)}* · \`${report.id}\`\n${scheduleText(report.definition.schedule, input.timezone)} · \`/pivot run ${report.id}\``,
      },
    });
  }
  if (input.reports.broken.length > 0) {
    blocks.push({
      type: 'context',
      elements: [{ type: 'mrkdwn', text: `:warning: ${input.reports.broken.length} definition(s) have problems.` }],
    });
  }
  blocks.push({ type: 'divider' });
  const { lines, problems } = input.schedules;
  blocks.push({
    type: 'header',
    text: { type: 'plain_text', text: `Schedules (${lines.length})`, emoji: true },
  });
  blocks.push(
    mrkdwnSection(
      lines.length === 0
        ? 'No digest is scheduled. A report posts on its `schedule` to its `deliver.channels`; an admin invites me to a channel (`/invite @pivotbot`) and subscribes it with `/pivot subscribe <report> #channel at 09:00`.'
        : lines.slice(0, MAX_ITEMS).map(scheduleLineText).join('\n'),
    ),
  );
  if (problems.length > 0) {
    blocks.push(mrkdwnSection(`:warning: *Not running (${problems.length})*\n${problemLines(problems)}`));
  }
  if (input.recentRuns && input.recentRuns.length > 0) {
    const runs = input.recentRuns.slice(0, HOME_RECENT_RUNS);
    blocks.push({
      type: 'header',
      text: { type: 'plain_text', text: `Recent runs (${runs.length})`, emoji: true },
    });
    blocks.push(
      mrkdwnSection(
        `${runs.map((run) => `${historyLine(run, input.incidents)} · \`${escapeMrkdwn(run.report)}\``).join('\n')}\n_\`/pivot history <report>\` lists one report's._`,
      ),
    );
  }
  blocks.push({ type: 'divider' });
  blocks.push({ type: 'header', text: { type: 'plain_text', text: 'Alerts', emoji: true } });
  // The same summary as /pivot alerts: never "nothing open" for rules nobody evaluated.
  blocks.push(...input.alerts.blocks.slice(0, 100 - blocks.length));
  return { type: 'home', blocks };
}
