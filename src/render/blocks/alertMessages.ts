/**
 * Alert messages for one incident thread: the parent message (posted when the incident opens and
 * edited in place when it is acknowledged, snoozed or resolved) and the replies in its thread
 * (reminder, large move, reopened, resolved). Pure: the caller passes the clock and the facts.
 */
import type { AlertCondition, AlertConditionPart, AlertSeverity } from '../../alerts/index.js';
import { dateTimeFormat } from '../../core/index.js';
import type { Polarity } from '../../reporting/index.js';
import { type FormatUnit, formatValue } from '../format.js';
import { fitMessage } from '../slackLimits.js';
import { ACTION_IDS, SNOOZE_ACTIONS } from './actionIds.js';
import { imageBlock } from './digestMessage.js';
import { elapsedSuffix, formatElapsed } from './jobProgressMessage.js';
import { neededText, pacingStatement, shareText } from './pacingLine.js';
import { button, context, escapeMrkdwn, mrkdwn } from './text.js';
import type { Block, ChartImage, SlackMessage } from './types.js';

/** The parent's state; `opened`/`resolved` kept as the names the preview and older callers use. */
export type AlertState = 'opened' | 'updated' | 'resolved';
export type AlertReplyKind = 'reminder' | 'bigMove' | 'reopened' | 'resolved';

export interface AlertMessageInput {
  incidentId: string;
  ruleId: string;
  ruleName: string;
  reportId: string;
  reportTitle: string;
  severity?: AlertSeverity;
  /** The entity breaching: `Country BR · Platform IOS`; absent or `Total` for totals. */
  entity?: string;
  metric: { key: string; label: string; unit: FormatUnit; polarity: Polarity };
  /** The value now (null when the service returned none). */
  value: number | null;
  /** Replies: the value at the previous evaluation (`was $2.71`). */
  previousValue?: number | null;
  condition: AlertCondition;
  /** The data range evaluated: `Yesterday (Thu 19 Nov 2026)`, and the zone times are shown in. */
  rangeLabel: string;
  timezone: string;
  /** When the incident (re)opened. */
  openedAt: string;
  /** The clock of the caller, for durations; builders stay pure. */
  now: string;
  /** Slack ids: `U…`/`W…` users, `S…` user groups, `here`, `channel` (or already `<@U…>`). */
  mentions?: readonly string[];
  /** The entity's owners (the report's `owners:` map), user or group ids; told with the mentions. */
  owners?: readonly string[];
  /** Permalink of the incident thread (for messages posted outside it). */
  threadUrl?: string;
  acknowledgedBy?: string;
  acknowledgedAt?: string;
  snoozedUntil?: string;
  /** Set when resolved: the parent then says when, after how long, and at what value. */
  resolvedAt?: string;
  /** How many times it reopened within a day of resolving. */
  reopenCount?: number;
  chart?: ChartImage;
  /** Kept for older callers: `opened` (parent), `updated` (a reminder reply), `resolved` (parent). */
  state?: AlertState;
}

const SEVERITY_EMOJI: Readonly<Record<AlertSeverity, string>> = {
  info: ':large_blue_circle:',
  warning: ':large_orange_circle:',
  critical: ':rotating_light:',
};

/** The rule's mentions, then the entity's owners: `<!subteam^S1> · owner <@U2>`; undefined when nobody. */
function tellLine(input: Pick<AlertMessageInput, 'mentions' | 'owners'>): string | undefined {
  const parts: string[] = [];
  if (input.mentions && input.mentions.length > 0) parts.push(input.mentions.map(mentionText).join(' '));
  if (input.owners && input.owners.length > 0) {
    parts.push(`${input.owners.length > 1 ? 'owners' : 'owner'} ${input.owners.map(mentionText).join(' ')}`);
  }
  return parts.length > 0 ? parts.join('  ·  ') : undefined;
}

/** A Slack id as a mention: `U1` → `<@U1>`, `S1` → `<!subteam^S1>`, `here` → `<!here>`; anything else as plain text. */
export function mentionText(id: string): string {
  if (/^<[@!][\w^|-]+>$/.test(id)) return id;
  if (/^[UW][A-Z0-9]{2,}$/.test(id)) return `<@${id}>`;
  if (/^S[A-Z0-9]{2,}$/.test(id)) return `<!subteam^${id}>`;
  if (id === 'here' || id === 'channel' || id === 'everyone') return `<!${id}>`;
  return escapeMrkdwn(id);
}

/** A time in the report's zone: `Fri 20 Nov 09:00`. */
export function formatWhen(iso: string, timeZone: string): string {
  const parts = dateTimeFormat('en-GB', {
    timeZone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(iso));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('weekday')} ${get('day')} ${get('month')} ${get('hour')}:${get('minute')}`;
}

/** The condition as words with formatted numbers: `above $2.40`, `up 42.0% vs previous period ($5.00), more than +30.0%`. */
export function conditionText(input: Pick<AlertMessageInput, 'condition' | 'metric'>): string {
  const c = input.condition;
  const unit = input.metric.unit;
  switch (c.kind) {
    case 'above':
    case 'below':
      return `${c.kind} ${formatValue(c.threshold, unit)}`;
    case 'equals':
      return `equal to ${formatValue(c.target, unit)}`;
    case 'compound':
      return c.parts
        .map((p) => `${p.label} ${formatValue(p.value, p.unit)}, ${partConditionText(p)}`)
        .join(c.mode === 'all' ? ' and ' : ' or ');
    case 'change': {
      const limits = [
        c.above === undefined ? '' : `more than +${formatValue(c.above, 'ratio')}`,
        c.below === undefined ? '' : `more than ${formatValue(c.below, 'ratio')}`,
      ].filter((t) => t !== '');
      const now =
        c.change === undefined || c.change === null
          ? ''
          : `${c.change >= 0 ? 'up' : 'down'} ${formatValue(Math.abs(c.change), 'ratio')} `;
      const base = c.comparisonValue === null ? '' : ` (${formatValue(c.comparisonValue, unit)})`;
      return `${now}vs ${c.against}${base}; alert on ${limits.join(' or ')}`;
    }
    case 'anomaly':
      return `outside the expected ${formatValue(c.low, unit)} – ${formatValue(c.high, unit)} (usual ${formatValue(c.median, unit)}, ${c.baseline})`;
    case 'pacing':
      return `${pacingStatement(c)}, outside ±${shareText(c.tolerance)}`;
  }
}

/** One compound condition's words: `above $200.00`, or `not equal to 0` when it does not hold. */
function partConditionText(part: AlertConditionPart): string {
  const c = part.condition;
  const words = conditionText({
    condition: c,
    metric: { key: '', label: part.label, unit: part.unit, polarity: 'neutral' },
  });
  if (part.breach) return words;
  if (c.kind === 'above' || c.kind === 'below' || c.kind === 'equals') return `not ${words}`;
  return `${words} (not met)`;
}

/**
 * The sentence a message states: `*Spend* for X is *$812*, above $200`; for a compound rule every
 * condition with its value: `X: *Spend* is *$812*, above $200 and *Installs* is *0*, equal to 0`.
 */
function statement(input: AlertMessageInput, was = '', is = 'is', again = ''): string {
  const c = input.condition;
  if (c.kind === 'pacing') {
    // The value is the forecast, which the condition's words already say.
    const needs = neededText(c);
    return `*${escapeMrkdwn(input.metric.label)}* ${escapeMrkdwn(pacingStatement(c))}${again}, outside ±${shareText(c.tolerance)}${needs ? `; ${escapeMrkdwn(needs)}` : ''}`;
  }
  if (c.kind !== 'compound') {
    const value = formatValue(input.value, input.metric.unit);
    return `${subject(input)} ${is} *${value}*${was}${again}, ${escapeMrkdwn(conditionText(input))}`;
  }
  const entity = input.entity && input.entity !== 'Total' ? `*${escapeMrkdwn(input.entity)}*: ` : '';
  const parts = c.parts.map(
    (p) => `*${escapeMrkdwn(p.label)}* is *${formatValue(p.value, p.unit)}*, ${escapeMrkdwn(partConditionText(p))}`,
  );
  return entity + parts.join(c.mode === 'all' ? ' and ' : ' or ');
}

function subject(input: AlertMessageInput): string {
  const entity = input.entity && input.entity !== 'Total' ? ` for ${escapeMrkdwn(input.entity)}` : '';
  return `*${escapeMrkdwn(input.metric.label)}*${entity}`;
}

function recoveryText(input: AlertMessageInput): string {
  const c = input.condition;
  const unit = input.metric.unit;
  if (c.kind === 'above') return `back at or below ${formatValue(c.recovery ?? c.threshold, unit)}`;
  if (c.kind === 'below') return `back at or above ${formatValue(c.recovery ?? c.threshold, unit)}`;
  if (c.kind === 'anomaly') return `back within ${formatValue(c.low, unit)} – ${formatValue(c.high, unit)}`;
  if (c.kind === 'equals') return `no longer ${formatValue(c.target, unit)}`;
  if (c.kind === 'pacing') return `back within ±${shareText(c.recovery ?? c.tolerance)} of plan`;
  return 'back within range';
}

/** What a resolution says: `*CPI* is back at or below $5.00: *$4.80*`, or every compound condition now. */
function resolvedText(input: AlertMessageInput): string {
  if (input.condition.kind === 'compound') return statement(input);
  if (input.condition.kind === 'pacing') {
    return `*${escapeMrkdwn(input.metric.label)}* is ${recoveryText(input)}: ${escapeMrkdwn(pacingStatement(input.condition))}`;
  }
  return `${subject(input)} is ${recoveryText(input)}: *${formatValue(input.value, input.metric.unit)}*`;
}

function factsLine(input: AlertMessageInput, extra: string[] = []): Block {
  return context(
    [
      `:calendar: ${escapeMrkdwn(input.rangeLabel)}  ·  ${escapeMrkdwn(input.timezone)}`,
      `report *${escapeMrkdwn(input.reportTitle)}*`,
      `rule \`${escapeMrkdwn(input.ruleId)}\``,
      ...extra,
    ].join('  ·  '),
  );
}

function buttons(input: AlertMessageInput): Block {
  const value = { incidentId: input.incidentId, ruleId: input.ruleId, reportId: input.reportId };
  return {
    type: 'actions',
    block_id: `alert_actions:${input.incidentId}`.slice(0, 255),
    elements: [
      ...(input.acknowledgedBy ? [] : [button('Acknowledge', ACTION_IDS.alertAck, value, 'primary')]),
      ...SNOOZE_ACTIONS.map(([hours, actionId]) => button(`Snooze ${hours} h`, actionId, { ...value, hours })),
    ],
  };
}

/**
 * The thread's parent message in the incident's current state. Open: severity, rule name, the
 * value against the threshold (the comparison value for change rules, the expected band for
 * anomalies), mentions, the chart, and Acknowledge / Snooze 1 h, 4 h, 24 h; who acknowledged and
 * until when it is snoozed. Resolved: when, after how long, and at what value; no buttons.
 *
 * @example alertParentMessage({ ...facts, now: new Date().toISOString() }) // open
 *          alertParentMessage({ ...facts, resolvedAt, value: 4.8, now })   // the edit on resolve
 */
export function alertParentMessage(input: AlertMessageInput): SlackMessage {
  const resolved = input.resolvedAt !== undefined;
  const name = escapeMrkdwn(input.ruleName);
  const value = formatValue(input.value, input.metric.unit);
  const blocks: Block[] = [];
  if (resolved) {
    const after = formatElapsed(Date.parse(input.resolvedAt as string) - Date.parse(input.openedAt));
    blocks.push({
      type: 'section',
      text: mrkdwn(
        `:white_check_mark: *Resolved: ${name}*\n${resolvedText(input)}. ` +
          `Resolved ${formatWhen(input.resolvedAt as string, input.timezone)} after ${after}.`,
      ),
    });
    blocks.push(factsLine(input, [`opened ${formatWhen(input.openedAt, input.timezone)}`]));
  } else {
    const reopened = input.reopenCount ? ` (reopened${input.reopenCount > 1 ? ` ${input.reopenCount}×` : ''})` : '';
    blocks.push({
      type: 'section',
      text: mrkdwn(`${SEVERITY_EMOJI[input.severity ?? 'warning']} *${name}*${reopened}\n${statement(input)}.`),
    });
    blocks.push(
      factsLine(input, [
        `${input.severity ?? 'warning'}`,
        `open since ${formatWhen(input.openedAt, input.timezone)}${elapsedSuffix(Date.parse(input.now) - Date.parse(input.openedAt))}`,
      ]),
    );
    if (input.chart) blocks.push(imageBlock(input.chart));
  }
  const status: string[] = [];
  if (input.acknowledgedBy) {
    const when = input.acknowledgedAt ? ` at ${formatWhen(input.acknowledgedAt, input.timezone)}` : '';
    status.push(`:eyes: acknowledged by ${mentionText(input.acknowledgedBy)}${when}`);
  }
  if (input.snoozedUntil && !resolved && Date.parse(input.snoozedUntil) > Date.parse(input.now)) {
    status.push(`:zzz: snoozed until ${formatWhen(input.snoozedUntil, input.timezone)}`);
  }
  if (input.threadUrl) status.push(`<${input.threadUrl}|incident thread>`);
  if (status.length > 0) blocks.push(context(status.join('  ·  ')));
  const told = tellLine(input);
  if (!resolved && told) blocks.push(context(told));
  if (!resolved) blocks.push(buttons(input));
  const entity = input.entity && input.entity !== 'Total' ? ` (${escapeMrkdwn(input.entity)})` : '';
  const text = `${resolved ? 'Resolved' : 'Alert'}: ${input.ruleName}: ${input.metric.label}${entity} ${value}`;
  return fitMessage({ text, blocks }).message;
}

/**
 * A reply in the incident's thread: a reminder (still breached), a large move, a reopening
 * (breached again within a day of resolving; mentions again), or the resolution.
 *
 * @example alertReplyMessage(input, 'reminder')
 */
export function alertReplyMessage(input: AlertMessageInput, kind: AlertReplyKind): SlackMessage {
  const value = formatValue(input.value, input.metric.unit);
  const was =
    input.previousValue === undefined || input.condition.kind === 'compound' || input.condition.kind === 'pacing'
      ? ''
      : ` (was ${formatValue(input.previousValue, input.metric.unit)})`;
  const open = formatElapsed(Date.parse(input.now) - Date.parse(input.openedAt));
  let line: string;
  switch (kind) {
    case 'reminder':
      line = `:arrows_counterclockwise: Still breached after ${open}: ${statement(input, was)}.`;
      break;
    case 'bigMove':
      line = `:chart_with_upwards_trend: Large move: ${statement(input, was, 'is now')}.`;
      break;
    case 'reopened':
      line = `${SEVERITY_EMOJI[input.severity ?? 'warning']} Reopened: ${statement(input, '', 'is', ' again')}.`;
      break;
    case 'resolved': {
      const at = input.resolvedAt ?? input.now;
      const after = formatElapsed(Date.parse(at) - Date.parse(input.openedAt));
      line = `:white_check_mark: Resolved ${formatWhen(at, input.timezone)} after ${after}: ${resolvedText(input)}.`;
      break;
    }
  }
  const blocks: Block[] = [{ type: 'section', text: mrkdwn(line) }];
  const told = tellLine(input);
  if (kind === 'reopened' && told) blocks.push(context(told));
  if (kind === 'bigMove' && input.chart) blocks.push(imageBlock(input.chart));
  const text = `${input.ruleName}: ${kind === 'resolved' ? 'resolved' : kind === 'reopened' ? 'reopened' : 'still breached'}: ${input.metric.label} ${value}`;
  return fitMessage({ text, blocks }).message;
}

/**
 * The older single entry point: `opened` and `resolved` give the parent, `updated` a reminder reply.
 *
 * @example alertMessage({ ...input, state: 'opened' })
 */
export function alertMessage(input: AlertMessageInput): SlackMessage {
  if (input.state === 'updated') return alertReplyMessage(input, 'reminder');
  if (input.state === 'resolved' && input.resolvedAt === undefined) {
    return alertParentMessage({ ...input, resolvedAt: input.now });
  }
  return alertParentMessage(input);
}
