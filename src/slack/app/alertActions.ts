/**
 * The Acknowledge and Snooze buttons of an alert parent: the incident changed by the alert core's
 * `acknowledge` / `snooze`, saved through the store, and every parent of the incident redrawn in
 * place. Refusals (a resolved incident, an unknown one) are told to the clicker only.
 */
import { acknowledge, IncidentActionError, snooze } from '../../alerts/index.js';
import { type Logger, userMessageOf } from '../../core/index.js';
import { editParents, ruleRange } from '../../delivery/index.js';
import { ACTION_IDS, SNOOZE_ACTIONS } from '../../render/index.js';
import type { LoadedReports } from '../../reports/index.js';
import type { SlackGateway } from '../../slackapi/index.js';
import type { Store } from '../../store/index.js';
import { noticeMessage } from './screens/infoMessages.js';

export interface AlertClick {
  actionId: string;
  value?: string;
  userId: string;
  responseUrl?: string;
  channelId?: string;
}

export interface AlertActionDeps {
  slack: SlackGateway;
  store: Store;
  loadReports: () => Promise<LoadedReports>;
  logger: Logger;
  clock: () => Date;
  defaultTimeZone: string;
}

/** What a button asks: acknowledge, or snooze for some hours; undefined when the click is unreadable. */
export function parseAlertClick(
  actionId: string,
  raw: string | undefined,
): { incidentId: string; action: 'ack' } | { incidentId: string; action: 'snooze'; hours: number } | undefined {
  let value: Record<string, unknown>;
  try {
    value = JSON.parse(raw ?? '') as Record<string, unknown>;
  } catch {
    return undefined;
  }
  if (typeof value.incidentId !== 'string') return undefined;
  if (actionId === ACTION_IDS.alertAck) return { incidentId: value.incidentId, action: 'ack' };
  const fixed = SNOOZE_ACTIONS.find(([, id]) => id === actionId)?.[0];
  const hours = fixed ?? (typeof value.hours === 'number' ? value.hours : Number(value.hours));
  if (actionId.startsWith(ACTION_IDS.alertSnooze)) return { incidentId: value.incidentId, action: 'snooze', hours };
  return undefined;
}

/**
 * Handles one click. Never throws: a failure is logged and the clicker is told.
 *
 * @example await alertAction({ actionId: 'alert_snooze_4h', value, userId: 'U1', responseUrl }, deps)
 */
export async function alertAction(click: AlertClick, deps: AlertActionDeps): Promise<void> {
  const tell = async (text: string) => {
    const note = noticeMessage(text);
    if (click.responseUrl) await deps.slack.respond(click.responseUrl, note, { replaceOriginal: false });
    else if (click.channelId) await deps.slack.ephemeral(click.channelId, click.userId, note);
  };
  try {
    const asked = parseAlertClick(click.actionId, click.value);
    if (!asked) {
      await tell('That button is from an older pivotbot version; nothing was changed.');
      return;
    }
    const incident = deps.store.incidents.get(asked.incidentId);
    if (!incident) {
      await tell('pivotbot no longer knows this incident (it was pruned from the store); nothing was changed.');
      return;
    }
    const now = deps.clock();
    const next = asked.action === 'ack' ? acknowledge(incident, click.userId, now) : snooze(incident, asked.hours, now);
    const saved = next === incident ? incident : await deps.store.incidents.save(next);
    deps.logger.info(
      {
        incident: incident.id,
        action: asked.action,
        user: click.userId,
        ...(asked.action === 'snooze' ? { hours: asked.hours } : {}),
      },
      'alert button applied',
    );
    const loaded = await deps.loadReports();
    const report = loaded.reports.find((r) => r.id === saved.reportId);
    const rule = report?.definition.alerts.find((r) => r.id === saved.ruleId);
    if (!report || !rule) {
      await tell('Recorded. The rule is no longer in its report file, so its message could not be redrawn.');
      return;
    }
    const at = new Date(saved.lastEvaluatedAt ?? saved.updatedAt);
    const threads = {
      report,
      rule,
      channels: report.definition.deliver?.channels ?? [],
      ...ruleRange(report, rule, at, deps.defaultTimeZone),
      now,
    };
    // A parent deleted or in an archived channel does not keep the others from being redrawn.
    await editParents(threads, saved, deps, { skipGone: true });
  } catch (error) {
    if (error instanceof IncidentActionError) {
      await tell(error.userMessage).catch(() => undefined);
      return;
    }
    deps.logger.warn({ err: error, actionId: click.actionId }, 'alert button failed');
    await tell(`That did not work: ${userMessageOf(error)}`).catch(() => undefined);
  }
}
