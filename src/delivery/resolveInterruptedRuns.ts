/**
 * At start-up, the manual `/pivot` runs a previous process left `running`: a run that became an
 * async job is finished by that job's outcome; a run that died before its job existed is marked
 * failed and its requester is told, with the command to run it again. (Scheduled runs are the
 * scheduler's: it runs their slots again under the same key.)
 */
import type { StoredFailure } from '../core/index.js';
import { ErrorCode } from '../core/index.js';
import type { SlackMessage } from '../render/index.js';
import type { AsyncJob, Run, Store, StoredError } from '../store/index.js';
import type { DeliveryDeps } from './DeliveryDeps.js';

/** What history shows for a manual run that a restart cut short. */
export const RUN_INTERRUPTED: StoredFailure = {
  code: ErrorCode.RunInterrupted,
  message: 'pivotbot restarted before this run finished; run the command again',
};

/** What happens to one unfinished manual run at start-up. */
export type InterruptedRunAction =
  | { kind: 'wait-for-job'; jobId: string; link: boolean }
  | { kind: 'finish'; status: 'succeeded' | 'failed'; error?: StoredError; messageTs?: string }
  | { kind: 'tell-requester' };

/**
 * Decides what to do with an unfinished manual run, given the job it became (found through the
 * run's `jobId`, or the job's `request.runId` when the process died between the two writes).
 */
export function interruptedRunAction(run: Run, job: AsyncJob | undefined): InterruptedRunAction {
  if (!job) return { kind: 'tell-requester' };
  switch (job.status) {
    case 'queued':
    case 'running':
      return { kind: 'wait-for-job', jobId: job.id, link: run.jobId !== job.id };
    case 'succeeded':
      return { kind: 'finish', status: 'succeeded', ...(job.threadTs ? { messageTs: job.threadTs } : {}) };
    default:
      return {
        kind: 'finish',
        status: 'failed',
        error: job.error ?? ({ code: ErrorCode.JobFailed, message: 'the job failed' } satisfies StoredFailure),
      };
  }
}

/** The requester's message: what was interrupted and the command that runs it again. */
export function interruptedRunMessage(
  run: Pick<Run, 'command' | 'report' | 'requester'>,
  mention: boolean,
): SlackMessage {
  const command = `/pivot ${run.command ?? `run ${run.report}`}`;
  const who = mention && run.requester ? `<@${run.requester}> ` : '';
  const text = `${who}Your \`${command}\` was interrupted: pivotbot restarted before it finished, and nothing was posted. Run it again with \`${command}\`.`;
  return { text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }] };
}

/** The job a run became, if it was created. */
export function jobOfRun(store: Pick<Store, 'jobs'>, run: Run): AsyncJob | undefined {
  if (run.jobId) return store.jobs.get(run.jobId);
  return store.jobs.list().find((job) => job.request.runId === run.id);
}

/**
 * Resolves every manual run left `running` (with `only`: those of its ids). The list is read
 * before the first await, so a command that arrives while this works is never mistaken for an
 * interrupted one.
 */
export async function resolveInterruptedRuns(deps: DeliveryDeps, only?: ReadonlySet<string>): Promise<number> {
  const unfinished = deps.store.runs
    .listUnfinished()
    .filter((run) => run.trigger === 'manual' && (only === undefined || only.has(run.id)));
  for (const run of unfinished) {
    try {
      await resolveRun(run, deps);
    } catch (error) {
      deps.logger.error({ err: error, run: run.id }, 'could not resolve an interrupted run');
    }
  }
  return unfinished.length;
}

async function resolveRun(run: Run, deps: DeliveryDeps): Promise<void> {
  const action = interruptedRunAction(run, jobOfRun(deps.store, run));
  switch (action.kind) {
    case 'wait-for-job':
      // The resumed job finishes the run (`finishJobRuns`).
      if (action.link) await deps.store.runs.linkJob(run.id, action.jobId);
      return;
    case 'finish':
      await deps.store.runs.finish(run.id, {
        status: action.status,
        ...(action.error ? { error: action.error } : {}),
        ...(action.messageTs ? { messageTs: action.messageTs } : {}),
      });
      return;
    case 'tell-requester':
      await deps.store.runs.finish(run.id, { status: 'failed', error: RUN_INTERRUPTED });
      deps.logger.warn(
        { run: run.id, report: run.report },
        'manual run interrupted by a restart; telling its requester',
      );
      await tellRequester(run, deps);
  }
}

/** Privately to the requester when Slack allows it (they are in the channel), else in the channel. */
async function tellRequester(run: Run, deps: DeliveryDeps): Promise<void> {
  if (!run.channel) return;
  if (run.requester) {
    try {
      await deps.slack.ephemeral(run.channel, run.requester, interruptedRunMessage(run, false));
      return;
    } catch (error) {
      deps.logger.info({ err: error, run: run.id }, 'could not tell the requester privately; telling the channel');
    }
  }
  await deps.slack.post(run.channel, interruptedRunMessage(run, true));
}

/** Finishes the runs linked to a resumed job with its outcome. */
export async function finishJobRuns(
  jobId: string,
  outcome: { status: 'succeeded'; messageTs?: string } | { status: 'failed'; error: StoredError },
  deps: Pick<DeliveryDeps, 'store' | 'logger'>,
): Promise<void> {
  for (const run of deps.store.runs.listUnfinishedByJob(jobId)) {
    await deps.store.runs
      .finish(run.id, outcome)
      .catch((error: unknown) => deps.logger.error({ err: error, run: run.id }, 'could not finish a resumed run'));
  }
}
