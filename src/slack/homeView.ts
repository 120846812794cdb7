import { type Block, escapeMrkdwn, type SlackMessage } from '../render/index.js';
import type { LoadedReports } from '../reports/index.js';
import { scheduleText } from './infoMessages.js';
import { problemLines, type ScheduleOverview, scheduleLineText } from './scheduleMessages.js';

export interface HomeInput {
  reports: LoadedReports;
  /** What the scheduler runs (the same facts as `/pivot schedule`). */
  schedules: ScheduleOverview;
  /** The alerts summary (`alertsOverview`): open incidents, and which rules ran when or never. */
  alerts: SlackMessage;
  timezone: string;
  sandbox: boolean;
}

/** Slack allows 100 blocks in a Home tab; keep a margin for the headers. */
const MAX_ITEMS = 25;

/**
 * The App Home tab: the reports available, every schedule with its next post and last outcome, and open incidents.
 *
 * @example gateway.publishHome(userId, homeView({ reports, schedules: scheduleOverview(…), alerts: alertsOverview(…), timezone: 'UTC', sandbox: true }))
 */
export function homeView(input: HomeInput): { type: 'home'; blocks: Block[] } {
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
  blocks.push({
    type: 'section',
    text: {
      type: 'mrkdwn',
      text: (lines.length === 0
        ? 'No digest is scheduled. A report posts on its `schedule` to its `deliver.channels`; an admin subscribes a channel with `/pivot subscribe <report> #channel at 09:00`.'
        : lines.slice(0, MAX_ITEMS).map(scheduleLineText).join('\n')
      ).slice(0, 2900),
    },
  });
  if (problems.length > 0) {
    blocks.push({
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: `:warning: *Not running (${problems.length})*\n${problemLines(problems)}`.slice(0, 2900),
      },
    });
  }
  blocks.push({ type: 'divider' });
  blocks.push({ type: 'header', text: { type: 'plain_text', text: 'Alerts', emoji: true } });
  // The same summary as /pivot alerts: never "nothing open" for rules nobody evaluated.
  blocks.push(...((input.alerts.blocks ?? []) as Block[]).slice(0, 100 - blocks.length));
  return { type: 'home', blocks };
}
