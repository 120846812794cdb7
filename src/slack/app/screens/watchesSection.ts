/**
 * The watches ("Watch this") under `/pivot alerts` and App Home's alerts: each one's name, query
 * and where its incidents go (a channel, or its owner's DM for a personal watch), with a Remove
 * button (Slack's confirm dialog first) for whoever may remove it. A person sees the channel
 * watches and their own personal ones; an admin sees and may remove every watch.
 */

import { savedName, watchAccess, watchesOf } from '../../../query/index.js';
import { ACTION_IDS, type Block, escapeMrkdwn, fitText } from '../../../render/index.js';
import type { LoadedReports } from '../../../reports/index.js';
import type { IncidentsRepository, Subscription } from '../../../store/index.js';

/** Watches listed at most (each is one block; a message holds 50). */
const MAX_WATCHES = 20;

/**
 * The blocks: a heading line, then one section per watch `who` may see, its Remove button when
 * they may remove it (an admin: every watch; anyone else: their own personal watches).
 *
 * @example watchesSection(store.subscriptions.list(), { userId, admin: admins.includes(userId) })
 */
export function watchesSection(
  subscriptions: readonly Subscription[],
  who: { userId: string; admin: boolean },
): Block[] {
  const watches = watchesOf(subscriptions).filter((w) => watchAccess(w, who).visible);
  if (watches.length === 0) return [];
  const more = watches.length > MAX_WATCHES ? ` · ${watches.length - MAX_WATCHES} more: \`/pivot unwatch <name>\`` : '';
  const hint = who.admin ? '' : ' · admins remove channel watches; you remove your own';
  const blocks: Block[] = [
    {
      type: 'context',
      elements: [{ type: 'mrkdwn', text: `*Watches (${watches.length})*, saved with Watch this${hint}${more}` }],
    },
  ];
  for (const watch of watches.slice(0, MAX_WATCHES)) {
    const name = savedName(watch.report);
    const where = whereText(watch, who.userId);
    const text = `\`${escapeMrkdwn(name)}\` · ${escapeMrkdwn(fitText(watch.query ?? '', 200))} · ${where}`;
    blocks.push({
      type: 'section',
      text: { type: 'mrkdwn', text },
      ...(watchAccess(watch, who).removable
        ? {
            accessory: {
              type: 'button',
              action_id: ACTION_IDS.unwatch,
              text: { type: 'plain_text', text: 'Remove' },
              style: 'danger',
              value: JSON.stringify({ name }),
              confirm: {
                title: { type: 'plain_text', text: 'Remove this watch?' },
                text: {
                  type: 'mrkdwn',
                  text: `\`${escapeMrkdwn(name)}\` stops being evaluated; its incident threads stay in ${where}.`,
                },
                confirm: { type: 'plain_text', text: 'Remove' },
                deny: { type: 'plain_text', text: 'Keep it' },
                style: 'danger',
              },
            },
          }
        : {}),
    } as Block);
  }
  return blocks;
}

/** Where a watch's incidents go: `<#C…>`, `your DMs` for one's own personal watch, `<@U…>'s DMs` for another's. */
function whereText(watch: Subscription, userId: string): string {
  if (watch.owner === undefined) return `<#${watch.channel}>`;
  return watch.owner === userId ? 'your DMs' : `<@${watch.owner}>'s DMs`;
}

type OverviewIncidents = Pick<IncidentsRepository, 'listEvaluations' | 'listOpen' | 'listByReportRule'>;

/**
 * The reports and incidents the alerts summary shows `who`: without the personal watches of
 * others (their rules, evaluations and incidents are their owner's and the admins' to see).
 *
 * @example alertsOverview({ ...visibleAlerts(await loadReports(), store.incidents, store.subscriptions.list(), who), now, timezone })
 */
export function visibleAlerts<R extends Pick<LoadedReports, 'reports'>>(
  reports: R,
  incidents: OverviewIncidents,
  subscriptions: readonly Subscription[],
  who: { userId: string; admin: boolean },
): { reports: R; incidents: OverviewIncidents } {
  const hidden = new Set(
    watchesOf(subscriptions)
      .filter((w) => !watchAccess(w, who).visible)
      .map((w) => w.report),
  );
  if (hidden.size === 0) return { reports, incidents };
  return {
    reports: { ...reports, reports: reports.reports.filter((r) => !hidden.has(r.id)) },
    incidents: {
      listEvaluations: () => incidents.listEvaluations().filter((e) => !hidden.has(e.reportId)),
      listOpen: () => incidents.listOpen().filter((i) => !hidden.has(i.reportId ?? '')),
      listByReportRule: (reportId, ruleId) =>
        hidden.has(reportId) ? [] : incidents.listByReportRule(reportId, ruleId),
    },
  };
}

/** The name a Remove button carries (`{ name }`), or undefined. */
export function unwatchName(value: string | undefined): string | undefined {
  try {
    const parsed = JSON.parse(value ?? '') as { name?: unknown };
    return typeof parsed.name === 'string' && parsed.name !== '' ? parsed.name : undefined;
  } catch {
    return undefined;
  }
}
