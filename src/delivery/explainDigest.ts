/**
 * A scheduled digest's explanation step: after the digest is posted (without waiting for its
 * explanations), the headline KPIs that moved are explained, their "because" lines added to the
 * posted digest by `chat.update` (its blocks, chart and metadata kept), and the ranking posted in
 * its thread. The step has its own identity (`explainRunKey`, claimed in the store), so its
 * failure is recorded and retried on its own: the slot's next attempt finds the digest posted and
 * runs only this step again. Each effect is checked where it landed before it is repeated: the
 * digest's metadata says `explained`, the thread holds a reply with the ranking's metadata.
 */
import { ErrorCode, storedError } from '../core/index.js';
import { type ExplainedReport, explainReport, explainSettings, movedHeadline } from '../insights/index.js';
import { withBecause } from '../render/index.js';
import { findReport, type LoadedReport, type ReportView, runReport } from '../reports/index.js';
import { explainRunKey, type SlotRun } from '../scheduler/index.js';
import { DIGEST_EXPLANATION_EVENT, type HistoryMessage, type MessageMetadata } from '../slackapi/index.js';
import type { Run } from '../store/index.js';
import { countExplanation } from './alertMetrics.js';
import type { DigestDeps } from './deliverDigest.js';
import { becauseLines, postExplanation } from './postExplanation.js';
import { inRunDir, runDeps } from './runDir.js';

/** Pages of a digest's thread read for the ranking an earlier attempt posted. */
const THREAD_PAGES = 10;

/** The posted digest to explain: where it is and, on the attempt that posted it, its run's view. */
export interface PostedDigest {
  channel: string;
  ts: string;
  /** The thread the digest was posted in: an async run's progress message. */
  threadTs?: string;
  view?: ReportView;
}

/** The digest's explanation step of a slot, as the store records it. */
export function explainStepOf(deps: Pick<DigestDeps, 'store'>, run: Pick<SlotRun, 'spec' | 'slot'>): Run | undefined {
  return deps.store.runs.findByIdempotencyKey(explainRunKey(run.spec.report, run.spec.channel, run.slot));
}

/**
 * Runs the explanation step of a posted digest once, under its own claim. Resolves when the step is
 * done (now, or by an earlier attempt); throws when it failed (recorded as failed with the digest's
 * ts, so the slot's retry explains it again and never posts the digest again).
 *
 * @example await explainDigest(run, { channel: 'C1', ts: delivered.messageTs, view }, deps);
 */
export async function explainDigest(run: SlotRun, posted: PostedDigest, deps: DigestDeps): Promise<void> {
  const { spec, slot } = run;
  const runs = deps.store.runs;
  const key = explainRunKey(spec.report, spec.channel, slot);
  const where = { report: spec.report, channel: spec.channel, slot: slot.toISOString(), ts: posted.ts };
  const previous = runs.findByIdempotencyKey(key);
  // Nothing to explain: no step, no record (explanations off, or the posting attempt's run shows no KPI moved).
  if (previous === undefined) {
    const report = findReport(await deps.loadReports(), spec.report);
    if (!explainSettings(report.definition).enabled) return;
    if (posted.view && !movedHeadline(posted.view, report.definition)) {
      countExplanation(deps.metrics, 'report', 'skipped', 'not_moved');
      return;
    }
  }
  const step = {
    report: spec.report,
    trigger: run.late ? ('catch-up' as const) : ('schedule' as const),
    idempotencyKey: key,
    scheduledFor: slot.toISOString(),
    channel: spec.channel,
  };
  let claim = await runs.start(step);
  if (!claim.started && claim.run.status === 'running') {
    // The digest slot's claim serialises its attempts: a step still marked running is an earlier
    // attempt's that stopped or died (this attempt holds the slot now). It is failed and taken over.
    await runs.finish(claim.run.id, {
      status: 'failed',
      error: { code: ErrorCode.RunInterrupted, message: 'the explanation step stopped before it finished' },
    });
    claim = await runs.start(step);
  }
  if (!claim.started) {
    deps.logger.debug({ ...where, key }, "digest's explanation step already done");
    return;
  }
  // The digest the step explains: the one an earlier attempt of the step recorded, or the one posted.
  const ts = previous?.messageTs ?? posted.ts;
  try {
    const added = await explainPosted(run, { ...posted, ts }, deps);
    await runs.finish(claim.run.id, { status: added ? 'succeeded' : 'skipped', messageTs: ts });
  } catch (error) {
    await runs
      .finish(claim.run.id, { status: 'failed', error: storedError(error), messageTs: ts })
      .catch((recordError: unknown) =>
        deps.logger.error({ ...where, err: recordError }, 'explanation step failure not recorded'),
      );
    deps.logger.warn({ ...where, err: error }, "digest's explanation failed; the slot's retry explains it again");
    throw error;
  }
}

/** The step's work; resolves to whether there was anything to explain. */
async function explainPosted(run: SlotRun, posted: PostedDigest, deps: DigestDeps): Promise<boolean> {
  const { spec, slot } = run;
  const report = findReport(await deps.loadReports(), spec.report);
  const view = posted.view ?? (await viewOfSlot(report, slot, deps, run.signal));
  const moved = movedHeadline(view, report.definition);
  if (!moved) {
    countExplanation(deps.metrics, 'report', 'skipped', 'not_moved');
    return false;
  }
  const explained = await explainReport({ report, asOf: slot, metrics: moved }, { ...deps, signal: run.signal });
  const because = becauseLines(explained);
  if (because.length > 0) await addBecause(run, posted, because, deps);
  if (explained.metrics.length === 0) {
    countExplanation(deps.metrics, 'report', 'skipped', 'not_moved');
    return true;
  }
  await postRanking(run, posted, explained, view.title, deps);
  countExplanation(deps.metrics, 'report', 'posted', '');
  return true;
}

/** The report run again as of the slot: the view a retry of the step explains. */
async function viewOfSlot(
  report: LoadedReport,
  slot: Date,
  deps: DigestDeps,
  signal: AbortSignal,
): Promise<ReportView> {
  return inRunDir(deps, (runDir) =>
    runReport(report, runDeps({ report, asOf: slot }, runDir, { ...deps, signal }), {}),
  );
}

/**
 * The "because" lines added to the posted digest by `chat.update`, unless its metadata says an
 * earlier attempt added them. Its blocks are read back from Slack and kept (chart included).
 */
async function addBecause(run: SlotRun, posted: PostedDigest, because: string[], deps: DigestDeps): Promise<void> {
  const message = await readMessage(posted, deps, run.signal);
  if (!message)
    throw new Error(`the digest ${posted.ts} is no longer in ${posted.channel}; cannot add its explanation`);
  const metadata = message.metadata;
  if (metadata?.event_payload.explained === true) {
    deps.logger.info({ report: run.spec.report, ts: posted.ts }, 'because lines already added by an earlier attempt');
    return;
  }
  const explainedMetadata: MessageMetadata | undefined = metadata
    ? { event_type: metadata.event_type, event_payload: { ...metadata.event_payload, explained: true } }
    : undefined;
  await deps.slack.update(
    posted.channel,
    posted.ts,
    { text: message.text, blocks: withBecause(message.blocks ?? [], because) },
    { signal: run.signal, ...(explainedMetadata ? { metadata: explainedMetadata } : {}) },
  );
}

/** The ranking in the digest's thread, unless an earlier attempt posted it there. */
async function postRanking(
  run: SlotRun,
  posted: PostedDigest,
  explained: ExplainedReport,
  title: string,
  deps: DigestDeps,
): Promise<void> {
  const { spec, slot } = run;
  const isRanking = (m: HistoryMessage) =>
    m.ts !== posted.ts &&
    m.metadata?.event_type === DIGEST_EXPLANATION_EVENT &&
    m.metadata.event_payload.slot === slot.toISOString();
  const threadTs = posted.threadTs ?? posted.ts;
  const thread = await deps.slack.replies(posted.channel, threadTs, {
    includeAllMetadata: true,
    pages: THREAD_PAGES,
    until: isRanking,
    signal: run.signal,
  });
  if (thread.some(isRanking)) {
    deps.logger.info({ report: spec.report, ts: posted.ts }, 'ranking already in the thread from an earlier attempt');
    return;
  }
  await postExplanation(
    explained,
    {
      title,
      channel: posted.channel,
      threadTs,
      reportId: spec.report,
      metadata: {
        event_type: DIGEST_EXPLANATION_EVENT,
        event_payload: { report: spec.report, channel: spec.channel, slot: slot.toISOString() },
      },
    },
    deps,
  );
}

/** The posted digest as Slack has it now: its text, blocks and metadata. */
async function readMessage(
  posted: PostedDigest,
  deps: DigestDeps,
  signal: AbortSignal,
): Promise<HistoryMessage | undefined> {
  const around = {
    oldest: posted.ts,
    latest: posted.ts,
    inclusive: true,
    limit: 1,
    includeAllMetadata: true,
    signal,
  };
  const found = posted.threadTs
    ? await deps.slack.replies(posted.channel, posted.threadTs, { ...around, oldest: posted.threadTs, limit: 100 })
    : await deps.slack.history(posted.channel, around);
  return found.find((m) => m.ts === posted.ts);
}
