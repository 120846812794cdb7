import { type Block, escapeMrkdwn } from '../render/index.js';
import type { LoadedReports } from '../reports/index.js';
import type { AlertIncident, Subscription } from '../store/index.js';
import { scheduleText } from './infoMessages.js';

export interface HomeInput {
  reports: LoadedReports;
  subscriptions: readonly Subscription[];
  incidents: readonly AlertIncident[];
  timezone: string;
  sandbox: boolean;
}

/** Slack allows 100 blocks in a Home tab; keep a margin for the headers. */
const MAX_ITEMS = 25;

/**
 * The App Home tab: the reports available, this workspace's subscriptions, and open incidents.
 *
 * @example gateway.publishHome(userId, homeView({ reports, subscriptions, incidents, timezone: 'UTC', sandbox: true }))
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
  blocks.push({
    type: 'header',
    text: { type: 'plain_text', text: `Subscriptions (${input.subscriptions.length})`, emoji: true },
  });
  blocks.push({
    type: 'section',
    text: {
      type: 'mrkdwn',
      text:
        input.subscriptions.length === 0
          ? 'None yet. An admin subscribes a channel with `/pivot subscribe <report> #channel at 09:00`.'
          : input.subscriptions
              .slice(0, MAX_ITEMS)
              .map((s) => `• \`${s.report}\` → <#${s.channel}>${s.schedule ? ` · \`${s.schedule}\`` : ''}`)
              .join('\n'),
    },
  });
  blocks.push({ type: 'divider' });
  blocks.push({
    type: 'header',
    text: { type: 'plain_text', text: `Open incidents (${input.incidents.length})`, emoji: true },
  });
  blocks.push({
    type: 'section',
    text: {
      type: 'mrkdwn',
      text:
        input.incidents.length === 0
          ? ':white_check_mark: Nothing open.'
          : input.incidents
              .slice(0, MAX_ITEMS)
              .map((i) => `• \`${escapeMrkdwn(i.ruleId)}\` · ${escapeMrkdwn(i.entityKey)} · since ${i.openedAt}`)
              .join('\n'),
    },
  });
  return { type: 'home', blocks };
}
