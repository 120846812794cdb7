/**
 * An alert incident's parents: one in each of the report's channels, matched to the channels by
 * the channel each was posted in, posted with the incident's chart (or a note saying why it has
 * none) and recorded right after each post, found again in a channel's history after a restart,
 * and redrawn in the incident's current state.
 */
import { failpoint } from '../core/index.js';
import { alertMessageInput } from '../insights/index.js';
import {
  alertChartView,
  alertParentMessage,
  pacingChartView,
  type SlackMessage,
  trendLimits,
} from '../render/index.js';
import {
  ALERT_EVENT,
  alertMetadata,
  type HistoryMessage,
  isTopLevel,
  type Posted,
  SlackDeliveryError,
  type SlackGateway,
} from '../slackapi/index.js';
import type { AlertIncident } from '../store/index.js';
import {
  GONE_LOG,
  HISTORY_PAGE,
  HISTORY_PAGES,
  messageContext,
  parentsOf,
  type RuleThreads,
  type ThreadDeps,
  threadGone,
} from './alertThreads.js';
import { postWithImage } from './postWithImage.js';

/**
 * The parent of this incident in a channel's history (a post an earlier process made), if any: a
 * top-level post (`isTopLevel`, so also one that already has replies) with the incident's metadata.
 */
export function findAlertParent(
  messages: readonly HistoryMessage[],
  incident: AlertIncident,
): HistoryMessage | undefined {
  return messages.find(
    (m) =>
      isTopLevel(m) &&
      m.metadata?.event_type === ALERT_EVENT &&
      m.metadata.event_payload.report === incident.reportId &&
      m.metadata.event_payload.rule === incident.ruleId &&
      m.metadata.event_payload.entity === incident.entityKey,
  );
}

/**
 * Whether an open incident may lack a parent in one of the report's channels, without asking Slack:
 * it has none, or a channel as written is not the channel of one of its parents (a channel added,
 * or written by `#name`: `ensureParents` compares ids).
 */
export function mayLackParents(channels: readonly string[], incident: AlertIncident): boolean {
  if (incident.threadTs === undefined) return true;
  const posted = new Set(parentsOf(incident).map((p) => p.channel));
  return channels.some((c) => !posted.has(c));
}

/**
 * The report channels in which the incident has no parent yet, in the order written. Each parent
 * is matched to a channel by the channel it was posted in, never by its position: the report's
 * channels may have been reordered, added or replaced since. A channel written by `#name` is
 * compared by its id (`SlackGateway.channelId`); a name Slack no longer knows (renamed, archived)
 * keeps a parent no other channel claims, so its thread is still told and not posted again.
 */
export async function channelsLackingParents(
  threads: Pick<RuleThreads, 'channels' | 'signal'>,
  incident: AlertIncident,
  idOf: ChannelIds,
): Promise<string[]> {
  const unclaimed = parentsOf(incident).map((p) => p.channel);
  const claim = (index: number) => index >= 0 && unclaimed.splice(index, 1).length > 0;
  const inexact = threads.channels.filter((written) => !claim(unclaimed.indexOf(written)));
  const unknown: string[] = [];
  const lacking: string[] = [];
  for (const written of inexact) {
    const id = await idOf(written);
    if (id === undefined) unknown.push(written);
    else if (!claim(await findIndex(unclaimed, async (c) => (await idOf(c)) === id))) lacking.push(written);
  }
  for (const written of unknown) if (!claim(unclaimed.length > 0 ? 0 : -1)) lacking.push(written);
  return threads.channels.filter((c) => lacking.includes(c));
}

/** A channel's id: itself, or a `#name`'s (undefined when Slack knows no such channel, or cannot say). */
export type ChannelIds = (channel: string) => Promise<string | undefined>;

/** Channel ids through the gateway, each asked once. Errors other than "no such channel" are raised. */
export function channelIds(slack: Pick<SlackGateway, 'channelId'>, signal?: AbortSignal): ChannelIds {
  const known = new Map<string, Promise<string | undefined>>();
  return (channel) => {
    if (!channel.startsWith('#')) return Promise.resolve(channel);
    let id = known.get(channel);
    if (!id) {
      id = slack.channelId
        ? slack.channelId(channel, signal ? { signal } : {}).catch((error: unknown) => {
            if (error instanceof SlackDeliveryError && error.slackError === 'channel_not_found') return undefined;
            throw error;
          })
        : Promise.resolve(undefined);
      known.set(channel, id);
    }
    return id;
  };
}

async function findIndex<T>(items: readonly T[], test: (item: T) => Promise<boolean>): Promise<number> {
  for (let i = 0; i < items.length; i++) if (await test(items[i] as T)) return i;
  return -1;
}

/**
 * Posts the parents an open incident lacks, one in each report channel that has none
 * (`channelsLackingParents`), and records each right after it is posted. `checkHistory`: an
 * earlier process may have posted and died before recording, so the channel's history (the
 * parent's metadata) is read first and a found parent is recorded instead of posted again.
 */
export async function ensureParents(
  threads: RuleThreads,
  incident: AlertIncident,
  deps: ThreadDeps,
  options: {
    checkHistory: boolean;
    chartPoints?: ReadonlyArray<{ at: string; value: number }>;
    /** The chart's values could not be fetched: the parent says so instead of showing none in silence. */
    chartUnavailable?: boolean;
  },
): Promise<AlertIncident> {
  let current = incident;
  const idOf = channelIds(deps.slack, threads.signal);
  for (const channel of await channelsLackingParents(threads, current, idOf)) {
    const where = { incident: current.id, report: threads.report.id, rule: threads.rule.id, channel };
    let found: { ts: string; channel: string } | undefined;
    if (options.checkHistory) {
      const history = await deps.slack.history(channel, {
        oldest: (Date.parse(current.openedAt) / 1000 - 60).toFixed(6),
        includeAllMetadata: true,
        limit: HISTORY_PAGE,
        pages: HISTORY_PAGES,
        until: (m) => findAlertParent([m], current) !== undefined,
        ...(threads.signal ? { signal: threads.signal } : {}),
      });
      const earlier = findAlertParent(history, current);
      if (earlier) {
        deps.logger.info(
          { ...where, ts: earlier.ts },
          'alert parent already posted by an earlier process; recording it',
        );
        // Recorded by id when Slack can say it, as a posted parent is.
        found = { ts: earlier.ts, channel: (await idOf(channel)) ?? channel };
      }
    }
    if (!found) {
      let unavailable = options.chartUnavailable === true;
      if (current.chartFileId === undefined && options.chartPoints && !unavailable) {
        const chart = await drawChart(threads, current, options.chartPoints, deps);
        if (chart.fileId) current = { ...current, chartFileId: chart.fileId };
        unavailable = chart.failed;
      }
      const input = alertMessageInput(current, messageContext(threads, current));
      const message = alertParentMessage(input);
      const postOptions = {
        metadata: alertMetadata({ ...input, entityKey: current.entityKey }, 'open'),
        ...(threads.signal ? { signal: threads.signal } : {}),
      };
      let posted: Posted;
      if (current.chartFileId !== undefined && !unavailable) {
        // Slack may still be processing the chart it was just given: postWithImage waits for it.
        const bare = withoutChartFile(current);
        const sent = await postWithImage(
          deps.slack,
          channel,
          {
            withImage: message,
            withoutImage: withChartUnavailable(
              alertParentMessage(alertMessageInput(bare, messageContext(threads, bare))),
              'Slack did not accept the chart image',
            ),
          },
          postOptions,
          deps.imageRetryDelaysMs,
        );
        if (sent.refused) {
          deps.logger.warn({ ...where, err: sent.refused }, 'alert chart refused by Slack; parent posted without it');
          current = bare;
        }
        posted = sent.posted;
      } else {
        posted = await deps.slack.post(channel, unavailable ? withChartUnavailable(message) : message, postOptions);
      }
      // The crash tests kill the bot on this line (or at the failpoint): posted, not yet recorded.
      deps.logger.debug({ ...where, ts: posted.ts }, 'alert parent posted');
      failpoint('alert-parent-posted');
      found = posted;
    }
    // The first parent is the incident's own (`channel`/`threadTs`); the others are `threads`.
    const stored = deps.store.incidents.get(current.id) ?? current;
    const parent = found;
    if (parentsOf(stored).some((p) => p.ts === parent.ts && p.channel === parent.channel)) {
      // Recorded meanwhile by a replica that took the slot over (it found this post in the history
      // while this one, frozen, waited for Slack's answer): not a second parent of the incident.
      current = stored;
      continue;
    }
    current =
      stored.threadTs === undefined
        ? { ...stored, channel: found.channel, threadTs: found.ts, ...chartOf(current) }
        : {
            ...stored,
            threads: [...(stored.threads ?? []), { channel: found.channel, ts: found.ts }],
            ...chartOf(current),
          };
    current = await deps.store.incidents.save(current);
  }
  return current;
}

const chartOf = (incident: AlertIncident) => (incident.chartFileId ? { chartFileId: incident.chartFileId } : {});

/** The incident without its chart file (a chart Slack would not show). */
function withoutChartFile(incident: AlertIncident): AlertIncident {
  const { chartFileId: _dropped, ...rest } = incident;
  return rest;
}

/** The parent with a note where its chart would be: its values could not be fetched or drawn, or Slack refused it. */
export function withChartUnavailable(
  message: SlackMessage,
  why = 'the recent values could not be fetched or drawn',
): SlackMessage {
  const note = {
    type: 'context',
    elements: [{ type: 'mrkdwn', text: `:warning: Chart unavailable: ${why}.` }],
  } as SlackMessage['blocks'][number];
  const blocks = [...message.blocks];
  const actions = blocks.findIndex((b) => (b as { type?: string }).type === 'actions');
  blocks.splice(actions < 0 ? blocks.length : actions, 0, note);
  return { ...message, blocks };
}

/**
 * The small chart, uploaded as a file shared nowhere: its file id, none when there is too little
 * to draw, `failed` when drawing or uploading it failed.
 */
async function drawChart(
  threads: RuleThreads,
  incident: AlertIncident,
  points: ReadonlyArray<{ at: string; value: number }>,
  deps: ThreadDeps,
): Promise<{ fileId?: string; failed: boolean }> {
  const input = alertMessageInput(incident, messageContext(threads, incident));
  if (input.metric.unit === 'text' || input.metric.unit === 'time') return { failed: false };
  // A pacing incident's chart is the month it judged: spend so far, the forecast's path, the plan.
  const view =
    input.condition.kind === 'pacing'
      ? threads.pacingPath &&
        pacingChartView({
          title: input.ruleName,
          label: input.metric.label,
          days: threads.pacingPath,
          condition: input.condition,
          timezone: threads.timezone,
        })
      : alertChartView({
          title: input.ruleName,
          metric: { ...input.metric, unit: input.metric.unit },
          points,
          ...(incident.band ? { band: incident.band } : trendLimits(input.condition, threads.chartShape)),
          ...(input.entity ? { entity: input.entity } : {}),
          timezone: threads.timezone,
        });
  if (!view) return { failed: false };
  try {
    const png = await deps.charts.renderView(view);
    if (!png) return { failed: false };
    const fileId = await deps.slack.uploadPrivate(
      { filename: `${threads.rule.id}.png`, data: png.data, title: png.alt, altText: png.alt },
      threads.signal ? { signal: threads.signal } : {},
    );
    return { fileId, failed: false };
  } catch (error) {
    deps.logger.warn({ err: error, incident: incident.id }, 'alert chart not drawn; the parent goes out without it');
    return { failed: true };
  }
}

/** Redraws every parent of the incident in its current state (resolved, acknowledged, snoozed, reopened). */
export async function editParents(
  threads: RuleThreads,
  incident: AlertIncident,
  deps: Pick<ThreadDeps, 'slack'> & Partial<Pick<ThreadDeps, 'logger'>>,
  options: { skipGone?: boolean } = {},
): Promise<number> {
  const input = alertMessageInput(incident, messageContext(threads, incident));
  const message = alertParentMessage(input);
  const state = incident.state === 'resolved' ? 'resolved' : 'open';
  let edited = 0;
  for (const parent of parentsOf(incident)) {
    try {
      await deps.slack.update(parent.channel, parent.ts, message, {
        metadata: alertMetadata({ ...input, entityKey: incident.entityKey }, state),
        ...(threads.signal ? { signal: threads.signal } : {}),
      });
      edited++;
    } catch (error) {
      if (!options.skipGone || !threadGone(error)) throw error;
      deps.logger?.warn({ incident: incident.id, channel: parent.channel, thread: parent.ts, err: error }, GONE_LOG);
    }
  }
  return edited;
}
