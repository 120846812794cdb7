/**
 * `/pivot alerts` (and the App Home section): the open incidents, and for every rule when it was
 * last evaluated. A rule that never ran is named as "not evaluated yet": with no incidents and no
 * evaluation, a green "all clear" would be a claim nobody checked.
 */
import { type FormatUnit, formatValue } from '../format.js';
import { fitMessage, fitText, SLACK_LIMITS } from '../slackLimits.js';
import { formatWhen, mentionText } from './alertMessages.js';
import { elapsedSuffix } from './jobProgressMessage.js';
import { context, escapeMrkdwn, mrkdwn } from './text.js';
import type { Block, SlackMessage } from './types.js';

export interface SummaryRule {
  reportTitle: string;
  ruleId: string;
  ruleName: string;
  /** Absent: never evaluated. */
  lastEvaluatedAt?: string;
  evaluated?: number;
  breaching?: number;
  skipped?: number;
  openIncidents: number;
  /** The rule's incidents of the last `days` days (from the stored incidents). */
  figures?: { opened: number; acknowledged: number; selfResolved: number; medianOpenMs?: number };
}

/** The days `SummaryRule.figures` cover. */
const FIGURE_DAYS = 30;

/** `30 d: 4 opened, 1 acknowledged, 3 resolved by themselves within a day, median 5 h open`. */
function figuresText(f: NonNullable<SummaryRule['figures']>): string {
  if (f.opened === 0) return `${FIGURE_DAYS} d: none opened`;
  const median = f.medianOpenMs === undefined ? '' : `, median ${durationText(f.medianOpenMs)} open`;
  return `${FIGURE_DAYS} d: ${f.opened} opened, ${f.acknowledged} acknowledged, ${f.selfResolved} resolved by themselves within a day${median}`;
}

function durationText(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 90) return `${minutes} min`;
  const hours = Math.round(ms / 3_600_000);
  return hours < 48 ? `${hours} h` : `${Math.round(hours / 24)} d`;
}

export interface SummaryIncident {
  reportTitle: string;
  ruleName: string;
  incident: {
    entityKey: string;
    entityLabel?: string;
    openedAt: string;
    reopenedAt?: string;
    lastValue?: number;
    acknowledgedBy?: string;
    snoozedUntil?: string;
  };
  unit?: FormatUnit;
  /** Permalink of the incident's thread. */
  threadUrl?: string;
}

export interface AlertsSummaryInput {
  rules: readonly SummaryRule[];
  open: readonly SummaryIncident[];
  now: string;
  timezone: string;
  /** Rules whose latest evaluation failed, or that cannot be evaluated now (listed by the caller). */
  troubled?: number;
}

/** Open incidents and rules listed at most; the rest is counted. */
const MAX_LISTED = 25;

/**
 * The alerts summary as a message.
 *
 * @example alertsSummaryMessage({ rules, open, now: new Date().toISOString(), timezone: 'UTC' })
 */
export function alertsSummaryMessage(input: AlertsSummaryInput): SlackMessage {
  const { rules, open, now, timezone } = input;
  const never = rules.filter((r) => r.lastEvaluatedAt === undefined);
  const evaluated = rules.length - never.length;
  const blocks: Block[] = [];

  // Rules that ran but checked nothing (every entity below the volume floor or without a baseline,
  // or no rows): no incident from them means nothing was looked at, not that all is well.
  const blind = rules.filter((r) => r.lastEvaluatedAt !== undefined && r.evaluated === 0);
  const troubled = input.troubled ?? 0;
  const caveats = [
    never.length > 0 ? `*${never.length} not evaluated yet*` : '',
    blind.length > 0 ? `*${blind.length} checked nothing at their last run*` : '',
    troubled > 0 ? `*${troubled} failing or unable to run* (below)` : '',
  ].filter((t) => t !== '');
  let headline: string;
  if (open.length > 0) headline = `:rotating_light: *${open.length} open incident${open.length === 1 ? '' : 's'}*`;
  else if (evaluated === 0)
    headline = `:grey_question: *No rule has been evaluated yet*: nothing is known about ${rules.length} rule${rules.length === 1 ? '' : 's'}.`;
  else if (caveats.length > 0) {
    headline = `No open incidents among the ${evaluated} evaluated rule${evaluated === 1 ? '' : 's'}; ${caveats.join('; ')}.`;
  } else
    headline = `:white_check_mark: No open incidents; all ${evaluated} rule${evaluated === 1 ? '' : 's'} evaluated.`;
  blocks.push({ type: 'section', text: mrkdwn(headline) });

  if (open.length > 0) {
    const lines = open.slice(0, MAX_LISTED).map((o) => {
      const i = o.incident;
      const entity = escapeMrkdwn(short(i.entityLabel ?? i.entityKey));
      const since = i.reopenedAt ?? i.openedAt;
      const value = i.lastValue === undefined ? '' : ` · ${formatValue(i.lastValue, o.unit ?? 'count')}`;
      const state = i.acknowledgedBy
        ? ` · acknowledged by ${mentionText(i.acknowledgedBy)}`
        : i.snoozedUntil && Date.parse(i.snoozedUntil) > Date.parse(now)
          ? ` · snoozed until ${formatWhen(i.snoozedUntil, timezone)}`
          : ' · open';
      const link = o.threadUrl ? ` · <${o.threadUrl}|thread>` : '';
      return `• *${escapeMrkdwn(short(o.ruleName))}* (${escapeMrkdwn(short(o.reportTitle))}): ${entity}${value}, since ${formatWhen(since, timezone)}${elapsedSuffix(Date.parse(now) - Date.parse(since))}${state}${link}`;
    });
    blocks.push({ type: 'section', text: mrkdwn(listText(lines, open.length, '')) });
  }

  if (rules.length > 0) {
    const lines = rules.slice(0, MAX_LISTED).map((r) => {
      const name = `\`${escapeMrkdwn(short(r.ruleId))}\` (${escapeMrkdwn(short(r.reportTitle))})`;
      const figures = r.figures ? ` · ${figuresText(r.figures)}` : '';
      if (r.lastEvaluatedAt === undefined) return `:grey_question: ${name}: not evaluated yet${figures}`;
      if (r.evaluated === 0) {
        const why = r.skipped ? `${r.skipped} skipped (below the volume floor, or no baseline)` : 'no rows';
        return `:grey_question: ${name}: last ran ${formatWhen(r.lastEvaluatedAt, timezone)} but checked nothing · ${why}${figures}`;
      }
      const counts = [
        r.evaluated === undefined ? '' : `${r.evaluated} checked`,
        r.breaching ? `${r.breaching} in breach` : '',
        r.skipped ? `${r.skipped} skipped` : '',
        r.openIncidents ? `${r.openIncidents} open` : '',
      ].filter((t) => t !== '');
      return `:white_small_square: ${name}: last ran ${formatWhen(r.lastEvaluatedAt, timezone)}${counts.length > 0 ? ` · ${counts.join(', ')}` : ''}${figures}`;
    });
    blocks.push(context(`*Rules:* ${evaluated} of ${rules.length} evaluated · times in ${escapeMrkdwn(timezone)}`));
    blocks.push({ type: 'section', text: mrkdwn(listText(lines, rules.length, ' rules')) });
  }
  const text =
    open.length > 0
      ? `${open.length} open alert incident(s)`
      : never.length > 0
        ? `No open incidents; ${never.length} rule(s) not evaluated yet`
        : blind.length > 0
          ? `No open incidents; ${blind.length} rule(s) checked nothing at their last run`
          : 'No open alert incidents';
  return fitMessage({ text, blocks }).message;
}

/** Names are cut so one long campaign name cannot push every other incident out of the message. */
function short(text: string): string {
  return fitText(text, 80);
}

/** As many lines as fit one section, then how many more there are. */
function listText(lines: readonly string[], total: number, noun: string): string {
  const room = SLACK_LIMITS.sectionText - 40;
  const kept: string[] = [];
  let length = 0;
  for (const line of lines) {
    if (length + line.length + 1 > room) break;
    kept.push(line);
    length += line.length + 1;
  }
  if (kept.length < total) kept.push(`…and ${total - kept.length} more${noun}.`);
  return kept.join('\n');
}
