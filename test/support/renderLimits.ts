/** Checks a Block Kit message against every Slack limit pivotbot knows, for builder tests. */

import type { Block, ButtonElement, SlackMessage } from '../../src/render/index.js';
import { cellText, SLACK_LIMITS } from '../../src/render/index.js';

/** Every limit violated by the message, as readable strings; empty when it fits. */
export function slackLimitViolations(message: SlackMessage): string[] {
  const L = SLACK_LIMITS;
  const problems: string[] = [];
  if (message.blocks.length > L.blocksPerMessage) problems.push(`${message.blocks.length} blocks`);
  if (message.text.length > L.fallbackText) problems.push('fallback text too long');
  const tables = message.blocks.filter((b) => b.type === 'table').length;
  if (tables > L.tablesPerMessage) problems.push(`${tables} tables`);
  message.blocks.forEach((block: Block, i) => {
    const at = `block ${i} (${block.type})`;
    switch (block.type) {
      case 'header':
        if (block.text.text.length > L.headerText) problems.push(`${at}: header ${block.text.text.length} chars`);
        break;
      case 'section':
        if ((block.text?.text.length ?? 0) > L.sectionText)
          problems.push(`${at}: text ${block.text?.text.length} chars`);
        if ((block.fields?.length ?? 0) > L.sectionFields) problems.push(`${at}: ${block.fields?.length} fields`);
        for (const f of block.fields ?? [])
          if (f.text.length > L.fieldText) problems.push(`${at}: field ${f.text.length} chars`);
        if (!block.text && !block.fields?.length) problems.push(`${at}: empty section`);
        break;
      case 'context':
        if (block.elements.length > L.contextElements) problems.push(`${at}: ${block.elements.length} elements`);
        if (block.elements.length === 0) problems.push(`${at}: empty context`);
        break;
      case 'actions': {
        if (block.elements.length > L.actionsElements) problems.push(`${at}: ${block.elements.length} buttons`);
        const ids = block.elements.map((e) => e.action_id);
        if (new Set(ids).size !== ids.length) problems.push(`${at}: duplicate action_id`);
        for (const b of block.elements) {
          if (b.type !== 'button') continue;
          if (b.text.text.length > L.buttonText) problems.push(`${at}: button text too long`);
          if ((b.value?.length ?? 0) > L.buttonValue) problems.push(`${at}: button value too long`);
        }
        break;
      }
      case 'table':
        if (block.rows.length > L.tableRows) problems.push(`${at}: ${block.rows.length} rows`);
        if (block.rows.some((r) => r.length > L.tableCells))
          problems.push(`${at}: more than ${L.tableCells} cells in a row`);
        if (block.rows.some((r) => r.some((c) => cellText(c) === ''))) problems.push(`${at}: empty cell text`);
        break;
      case 'image':
        if (block.alt_text.length > L.imageAltText) problems.push(`${at}: alt text too long`);
        if ('image_url' in block ? !block.image_url : !block.slack_file) problems.push(`${at}: no image source`);
        break;
      default:
        break;
    }
  });
  return problems;
}

/** The text of every block, joined: handy for `toContain` checks. */
export function messageText(message: SlackMessage): string {
  return JSON.stringify(message.blocks);
}

/** The buttons of a message's actions blocks, in order. */
export function buttonsOf(message: SlackMessage): ButtonElement[] {
  return message.blocks.flatMap((b) =>
    b.type === 'actions' ? b.elements.filter((e): e is ButtonElement => e.type === 'button') : [],
  );
}
