/**
 * Running a report or query and delivering its result: the run (sync, or an async job whose
 * progress message is kept up to date: `jobProgress.ts`), the quiet gate, the "because" lines and
 * budget pacing (decided in `insights/`), then the post (`postView.ts`) and the explanation in its
 * thread.
 */
import type { AsyncPivot } from '../reporting/index.js';
import { type ReportView, runReport } from '../reports/index.js';
import { countExplanation } from './alertMetrics.js';
import type { DeliveryDeps, RunPlace } from './DeliveryDeps.js';
import { digestContent } from './digestContent.js';
import { failJob, finishJob, type JobProgress, startJob, updateProgress } from './jobProgress.js';
import { postExplanation } from './postExplanation.js';
import { postView } from './postView.js';
import type { Delivered, GateAnswer, NotPosted, RunTarget } from './RunTarget.js';
import { inRunDir, runDeps } from './runDir.js';

/**
 * Runs a report or query and posts its result: a digest-style message with headline numbers,
 * table and chart in the channel, and the CSV in its thread when asked for or when the table was
 * cut. An async run first posts a progress message, stores the job (before polling starts),
 * updates the message in place, and delivers the result in its thread.
 *
 * @example await runAndDeliver({ report, explain: true }, { channel: 'C123', user: 'U1' }, deps)
 */
export async function runAndDeliver(
  target: RunTarget,
  place: RunPlace,
  deps: DeliveryDeps,
): Promise<Delivered | NotPosted> {
  return inRunDir(deps, async (runDir) => {
    const title = target.report.definition.title;
    let progress: JobProgress | undefined;
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
        {
          ...(target.range !== undefined ? { range: target.range } : {}),
          ...(target.mode ? { mode: target.mode } : {}),
        },
      );
      const gated = progress ? undefined : target.gate?.(view);
      if (gated && !gated.post) return await postInsteadOfResult(view, gated, target, place, deps);
      const threadTs = progress?.ts ?? place.threadTs;
      // A named report's digest says why its KPIs moved and how its budget paces, as every door does.
      const { explained, because, pacing } =
        target.query === undefined
          ? await digestContent(
              view,
              {
                report: target.report,
                asOf: target.asOf ?? deps.clock(),
                explain: target.explain === true,
                ...(target.range !== undefined ? { range: target.range } : {}),
              },
              { ...deps, signal: deps.signal },
            )
          : { because: [] as string[], explained: undefined, pacing: undefined };
      const notices = [...(target.post?.notices ?? []), ...(gated?.notices ?? [])];
      const { ts: messageTs, channel } = await postView(
        view,
        {
          ...target.post,
          ...(notices.length > 0 ? { notices } : {}),
          ...(target.query !== undefined ? { query: target.query } : {}),
          ...(target.csv ? { csv: true } : {}),
          ...(because.length > 0 ? { because } : {}),
          ...(target.followUp ? { followUp: target.followUp } : {}),
          ...(pacing ? { pacing } : {}),
        },
        { ...place, ...(threadTs ? { threadTs } : {}) },
        deps,
      );
      if (explained && explained.metrics.length === 0) countExplanation(deps.metrics, 'report', 'skipped', 'not_moved');
      if (explained && explained.metrics.length > 0) {
        await postExplanation(
          explained,
          { title: view.title, channel, threadTs: threadTs ?? messageTs, reportId: view.reportId },
          deps,
        ).then(
          () => countExplanation(deps.metrics, 'report', 'posted', ''),
          (error: unknown) => {
            countExplanation(deps.metrics, 'report', 'skipped', 'failed');
            deps.logger.warn(
              { err: error, report: view.reportId },
              "could not post the explanation in the digest's thread",
            );
          },
        );
      }
      if (progress) await finishJob(deps, place.channel, progress, title, view);
      return { view, messageTs, ...(progress ? { jobId: progress.jobId } : {}) };
    } catch (error) {
      if (progress && !deps.signal.aborted) await failJob(deps, place.channel, progress, title, error);
      throw error;
    }
  });
}

/** A gated run that does not post its result: the gate's note (if any) posted instead, and why. */
async function postInsteadOfResult(
  view: ReportView,
  gated: Extract<GateAnswer, { post: false }>,
  target: RunTarget,
  place: RunPlace,
  deps: DeliveryDeps,
): Promise<NotPosted> {
  const note = gated.note
    ? await deps.slack.post(place.channel, gated.note, {
        ...(target.post?.metadata ? { metadata: target.post.metadata } : {}),
        signal: deps.signal,
      })
    : undefined;
  return { view, skipped: gated.reason, ...(note ? { messageTs: note.ts } : {}) };
}
