/**
 * The watches ("Watch this") under `/pivot alerts` and App Home's alerts: each one's name, query
 * and channel, with a Remove button (Slack's confirm dialog first) for admins.
 */

import { savedName, watchesOf } from '../../../query/index.js';
import { ACTION_IDS, type Block, escapeMrkdwn, fitText } from '../../../render/index.js';
import type { Subscription } from '../../../store/index.js';

/** Watches listed at most (each is one block; a message holds 50). */
const MAX_WATCHES = 20;

/**
 * The blocks: a heading line, then one section per watch, its Remove button only when `removable`.
 *
 * @example watchesSection(store.subscriptions.list(), { removable: admins.includes(userId) })
 */
export function watchesSection(subscriptions: readonly Subscription[], options: { removable: boolean }): Block[] {
  const watches = watchesOf(subscriptions);
  if (watches.length === 0) return [];
  const more = watches.length > MAX_WATCHES ? ` · ${watches.length - MAX_WATCHES} more: \`/pivot unwatch <name>\`` : '';
  const blocks: Block[] = [
    {
      type: 'context',
      elements: [
        {
          type: 'mrkdwn',
          text: `*Watches (${watches.length})*, saved with Watch this${options.removable ? '' : ' · admins can remove them'}${more}`,
        },
      ],
    },
  ];
  for (const watch of watches.slice(0, MAX_WATCHES)) {
    const name = savedName(watch.report);
    const text = `\`${escapeMrkdwn(name)}\` · ${escapeMrkdwn(fitText(watch.query ?? '', 200))} · <#${watch.channel}>`;
    blocks.push({
      type: 'section',
      text: { type: 'mrkdwn', text },
      ...(options.removable
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
                  text: `\`${escapeMrkdwn(name)}\` stops being evaluated; its incident threads stay in <#${watch.channel}>.`,
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

/** The name a Remove button carries (`{ name }`), or undefined. */
export function unwatchName(value: string | undefined): string | undefined {
  try {
    const parsed = JSON.parse(value ?? '') as { name?: unknown };
    return typeof parsed.name === 'string' && parsed.name !== '' ? parsed.name : undefined;
  } catch {
    return undefined;
  }
}
