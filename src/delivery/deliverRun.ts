/**
 * Running a report or query and delivering its result: the run (sync, or an async job with a
 * progress message kept up to date and stored so a restart can resume it), the quiet gate, the
 * "because" lines and budget pacing, then the post (`postView.ts`) and the explanation in its thread.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { storedError } from '../core/index.js';
import { explainMoved, reportPacing } from '../insights/index.js';
import { jobProgressMessage, type SlackMessage } from '../render/index.js';
import type { AsyncPivot } from '../reporting/index.js';
import { type RangeSpec, type ReportDefinition, type ReportView, runReport } from '../reports/index.js';
import type { MessageMetadata } from '../slackapi/index.js';
import type { DeliveryDeps, RunPlace } from './DeliveryDeps.js';
import { becauseLines, postExplanation } from './postExplanation.js';
import { type PostHow, postThreadFiles, postView } from './postView.js';

/** What to run: a named report, or a compiled ad-hoc / postbacks query. */
export interface RunTarget {
  report: { id: string; definition: ReportDefinition };
  /** The query text for ad-hoc runs (echoed in the message, kept for re-runs). */
  query?: string;
  range?: RangeSpec;
  mode?: 'sync' | 'async' | 'auto';
  /** The asker wants the CSV whatever the size. */
  csv?: boolean;
  /** The instant the report's ranges are relative to (a scheduled slot); default now. */
  asOf?: Date;
  /**
   * What the first message carries: metadata (on the progress message of an async run too, so a
   * restart sees that the slot was started), and a digest's late note and notices.
   */
  post?: Pick<PostHow, 'metadata' | 'lateNote' | 'notices'>;
  /**
   * Explain the headline KPIs that moved past the report's `present.explain` threshold: a
   * "because" line each in the message, the full ranking in its thread (digests).
   */
  explain?: boolean;
  /** The answer to a reply in a thread: its first line states the refined query (`adhocMessage`). */
  followUp?: PostHow['followUp'];
  /**
   * Decides from the run's view whether to post it (quiet digests): `post: false` posts nothing,
   * or only `note` (the weekly all-quiet note), and the result says why it was skipped. A run that
   * went async posts regardless: its progress message is already in the channel.
   */
  gate?: (view: ReportView) => GateAnswer;
}

export type GateAnswer = { post: true } | { post: false; reason: string; note?: SlackMessage };

/** A gated run that did not post its result: why, and the ts of the note posted instead, if any. */
export interface NotPosted {
  view: ReportView;
  skipped: string;
  messageTs?: string;
}

export interface Delivered {
  view: ReportView;
  messageTs: string;
  jobId?: string;
}

/**
 * Runs a report or query and posts its result: a digest-style message with headline numbers,
 * table and chart in the channel, and the CSV in its thread when asked for or when the table was
 * cut. An async run first posts a progress message, stores the job (before polling starts),
 * updates the message in place, and delivers the result in its thread.
 */
export async function runAndDeliver(
  target: RunTarget,
  place: RunPlace,
  deps: DeliveryDeps,
): Promise<Delivered | NotPosted> {
  const runDir = join(deps.workDir, 'runs', randomUUID());
  await mkdir(runDir, { recursive: true });
  const title = target.report.definition.title;
  let progress: { jobId: string; ts: string; startedAt: string } | undefined;
  const onStatus = async (job: AsyncPivot) => {
    if (!progress) {
      place.onAsync?.();
      progress = await startJob(job, target, place, deps, target.post?.metadata);
      return;
    }
    await updateProgress(deps, place.channel, progress, { status: job.status, title });
  };
  try {
    const view = await runReport(
      target.report,
      { ...runDeps(target, runDir, deps), asyncWait: { onStatus, signal: deps.signal } },
      { ...(target.range !== undefined ? { range: target.range } : {}), ...(target.mode ? { mode: target.mode } : {}) },
    );
    const gated = progress ? undefined : target.gate?.(view);
    if (gated && !gated.post) {
      const note = gated.note
        ? await deps.slack.post(place.channel, gated.note, {
            ...(target.post?.metadata ? { metadata: target.post.metadata } : {}),
            signal: deps.signal,
          })
        : undefined;
      return { view, skipped: gated.reason, ...(note ? { messageTs: note.ts } : {}) };
    }
    const threadTs = progress?.ts ?? place.threadTs;
    const explained = target.explain
      ? await explainMoved(
          view,
          { report: target.report, asOf: target.asOf ?? deps.clock(), range: target.range },
          deps,
        )
      : undefined;
    const because = explained ? becauseLines(explained) : [];
    // A named report with a plan for this month says how its spend paces (ad-hoc queries have none).
    const pacing =
      target.query === undefined
        ? await reportPacing(target.report, target.asOf ?? deps.clock(), { ...deps, signal: deps.signal })
        : undefined;
    const { ts: messageTs, channel } = await postView(
      view,
      {
        ...target.post,
        ...(target.query !== undefined ? { query: target.query } : {}),
        ...(target.csv ? { csv: true } : {}),
        ...(because.length > 0 ? { because } : {}),
        ...(target.followUp ? { followUp: target.followUp } : {}),
        ...(pacing ? { pacing } : {}),
      },
      { ...place, ...(threadTs ? { threadTs } : {}) },
      deps,
    );
    if (explained && explained.metrics.length > 0) {
      await postExplanation(
        explained,
        { title: view.title, channel, threadTs: threadTs ?? messageTs, reportId: view.reportId },
        deps,
      ).catch((error: unknown) => {
        deps.logger.warn(
          { err: error, report: view.reportId },
          "could not post the explanation in the digest's thread",
        );
      });
    }
    if (progress) {
      await updateProgress(deps, place.channel, progress, {
        status: 'READY',
        title,
        ...(view.csvPath ? { resultName: basename(view.csvPath) } : {}),
      });
      await deps.store.jobs.update(progress.jobId, {
        status: 'succeeded',
        ...(view.csvPath ? { resultFile: basename(view.csvPath) } : {}),
      });
    }
    return { view, messageTs, ...(progress ? { jobId: progress.jobId } : {}) };
  } catch (error) {
    if (progress && !deps.signal.aborted) {
      // `/pivot status` shows this to users: their text and our code; the internal ones are in the log.
      const failure = storedError(error);
      await updateProgress(deps, place.channel, progress, { status: 'FAILED', title, error: failure.message });
      await deps.store.jobs.update(progress.jobId, { status: 'failed', error: failure }).catch(() => undefined);
    }
    throw error;
  } finally {
    await rm(runDir, { recursive: true, force: true });
  }
}

/**
 * Runs a report again (as of `target.asOf`) and posts only what goes into its result's thread:
 * for a digest whose message went out but whose files died with the process that posted it.
 * Resolves to how many files were uploaded.
 */
export async function redeliverThreadFiles(
  target: RunTarget,
  thread: { channel: string; threadTs: string },
  deps: DeliveryDeps,
): Promise<number> {
  const runDir = join(deps.workDir, 'runs', randomUUID());
  await mkdir(runDir, { recursive: true });
  try {
    const view = await runReport(
      target.report,
      runDeps(target, runDir, deps),
      target.range !== undefined ? { range: target.range } : {},
    );
    return await postThreadFiles(view, target.csv ? { csv: true } : {}, thread, deps);
  } finally {
    await rm(runDir, { recursive: true, force: true });
  }
}

/** What `runReport` needs for one run of `target`, its CSV written into `runDir`. */
function runDeps(target: RunTarget, runDir: string, deps: DeliveryDeps) {
  return {
    client: deps.client,
    now: target.asOf ? () => target.asOf as Date : deps.clock,
    outDir: runDir,
    viewJson: false,
    logger: deps.logger,
    defaultTimeZone: deps.defaultTimeZone,
    signal: deps.signal,
  };
}

/** Stores the job first (so a restart can resume it), then posts its progress message. */
async function startJob(
  job: AsyncPivot,
  target: RunTarget,
  place: RunPlace,
  deps: DeliveryDeps,
  metadata: MessageMetadata | undefined,
) {
  const startedAt = deps.clock().toISOString();
  await deps.store.jobs.create({
    id: job.id,
    request: {
      reportId: target.report.id,
      title: target.report.definition.title,
      ...(target.query ? { query: target.query } : {}),
      ...(target.range !== undefined ? { range: target.range } : {}),
      // Written with the job, so a run whose link below never landed still finds its job.
      ...(place.runId ? { runId: place.runId } : {}),
    },
    requester: place.user,
    channel: place.channel,
  });
  if (place.runId) await deps.store.runs.linkJob(place.runId, job.id);
  const message = jobProgressMessage({
    jobId: job.id,
    title: target.report.definition.title,
    status: job.status,
    startedAt,
    now: startedAt,
  });
  const { ts } = await deps.slack.post(place.channel, message, {
    ...(place.threadTs ? { threadTs: place.threadTs } : {}),
    ...(metadata ? { metadata } : {}),
  });
  await deps.store.jobs.update(job.id, { threadTs: ts, status: 'running' });
  return { jobId: job.id, ts, startedAt };
}

/** Redraws a job's progress message in place; a failed update is logged, never thrown. */
export async function updateProgress(
  deps: DeliveryDeps,
  channel: string,
  progress: { jobId: string; ts: string; startedAt: string },
  state: { status: string; title: string; resultName?: string; error?: string },
): Promise<void> {
  const message = jobProgressMessage({
    jobId: progress.jobId,
    startedAt: progress.startedAt,
    now: deps.clock().toISOString(),
    ...state,
  });
  try {
    await deps.slack.update(channel, progress.ts, message);
  } catch (error) {
    deps.logger.warn({ err: error, jobId: progress.jobId }, 'could not update the progress message');
  }
}
