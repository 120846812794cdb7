/**
 * The one failure notice of a digest slot whose attempts are spent: in the digest's channel, or,
 * when the bot cannot post there, by DM to whoever subscribed it (the admins when nobody known did).
 */
import { describeFailure } from '../core/index.js';
import { type DigestFailure, digestFailureMessage } from '../render/index.js';
import type { GiveUp, ScheduleSpec } from '../scheduler/index.js';
import { unreachableChannel } from '../slackapi/index.js';
import type { SubscriptionsRepository } from '../store/index.js';
import type { DigestDeps } from './deliverDigest.js';
import { explainStepOf } from './explainDigest.js';

/**
 * Posts the one failure notice of a slot whose attempts are spent: the report, the slot, the
 * reason in the user's terms and a button that runs it now. In the digest's channel, unless the
 * bot cannot post there (not in it, archived: the slot's own error says so, or the notice's post
 * fails so): then by DM to whoever subscribed the channel, or to the admins when nobody known did.
 */
export async function postDigestFailure(giveUp: GiveUp, deps: DigestDeps): Promise<void> {
  const { spec, slot, error } = giveUp;
  const step = explainStepOf(deps, giveUp);
  if (step?.status === 'failed' && step.messageTs !== undefined) {
    // The digest is in the channel; only its explanation failed: no notice says the digest failed.
    deps.logger.warn(
      { report: spec.report, slot: slot.toISOString(), ts: step.messageTs, err: error },
      "digest posted, its explanation's attempts spent; it stays without its because lines",
    );
    return;
  }
  const loaded = await deps.loadReports().catch(() => undefined);
  const title = loaded?.reports.find((r) => r.id === spec.report)?.definition.title ?? spec.report;
  // The channel reads the reason with a reference to the log line that has the details.
  const reason = describeFailure(error, {
    logger: deps.logger,
    what: 'digest delivery failed',
    context: { report: spec.report, slot: slot.toISOString() },
  }).text;
  const failure: DigestFailure = {
    reportId: spec.report,
    title,
    slot,
    timezone: spec.timezone,
    // The tries made: fewer than `retry.attempts` when the error could not pass by trying again.
    attempts: deps.store.runs.get(giveUp.runId)?.attempt ?? spec.retry.attempts,
    reason,
  };
  if (!unreachableChannel(error)) {
    try {
      await deps.slack.post(spec.channel, digestFailureMessage(failure));
      return;
    } catch (postError) {
      if (!unreachableChannel(postError)) throw postError;
    }
  }
  await sendFailureByDm(giveUp, failure, deps);
}

/** Slack user ids (U…, or W… in an Enterprise Grid org). */
const USER_ID = /^[UW][A-Z0-9_]+$/;

/**
 * Who gets a failure notice that cannot reach its channel: the subscription's creator, or the
 * admins when the schedule is the report file's or its subscription is gone.
 *
 * @example failureNoticeRecipients(spec, store.subscriptions, ['U0ADMIN1']) // { users: ['U0ALICE'], to: 'subscriber' }
 */
export function failureNoticeRecipients(
  spec: Pick<ScheduleSpec, 'subscriptionId'>,
  subscriptions: Pick<SubscriptionsRepository, 'get'>,
  admins: readonly string[],
): { users: string[]; to: 'subscriber' | 'admin' } {
  const subscriber = spec.subscriptionId === undefined ? undefined : subscriptions.get(spec.subscriptionId)?.createdBy;
  if (subscriber !== undefined && USER_ID.test(subscriber)) return { users: [subscriber], to: 'subscriber' };
  return { users: [...new Set(admins)], to: 'admin' };
}

/** The failure notice by DM to each recipient; throws only when none of them got it. */
async function sendFailureByDm(giveUp: GiveUp, failure: DigestFailure, deps: DigestDeps): Promise<void> {
  const { spec, slot } = giveUp;
  const { users, to } = failureNoticeRecipients(spec, deps.store.subscriptions, deps.admins ?? []);
  const context = { report: spec.report, channel: spec.channel, slot: slot.toISOString() };
  const { slack } = deps;
  if (users.length === 0 || !slack.openDm) {
    deps.logger.error(
      context,
      'the failure notice cannot be posted in its channel and there is nobody to send it to (no subscriber known, no admins)',
    );
    return;
  }
  const message = digestFailureMessage({
    ...failure,
    redirected: { channel: spec.channel, to, source: spec.source },
  });
  let sent = 0;
  let lastError: unknown;
  for (const user of users) {
    try {
      await slack.post(await slack.openDm(user), message);
      sent++;
    } catch (dmError) {
      lastError = dmError;
      deps.logger.warn({ ...context, user, err: dmError }, 'the failure notice could not be sent by DM');
    }
  }
  if (sent === 0) throw lastError;
  deps.logger.info(
    { ...context, to, recipients: sent },
    'failure notice sent by DM: the bot cannot post in the channel',
  );
}
