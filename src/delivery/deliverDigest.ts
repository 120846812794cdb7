/**
 * The scheduler's delivery of one digest slot: the report run as of the slot's instant and its
 * digest posted with message metadata, so that a restart can tell from the channel's history
 * whether an earlier attempt already posted it. The failure notice once a slot's attempts are
 * spent is `digestFailure.ts`'s.
 */
import { dateTimeFormat, ErrorCode, failpoint, UserInputError } from '../core/index.js';
import { quietDecision, quietSettings } from '../insights/index.js';
import { allQuietMessage, lateNote } from '../render/index.js';
import { findReport, type LoadedReport, type LoadedReports, type ReportView } from '../reports/index.js';
import {
  ALERTS_WAIT_MS,
  alertRunKey,
  dataWaitAction,
  listAlertSchedules,
  type SlotResult,
  type SlotRun,
} from '../scheduler/index.js';
import type { HistoryMessage, MessageMetadata } from '../slackapi/index.js';
import { DIGEST_EVENT, isTopLevel } from '../slackapi/index.js';
import { nextFires } from '../time/index.js';
import type { DeliveryDeps } from './DeliveryDeps.js';
import { dataCheckPlan, incompleteDataNotice, measureData } from './dataReadiness.js';
import { runAndDeliver } from './deliverRun.js';
import { explainDigest, explainStepOf } from './explainDigest.js';
import type { GateAnswer } from './RunTarget.js';
import { redeliverThreadFiles } from './redeliverThreadFiles.js';

/**
 * How far a retry reads the channel back to the slot for an earlier attempt's post: pages of 100
 * top-level messages, newest first, stopping at the page that holds it. Ten pages cover a busy
 * channel's 1,000 messages since the slot (one page did not: a restart hours later in a channel
 * with more than 100 messages since would have posted the digest again).
 */
const HISTORY_PAGE = 100;
const HISTORY_PAGES = 10;
const CLOCK_MARGIN_MS = 60_000;
/** How often a quiet digest looks again whether its slot's alert evaluations are done. */
const ALERTS_CHECK_MS = 5_000;

export interface DigestDeps extends DeliveryDeps {
  /** The report definitions, read fresh so that an edited file applies to the next slot. */
  loadReports: () => Promise<LoadedReports>;
  /** PIVOTBOT_ADMINS: a failure notice that cannot reach its channel, with no subscriber known, goes to them. */
  admins?: readonly string[];
}

/** The metadata a digest for this slot carries. */
export function digestMetadata(run: Pick<SlotRun, 'spec' | 'slot' | 'late'>): MessageMetadata {
  return {
    event_type: DIGEST_EVENT,
    event_payload: {
      report: run.spec.report,
      channel: run.spec.channel,
      slot: run.slot.toISOString(),
      late: run.late,
    },
  };
}

/** The channel's post for this slot, if an earlier attempt made one. */
export function findDigestPost(
  messages: readonly HistoryMessage[],
  run: Pick<SlotRun, 'spec' | 'slot'>,
): HistoryMessage | undefined {
  return messages.find((m) => isDigestPost(m, run));
}

/** A top-level post (the digest, or an async run's progress message) with this slot's metadata. */
function isDigestPost(m: HistoryMessage, run: Pick<SlotRun, 'spec' | 'slot'>): boolean {
  return (
    isTopLevel(m) &&
    m.metadata?.event_type === DIGEST_EVENT &&
    m.metadata.event_payload.report === run.spec.report &&
    m.metadata.event_payload.slot === run.slot.toISOString()
  );
}

/**
 * Delivers one claimed slot. A retry of a slot (attempt > 1: an earlier attempt failed, or died
 * with its process) first reads the channel's recent history: a post carrying this slot's
 * metadata means the digest went out, and its ts is returned without posting again. A schedule
 * with `waitForData` whose range ends at or just before now first compares the range's metric
 * with the same span a week earlier: below its share it answers `{ waitMs }` (the scheduler calls
 * again later, the slot still claimed) until the wait is spent, then posts with a notice.
 *
 * @example scheduler = createScheduler({ runSlot: (run) => deliverDigest(run, deps), … });
 */
export async function deliverDigest(run: SlotRun, deps: DigestDeps): Promise<SlotResult> {
  const slack = deps.slack;
  const { spec, slot } = run;
  const where = { report: spec.report, channel: spec.channel, slot: slot.toISOString(), attempt: run.attempt };
  deps.logger.debug(where, 'digest slot claimed');
  // The crash test stops the bot at these points of a delivery: claimed, and delivered (not recorded).
  failpoint('digest-after-claim');
  if (run.attempt > 1) {
    const history = await slack.history(spec.channel, {
      // From a minute before the slot: Slack stamps the post with its own clock, which may be
      // behind ours; only this slot's metadata matches, so the margin costs nothing else.
      oldest: ((slot.getTime() - CLOCK_MARGIN_MS) / 1000).toFixed(6),
      inclusive: true,
      includeAllMetadata: true,
      limit: HISTORY_PAGE,
      pages: HISTORY_PAGES,
      until: (m) => isDigestPost(m, run),
      signal: run.signal,
    });
    const earlier = findDigestPost(history, run);
    // An earlier attempt that went async and whose job failed posted only a progress message
    // (saying it failed): the digest itself never went out, so it is run again.
    const failedJob = earlier && deps.store.jobs.list().find((j) => j.threadTs === earlier.ts && j.status === 'failed');
    if (earlier && failedJob) {
      deps.logger.info(
        { ...where, ts: earlier.ts, jobId: failedJob.id },
        "an earlier attempt's async job failed; running the digest again",
      );
    } else if (earlier) {
      deps.logger.info({ ...where, ts: earlier.ts }, 'digest already posted by an earlier attempt; not posting again');
      await completeThread(run, earlier.ts, deps);
      await explainEarlier(run, earlier.ts, deps);
      return { messageTs: earlier.ts };
    }
  }
  // Unsubscribed since the slot was claimed (a slot queued behind others at Slack's rate limits):
  // the channel asked for no more digests, so none is posted.
  if (spec.subscriptionId !== undefined && deps.store.subscriptions.get(spec.subscriptionId) === undefined) {
    deps.logger.info(where, 'subscription removed since the slot was claimed; not posting');
    return { skipped: 'the subscription was removed', unsubscribed: true };
  }
  const loaded = await deps.loadReports();
  const report = findReport(loaded, spec.report);
  if (!report.definition.schedule && spec.source === 'report') {
    throw new UserInputError(ErrorCode.ReportNotScheduled, `report ${spec.report} no longer has a schedule`);
  }
  const notices: string[] = [];
  if (spec.waitForData) {
    const rule = spec.waitForData;
    const plan = dataCheckPlan(report.definition, rule, {
      asOf: slot,
      now: deps.clock(),
      defaultTimeZone: deps.defaultTimeZone,
    });
    if (plan) {
      const measured = await measureData(plan, deps.client, run.signal);
      const decision = dataWaitAction({ ...measured, waitedMs: run.waitedMs }, rule);
      deps.logger.info({ ...where, ...measured, waitedMs: run.waitedMs, decision: decision.action }, 'data check');
      if (decision.action === 'wait') return { waitMs: decision.waitMs };
      if (!decision.complete) notices.push(incompleteDataNotice(plan, decision.share, run.waitedMs));
    }
  }
  // A quiet digest counts the incidents its slot's alert evaluations open: it decides after them.
  const settings = quietSettings(report.definition);
  if (settings?.incidents) {
    const pending = pendingAlertSlots(run, report, deps);
    if (pending.length > 0 && run.waitedMs < ALERTS_WAIT_MS) {
      deps.logger.info({ ...where, rules: pending }, "quiet digest waits for its slot's alert evaluations");
      return { waitMs: Math.min(ALERTS_CHECK_MS, ALERTS_WAIT_MS - run.waitedMs), for: 'alerts' };
    }
    if (pending.length > 0) {
      deps.logger.warn(
        { ...where, rules: pending },
        'alert evaluations of the slot still not done; deciding without them',
      );
    }
  }
  const late = run.late ? lateNote(slot, deps.clock(), spec.timezone) : undefined;
  const gate = quietGate(run, report, deps);
  const delivered = await runAndDeliver(
    {
      report,
      asOf: slot,
      csv: report.definition.deliver?.csv !== false,
      // Posted first, explained after (`explainDigest`): the pacing line goes out with it.
      explain: false,
      ...(gate ? { gate } : {}),
      post: {
        metadata: digestMetadata(run),
        ...(late ? { lateNote: late } : {}),
        ...(notices.length > 0 ? { notices } : {}),
      },
    },
    { channel: spec.channel, user: 'pivotbot-scheduler' },
    { ...deps, signal: run.signal },
  );
  if ('skipped' in delivered) {
    deps.logger.info({ ...where, reason: delivered.skipped, note: delivered.messageTs }, 'quiet digest not posted');
    return {
      skipped: delivered.skipped,
      ...(delivered.messageTs !== undefined ? { messageTs: delivered.messageTs } : {}),
    };
  }
  deps.logger.debug({ ...where, ts: delivered.messageTs }, 'digest delivered');
  // Posted, its thread files too; not explained yet, and the scheduler has not recorded the run.
  failpoint('digest-posted');
  // A digest that went async is delivered in its progress message's thread: explained there too.
  const threadTs = delivered.jobId === undefined ? undefined : deps.store.jobs.get(delivered.jobId)?.threadTs;
  await explainDigest(
    run,
    { channel: spec.channel, ts: delivered.messageTs, view: delivered.view, ...(threadTs ? { threadTs } : {}) },
    deps,
  );
  return { messageTs: delivered.messageTs };
}

/**
 * The gate of a report with `present.onlyWhen`: from the run's view, the incidents of its rules
 * opened since this schedule last posted in this channel, and the slot's weekday, whether to post
 * the digest, the weekly all-quiet note, or nothing. Undefined for a report that always posts.
 */
function quietGate(
  run: SlotRun,
  report: LoadedReport,
  deps: DigestDeps,
): ((view: ReportView) => GateAnswer) | undefined {
  const settings = quietSettings(report.definition);
  if (!settings) return undefined;
  const { spec, slot } = run;
  const lastPostAt = lastPost(run, deps);
  const since = lastPostAt?.getTime() ?? Number.NEGATIVE_INFINITY;
  const openedSince = report.definition.alerts.flatMap((rule) =>
    deps.store.incidents
      .listByReportRule(report.id, rule.id)
      .filter((i) => {
        const opened = Date.parse(i.reopenedAt ?? i.openedAt);
        return opened > since && opened <= slot.getTime();
      })
      .map((i) => ({ rule: rule.id, entity: i.entityKey })),
  );
  const weekday = dateTimeFormat('en-US', { timeZone: spec.timezone, weekday: 'short' })
    .format(slot)
    .slice(0, 3)
    .toLowerCase();
  const day = (at: Date) => dateTimeFormat('en-CA', { timeZone: spec.timezone, dateStyle: 'short' }).format(at);
  const notedToday = schedulePosts(run, deps).some((p) => p.note && day(p.at) === day(slot));
  return (view) => {
    const decision = quietDecision({
      view,
      settings,
      openedSince,
      weekday,
      notedToday,
      ...(lastPostAt ? { lastPostAt } : {}),
    });
    deps.logger.debug({ report: spec.report, slot: slot.toISOString(), decision }, 'quiet digest decision');
    if (decision.post) return { post: true, ...(decision.missing ? { notices: decision.missing } : {}) };
    if (!decision.allQuiet) return { post: false, reason: decision.reason };
    const note = allQuietMessage({
      reportId: report.id,
      title: report.definition.title,
      reason: decision.reason,
      timezone: spec.timezone,
      ...(lastPostAt ? { lastPostAt } : {}),
    });
    return { post: false, reason: `${decision.reason}; posted the weekly all-quiet note`, note };
  };
}

/**
 * The report's rules whose alert schedule fires at this slot and whose evaluation has not finished
 * (not claimed yet, or running): what a quiet digest waits for before it decides.
 */
function pendingAlertSlots(run: SlotRun, report: LoadedReport, deps: DigestDeps): string[] {
  const { slot } = run;
  const schedules = listAlertSchedules({ reports: [report] }, { timezone: deps.defaultTimeZone }).schedules;
  return schedules
    .filter((spec) => nextFires(spec, new Date(slot.getTime() - 1), 1)[0]?.getTime() === slot.getTime())
    .filter((spec) => {
      const evaluation = deps.store.runs.findByIdempotencyKey(alertRunKey(report.id, spec.rule ?? '', slot));
      return evaluation === undefined || evaluation.status === 'running';
    })
    .map((spec) => spec.rule ?? '');
}

/** When this schedule last posted in its channel before this slot: a digest, or an all-quiet note. */
function lastPost(run: SlotRun, deps: DigestDeps): Date | undefined {
  const posted = schedulePosts(run, deps).map((p) => p.at.getTime());
  return posted.length > 0 ? new Date(Math.max(...posted)) : undefined;
}

/** This schedule's posts in its channel before this slot, each with its slot and whether it was an all-quiet note. */
function schedulePosts(run: SlotRun, deps: DigestDeps): Array<{ at: Date; note: boolean }> {
  const { spec, slot } = run;
  return deps.store.runs
    .listByReport(spec.report)
    .filter(
      (r) =>
        r.channel === spec.channel &&
        r.idempotencyKey.startsWith('digest:') &&
        r.messageTs !== undefined &&
        (r.status === 'succeeded' || r.status === 'skipped') &&
        r.scheduledFor !== undefined &&
        Date.parse(r.scheduledFor) < slot.getTime(),
    )
    .map((r) => ({ at: new Date(r.scheduledFor as string), note: r.status === 'skipped' }));
}

/**
 * An earlier attempt's digest was found in the channel. If its thread has no file, that attempt
 * may have died between the post and the upload (the CSV, the postback chart): the report is run
 * again as of the slot and only the thread's files are posted. A digest that went async is left
 * to its job's delivery (resumed or adopted), which owns that thread.
 */
async function completeThread(run: SlotRun, ts: string, deps: DigestDeps): Promise<void> {
  const { spec, slot } = run;
  if (deps.store.jobs.list().some((job) => job.threadTs === ts)) return;
  const hasFiles = (m: HistoryMessage) => m.ts !== ts && (m.files?.length ?? 0) > 0;
  const replies = await deps.slack.replies(spec.channel, ts, {
    pages: HISTORY_PAGES,
    until: hasFiles,
    signal: run.signal,
  });
  if (replies.some(hasFiles)) return;
  const report = findReport(await deps.loadReports(), spec.report);
  const uploaded = await redeliverThreadFiles(
    { report, asOf: slot, csv: report.definition.deliver?.csv !== false },
    { channel: spec.channel, threadTs: ts },
    { ...deps, signal: run.signal },
  );
  if (uploaded > 0) {
    deps.logger.info(
      { report: spec.report, channel: spec.channel, slot: slot.toISOString(), ts, files: uploaded },
      "digest's thread files posted after an earlier attempt stopped before uploading them",
    );
  }
}

/**
 * The explanation step of a digest an earlier attempt posted: the digest that step recorded (a
 * failed step keeps its ts), or the post found in the channel. A digest delivered by an async job
 * whose step never started is left unexplained (the job's delivery owns its thread).
 */
async function explainEarlier(run: SlotRun, found: string, deps: DigestDeps): Promise<void> {
  const step = explainStepOf(deps, run);
  if (step?.status === 'succeeded' || step?.status === 'skipped') return;
  if (step?.messageTs === undefined && deps.store.jobs.list().some((job) => job.threadTs === found)) {
    deps.logger.info(
      { report: run.spec.report, slot: run.slot.toISOString(), ts: found },
      'digest delivered by an async job before its explanation step started; not explained',
    );
    return;
  }
  await explainDigest(run, { channel: run.spec.channel, ts: step?.messageTs ?? found }, deps);
}
