/**
 * Alert messages for one incident thread: the parent message when a breach opens it (and edited
 * in place as the incident changes), replies when it updates, and the resolved state.
 */
import type { Polarity } from '../../reporting/index.js';
import { type FormatUnit, formatValue } from '../format.js';
import { fitMessage } from '../slackLimits.js';
import { ACTION_IDS } from './actionIds.js';
import { imageBlock } from './digestMessage.js';
import { formatElapsed } from './jobProgressMessage.js';
import { button, context, escapeMrkdwn, mrkdwn } from './text.js';
import type { Block, ChartImage, SlackMessage } from './types.js';

export type AlertState = 'opened' | 'updated' | 'resolved';
export type AlertSeverity = 'info' | 'warning' | 'critical';

/** How the rule compares: a fixed threshold, or a relative change against a comparison period. */
export type AlertCondition =
  | { kind: 'above'; threshold: number; recovery?: number }
  | { kind: 'below'; threshold: number; recovery?: number }
  | {
      kind: 'change';
      /** Threshold of the relative change, as a fraction (0.3 = 30 %). */
      percent: number;
      direction: 'up' | 'down' | 'any';
      /** The comparison value and its label: `previous period`, `same period last week`. */
      baseline: number | null;
      against: string;
    };

export interface AlertMessageInput {
  state: AlertState;
  incidentId: string;
  ruleId: string;
  ruleName: string;
  reportId: string;
  reportTitle: string;
  severity?: AlertSeverity;
  /** The entity breaching, for per-dimension rules: `Country BR`, `Campaign Summer Sale`. */
  entity?: string;
  metric: { key: string; label: string; unit: FormatUnit; polarity: Polarity };
  /** The value now (null when the service returned none). */
  value: number | null;
  /** The value when last announced, for updates: `was $2.71`. */
  previousValue?: number | null;
  condition: AlertCondition;
  /** The data range evaluated: `Yesterday (Thu 19 Nov 2026)`, and its zone. */
  rangeLabel: string;
  timezone: string;
  openedAt: string;
  /** The clock of the caller, for durations; builders stay pure. */
  now: string;
  /** Slack users to notify: `<@U123>` or `@name`. */
  mentions?: readonly string[];
  /** Permalink of the incident thread (for messages posted outside it). */
  threadUrl?: string;
  acknowledgedBy?: string;
  snoozedUntil?: string;
  chart?: ChartImage;
}

const SEVERITY_EMOJI: Readonly<Record<AlertSeverity, string>> = {
  info: ':large_blue_circle:',
  warning: ':large_orange_circle:',
  critical: ':rotating_light:',
};

/** The condition as words with formatted numbers: `above $2.40`, `up more than 30% vs previous period`. */
export function conditionText(input: AlertMessageInput): string {
  const c = input.condition;
  const unit = input.metric.unit;
  if (c.kind === 'above' || c.kind === 'below') return `${c.kind} ${formatValue(c.threshold, unit)}`;
  const dir = c.direction === 'any' ? 'changed by' : c.direction;
  const base = c.baseline === null ? '' : ` (${formatValue(c.baseline, unit)})`;
  return `${dir} more than ${formatValue(c.percent, 'ratio')} vs ${c.against}${base}`;
}

function subject(input: AlertMessageInput): string {
  const entity = input.entity ? ` for ${escapeMrkdwn(input.entity)}` : '';
  return `*${escapeMrkdwn(input.metric.label)}*${entity}`;
}

function lineFor(input: AlertMessageInput): string {
  const value = formatValue(input.value, input.metric.unit);
  const cond = escapeMrkdwn(conditionText(input));
  const name = escapeMrkdwn(input.ruleName);
  switch (input.state) {
    case 'opened':
      return `${SEVERITY_EMOJI[input.severity ?? 'warning']} *${name}*\n${subject(input)} is *${value}*, ${cond}.`;
    case 'updated': {
      const was =
        input.previousValue === undefined ? '' : ` (was ${formatValue(input.previousValue, input.metric.unit)})`;
      return `:arrows_counterclockwise: Still breached: ${subject(input)} is *${value}*${was}, ${cond}.`;
    }
    case 'resolved': {
      const c = input.condition;
      const back =
        c.kind === 'change'
          ? 'back within range'
          : `back ${c.kind === 'above' ? 'at or below' : 'at or above'} ${formatValue(c.recovery ?? c.threshold, input.metric.unit)}`;
      return `:white_check_mark: *Resolved: ${name}*\n${subject(input)} is ${back}: *${value}*.`;
    }
  }
}

/**
 * The message of an alert incident in a given state. `opened` is the thread's parent (with
 * Acknowledge and Snooze buttons), `updated` a reply in the thread, `resolved` both the edit of
 * the parent and the closing reply.
 *
 * @example alertMessage({ state: 'opened', ruleName: 'CPI spike', metric, value: 2.71, condition: { kind: 'above', threshold: 2.4 }, … })
 */
export function alertMessage(input: AlertMessageInput): SlackMessage {
  const blocks: Block[] = [{ type: 'section', text: mrkdwn(lineFor(input)) }];
  const facts = [
    `:calendar: ${escapeMrkdwn(input.rangeLabel)}  ·  ${escapeMrkdwn(input.timezone)}`,
    `report *${escapeMrkdwn(input.reportTitle)}*`,
    `rule \`${escapeMrkdwn(input.ruleId)}\``,
  ];
  const open = formatElapsed(Date.parse(input.now) - Date.parse(input.openedAt));
  facts.push(
    input.state === 'resolved' ? `open for ${open}` : input.state === 'updated' ? `open for ${open}` : 'opened now',
  );
  blocks.push(context(facts.join('  ·  ')));
  if (input.state !== 'resolved' && input.chart) blocks.push(imageBlock(input.chart));
  const status: string[] = [];
  if (input.acknowledgedBy) status.push(`:eyes: acknowledged by ${escapeMrkdwn(input.acknowledgedBy)}`);
  if (input.snoozedUntil) status.push(`:zzz: snoozed until ${escapeMrkdwn(input.snoozedUntil)}`);
  if (input.threadUrl) status.push(`<${input.threadUrl}|incident thread>`);
  if (status.length > 0) blocks.push(context(status.join('  ·  ')));
  if (input.state === 'opened' && input.mentions && input.mentions.length > 0) {
    blocks.push(context(input.mentions.map(escapeMentions).join(' ')));
  }
  if (input.state !== 'resolved') {
    const value = { incidentId: input.incidentId, ruleId: input.ruleId, reportId: input.reportId };
    blocks.push({
      type: 'actions',
      block_id: `alert_actions:${input.incidentId}`.slice(0, 255),
      elements: [
        ...(input.acknowledgedBy ? [] : [button('Acknowledge', ACTION_IDS.alertAck, value, 'primary')]),
        button('Snooze 24 h', ACTION_IDS.alertSnooze, { ...value, hours: 24 }),
      ],
    });
  }
  const text = `${input.state === 'resolved' ? 'Resolved' : 'Alert'}: ${input.ruleName}: ${input.metric.label}${input.entity ? ` (${input.entity})` : ''} ${formatValue(input.value, input.metric.unit)}`;
  return fitMessage({ text, blocks }).message;
}

/** Mentions pass through as Slack syntax (`<@U123>`); bare `@name`s are escaped text. */
function escapeMentions(mention: string): string {
  return /^<[@!][\w^|-]+>$/.test(mention) ? mention : escapeMrkdwn(mention);
}
