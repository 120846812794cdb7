/**
 * An async run's job: stored before its progress message is posted (so a restart can resume it),
 * the message redrawn in place as the job moves, and the job record closed when the run ends.
 */
import { basename } from 'node:path';
import { storedError } from '../core/index.js';
import { jobProgressMessage } from '../render/index.js';
import type { AsyncPivot } from '../reporting/index.js';
import type { ReportView } from '../reports/index.js';
import type { MessageMetadata } from '../slackapi/index.js';
import type { DeliveryDeps, RunPlace } from './DeliveryDeps.js';
import type { RunTarget } from './RunTarget.js';

/** A started job: its id, its progress message's ts, and when it started. */
export interface JobProgress {
  jobId: string;
  ts: string;
  startedAt: string;
}

/** Stores the job first (so a restart can resume it), then posts its progress message. */
export async function startJob(
  job: AsyncPivot,
  target: RunTarget,
  place: RunPlace,
  deps: DeliveryDeps,
  metadata: MessageMetadata | undefined,
): Promise<JobProgress> {
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
  progress: JobProgress,
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

/** The run delivered: the message says READY (with the result's file name), and the job succeeded. */
export async function finishJob(
  deps: DeliveryDeps,
  channel: string,
  progress: JobProgress,
  title: string,
  view: ReportView,
): Promise<void> {
  await updateProgress(deps, channel, progress, {
    status: 'READY',
    title,
    ...(view.csvPath ? { resultName: basename(view.csvPath) } : {}),
  });
  await deps.store.jobs.update(progress.jobId, {
    status: 'succeeded',
    ...(view.csvPath ? { resultFile: basename(view.csvPath) } : {}),
  });
}

/** The run failed: the message says FAILED with what users may read, and the job records the failure. */
export async function failJob(
  deps: DeliveryDeps,
  channel: string,
  progress: JobProgress,
  title: string,
  error: unknown,
): Promise<void> {
  // `/pivot status` shows this to users: their text and our code; the internal ones are in the log.
  const failure = storedError(error);
  await updateProgress(deps, channel, progress, { status: 'FAILED', title, error: failure.message });
  await deps.store.jobs.update(progress.jobId, { status: 'failed', error: failure }).catch(() => undefined);
}
