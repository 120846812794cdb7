/**
 * Where a watch's incidents go. An admin's Watch this under an answer in a channel saves a
 * channel watch (its threads in that channel); anyone else's, and anyone's in their DM with the
 * bot, saves a personal watch: its threads in the saver's DM, listed and removable by them.
 */
import { PERSONAL_WATCH_CAP, personalWatchesOf } from '../../query/index.js';
import type { Subscription } from '../../store/index.js';

/** A direct message's id starts with D (channels with C, private channels with G). */
const isDm = (channel: string): boolean => channel.startsWith('D');

/**
 * Whether a watch saved by `userId` under an answer in `channel` is personal.
 *
 * @example isPersonalWatch('C0GENERAL1', { admin: false }) // true: its incidents go to the saver's DM
 */
export function isPersonalWatch(channel: string, who: { admin: boolean }): boolean {
  return !who.admin || isDm(channel);
}

/**
 * Why `userId` may not save one more personal watch (they keep `PERSONAL_WATCH_CAP` already), in
 * words for Slack; undefined when they may.
 *
 * @example capRefusal(store.subscriptions.list(), 'U0ALICE') // 'You keep 20 personal watches, the most one person may: …'
 */
export function capRefusal(subscriptions: readonly Subscription[], userId: string): string | undefined {
  const kept = personalWatchesOf(subscriptions, userId).length;
  if (kept < PERSONAL_WATCH_CAP) return undefined;
  return (
    `You keep ${kept} personal watches, the most one person may (${PERSONAL_WATCH_CAP}). ` +
    'Remove one first: its Remove button in `/pivot alerts` or App Home, or `/pivot unwatch <name>`.'
  );
}

/** The DM channel, when the answer was in one: no need to open it. */
export function knownDm(channel: string): string | undefined {
  return isDm(channel) ? channel : undefined;
}
