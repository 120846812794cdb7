/**
 * The one door where Slack's wire text becomes what the person typed. Every typed text the app
 * reads (a `/pivot` command's `text`, a DM, a mention, a reply in the bot's thread) is decoded here,
 * in the receiver, before it is handed on as plain data, so no handler can read wire text by
 * mistake. What Slack sends raw (modal `plain_text_input` values, button values) never passes here.
 */
import { decodeSlackText, wireTextOfBlocks } from './decodeSlackText.js';

/** A typed text, decoded both ways the app reads it. */
export interface TypedText {
  /**
   * What the person typed, with users, channels, groups and `@here` dropped: the text a query, a
   * follow-up or `why` reads (`spend by publisher having installs > 100 where siteBundle = com.pub0.app`).
   */
  text: string;
  /**
   * The same text with those references kept as Slack's tokens (`<#C1|growth>`, `<@U1>`): what the
   * command grammar reads (`subscribe daily-kpi <#C1|growth>`).
   */
  commandText: string;
}

/**
 * Decodes Slack's wire text once, both ways.
 *
 * @example typedTextOf('subscribe daily-kpi <#C1|growth> :white_check_mark:')
 * // { text: 'subscribe daily-kpi', commandText: 'subscribe daily-kpi <#C1|growth>' }
 */
export function typedTextOf(wire: string): TypedText {
  return {
    text: decodeSlackText(wire, { references: 'drop' }).text,
    commandText: decodeSlackText(wire, { references: 'keep' }).text,
  };
}

/**
 * A message event's wire text: its `text`, or, when that is empty, the text of its `rich_text`
 * blocks (clients may send the content only there).
 *
 * @example wireTextOfMessage({ text: '', blocks: [{ type: 'rich_text', elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text: 'top 5' }] }] }] }) // 'top 5'
 */
export function wireTextOfMessage(event: { text?: unknown; blocks?: unknown }): string {
  const text = typeof event.text === 'string' ? event.text : '';
  return text.trim() !== '' ? text : wireTextOfBlocks(event.blocks);
}
