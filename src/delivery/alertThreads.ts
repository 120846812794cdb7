/**
 * Alert incidents as Slack threads: one parent per incident in each of the report's channels
 * (`alertParents.ts`: posted, found again after a restart, redrawn), replies for reminders, large
 * moves and reopenings (`alertReplies.ts`: the incident's outbox delivered). The decisions are the
 * alert core's (`alerts/`); this file holds what both sides share: the rule's thread facts, where an
 * incident's parents are, and which Slack errors mean a thread is gone.
 */
import { alertRequests, ruleMetricKey, type TrendShape } from '../alerts/index.js';
import type { MessageContext } from '../insights/index.js';
import type { PacingChartDay } from '../render/index.js';
import type { AlertRule, ReportDefinition } from '../reports/index.js';
import { SlackDeliveryError } from '../slackapi/index.js';
import type { AlertIncident } from '../store/index.js';
import type { DeliveryDeps } from './DeliveryDeps.js';

/** What posting needs: the gateway, the chart renderer, the store, a clock and a logger. */
export type ThreadDeps = Pick<
  DeliveryDeps,
  'slack' | 'charts' | 'store' | 'logger' | 'clock' | 'defaultTimeZone' | 'imageRetryDelaysMs'
>;

/** One rule of one report, with the facts every message of its incidents shares. */
export interface RuleThreads {
  report: { id: string; definition: ReportDefinition };
  rule: AlertRule;
  /** The report's `deliver.channels`, as written: a parent goes to each. */
  channels: readonly string[];
  rangeLabel: string;
  timezone: string;
  /** The messages' clock: the evaluation's slot, or now for a button. */
  now: Date;
  signal?: AbortSignal;
  /** How this evaluation's charts draw the recent values (`trendShape`); without a line, no threshold is drawn. */
  chartShape?: TrendShape;
  /** A pacing rule's evaluation: the month's days its incident's chart draws (`pacingPath`). */
  pacingPath?: readonly PacingChartDay[];
}

/**
 * How far back a restart looks for a parent (or reply) an earlier process posted: pages of 200
 * messages, newest first, stopping at the page that holds it; ten pages cover a busy channel.
 */
export const HISTORY_PAGE = 200;
export const HISTORY_PAGES = 10;

/** A Slack link to a message (works for any member of the channel). */
export function threadUrl(channel: string, ts: string): string | undefined {
  if (!/^[CGD][A-Z0-9]+$/.test(channel)) return undefined;
  return `https://slack.com/archives/${channel}/p${ts.replace('.', '')}`;
}

/** The facts of an incident's messages (the range label and zone of the rule's evaluation). */
export function messageContext(threads: RuleThreads, incident: AlertIncident): MessageContext {
  const ctx: MessageContext = {
    rule: threads.rule,
    reportId: threads.report.id,
    reportTitle: threads.report.definition.title,
    timezone: threads.timezone,
    rangeLabel: threads.rangeLabel,
    now: threads.now,
  };
  if (threads.report.definition.owners) ctx.owners = threads.report.definition.owners;
  if (incident.chartFileId) ctx.chart = { slackFileId: incident.chartFileId, alt: chartAlt(threads.rule, incident) };
  return ctx;
}

/** The range label and zone of a rule evaluated at `at` (for redrawing a parent outside an evaluation). */
export function ruleRange(
  report: { definition: ReportDefinition },
  rule: AlertRule,
  at: Date,
  defaultTimeZone: string,
): { rangeLabel: string; timezone: string } {
  try {
    const { compiled } = alertRequests(report, rule, { now: at, defaultTimeZone });
    return { rangeLabel: compiled.range.label, timezone: compiled.timezone };
  } catch {
    return { rangeLabel: '', timezone: report.definition.query.timezone ?? defaultTimeZone };
  }
}

function chartAlt(rule: AlertRule, incident: AlertIncident): string {
  // Drawn when the incident opened; the incident's figures move on with each evaluation.
  if (rule.pacing)
    return "Spend so far this month, its forecast to the month's end and the plan pro rata, with the tolerance's edge";
  return `Recent values of ${ruleMetricKey(rule)} for ${incident.entityLabel ?? incident.entityKey}, with the threshold`;
}

/**
 * Where the incident's parents are, `{ channel, ts }` each: its own (`channel`/`threadTs`) first,
 * then the others (`threads`) in the order they were posted. Not the order of `deliver.channels`,
 * which may have changed since: match them by channel (`channelsLackingParents`).
 */
export function parentsOf(incident: AlertIncident): Array<{ channel: string; ts: string }> {
  const out: Array<{ channel: string; ts: string }> = [];
  if (incident.threadTs) out.push({ channel: incident.channel, ts: incident.threadTs });
  for (const t of incident.threads ?? []) out.push(t);
  return out;
}

/** Slack errors that no retry will cure for this one thread: its parent or channel is gone. */
const GONE = new Set(['message_not_found', 'thread_not_found', 'channel_not_found', 'is_archived', 'is_inactive']);
export const GONE_LOG = 'alert thread gone (parent deleted, channel archived or gone); what it was owed is dropped';

/** Whether `error` says the thread can never be told (so an owed notice is dropped, not retried forever). */
export function threadGone(error: unknown): boolean {
  return error instanceof SlackDeliveryError && GONE.has(error.slackError);
}
