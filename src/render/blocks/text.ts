/** Small constructors and escaping for Block Kit text, shared by the message builders. */
import type { Polarity } from '../../reporting/index.js';
import type { Delta } from '../../view/index.js';
import { arrowFor, deltaTone, type FormatUnit, formatDelta, type Tone } from '../format.js';
import { fitText, SLACK_LIMITS } from '../slackLimits.js';
import type { ButtonElement, ContextBlock, MrkdwnText, PlainText, SectionBlock } from './types.js';

export { escapeMrkdwn } from '../escapeMrkdwn.js';

export const plain = (text: string): PlainText => ({ type: 'plain_text', text, emoji: true });
export const mrkdwn = (text: string): MrkdwnText => ({ type: 'mrkdwn', text });

/** A section of mrkdwn text, cut to Slack's 3,000 characters (`fitText`). */
export function mrkdwnSection(text: string): SectionBlock {
  return { type: 'section', text: mrkdwn(fitText(text, SLACK_LIMITS.sectionText)) };
}

/** A context line of mrkdwn text, cut to Slack's 3,000 characters (`fitText`). */
export function mrkdwnContext(text: string): ContextBlock {
  return { type: 'context', elements: [mrkdwn(fitText(text, SLACK_LIMITS.contextText))] };
}

export function context(...texts: string[]): ContextBlock {
  return { type: 'context', elements: texts.filter((t) => t !== '').map(mrkdwn) };
}

/** The emoji that colours a delta in Slack, where text itself has no colour. */
export const TONE_EMOJI: Readonly<Record<Tone, string>> = {
  good: ':large_green_circle:',
  bad: ':red_circle:',
  neutral: ':white_circle:',
};

/**
 * A delta as Slack text: coloured dot by polarity (a rising CPI is red), arrow, signed change.
 *
 * @example deltaText({ previous: 2, absolute: 0.5, percent: 0.25 }, 'currency', 'lower_is_better') // ':red_circle: ▲ +25.0%'
 */
export function deltaText(delta: Delta | undefined, unit: FormatUnit, polarity: Polarity): string {
  const change = formatDelta(delta, unit);
  if (change === '—') return '—';
  const { direction, tone } = deltaTone(delta, polarity);
  return direction === 'flat'
    ? `${arrowFor(direction)} ${change}`
    : `${TONE_EMOJI[tone]} ${arrowFor(direction)} ${change}`;
}

/** A button with a stable action id and a small JSON value the Slack handlers parse. */
export function button(
  text: string,
  actionId: string,
  value: Readonly<Record<string, unknown>>,
  style?: 'primary' | 'danger',
): ButtonElement {
  return {
    type: 'button',
    text: plain(text),
    action_id: actionId,
    value: JSON.stringify(value),
    ...(style ? { style } : {}),
  };
}
