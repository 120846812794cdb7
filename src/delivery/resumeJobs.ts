/**
 * After a restart: the manual runs a dead process left running are resolved, and every async job
 * still active is polled to the end and its CSV delivered in its thread, once.
 */
import { randomUUID } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { describeFailure, storedError } from '../core/index.js';
import { jobProgressMessage, type SlackMessage } from '../render/index.js';
import type { DeliveryDeps } from './DeliveryDeps.js';
import { updateProgress } from './jobProgress.js';
import { finishJobRuns, resolveInterruptedRuns } from './resolveInterruptedRuns.js';

/** The runs and jobs, by id, that a replica adopted from one that stopped. */
export interface AdoptedWork {
  runs: ReadonlySet<string>;
  jobs: ReadonlySet<string>;
}

/**
 * After a restart: the manual runs left running are resolved (`resolveInterruptedRuns`), then every
 * job still active in the store is polled to the end and its CSV delivered in its thread, once
 * (the job is marked succeeded right after the upload), and its outcome finishes its runs.
 * With `only` (a replica adopting what a stopped one left): just those runs and jobs.
 */
export async function resumeJobs(deps: DeliveryDeps, only?: AdoptedWork): Promise<number> {
  await resolveInterruptedRuns(deps, only?.runs);
  const active = deps.store.jobs.listActive().filter((job) => only === undefined || only.jobs.has(job.id));
  await Promise.all(active.map((job) => resumeJob(job.id, deps)));
  return active.length;
}

async function resumeJob(jobId: string, deps: DeliveryDeps): Promise<void> {
  const stored = deps.store.jobs.get(jobId);
  if (!stored) return;
  const title = typeof stored.request.title === 'string' ? stored.request.title : 'Report job';
  const startedAt = stored.startedAt ?? stored.createdAt;
  deps.logger.info({ jobId }, 'resuming an async job after restart');
  let threadTs = stored.threadTs;
  try {
    if (!threadTs) {
      const posted = await deps.slack.post(
        stored.channel,
        jobProgressMessage({ jobId, title, status: 'RUNNING', startedAt, now: deps.clock().toISOString() }),
      );
      threadTs = posted.ts;
      await deps.store.jobs.update(jobId, { threadTs, status: 'running' });
    }
    const progress = { jobId, ts: threadTs, startedAt };
    const job = await deps.client.waitForAsyncPivot(jobId, {
      signal: deps.signal,
      onStatus: (j) => updateProgress(deps, stored.channel, progress, { status: j.status, title }),
    });
    const dir = join(deps.workDir, 'runs', randomUUID());
    try {
      const reportId = typeof stored.request.reportId === 'string' ? stored.request.reportId : 'result';
      const csv = await deps.client.downloadAsyncPivotCsv(job, join(dir, `${reportId}.csv`), undefined, {
        signal: deps.signal,
      });
      const summary: SlackMessage = {
        text: `${title}: ${csv.rows} rows`,
        blocks: [
          {
            type: 'section',
            text: {
              type: 'mrkdwn',
              text: `*${title}* is ready: ${csv.rows.toLocaleString('en-US')} rows × ${csv.columns.length} columns (${csv.columns.join(', ')}). The CSV is below.`,
            },
          },
          {
            type: 'context',
            elements: [{ type: 'mrkdwn', text: 'Delivered after pivotbot restarted while the job was running.' }],
          },
        ],
      };
      await deps.slack.post(stored.channel, summary, { threadTs });
      await deps.slack.upload(
        stored.channel,
        [{ filename: basename(csv.path), data: await readFile(csv.path), title }],
        { threadTs },
      );
      await deps.store.jobs.update(jobId, { status: 'succeeded', resultFile: basename(csv.path) });
      await finishJobRuns(jobId, { status: 'succeeded', messageTs: threadTs }, deps);
      await updateProgress(deps, stored.channel, progress, { status: 'READY', title, resultName: basename(csv.path) });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  } catch (error) {
    if (deps.signal.aborted) return;
    // Nobody waits on a command here: the job's thread reads the failure with the log line's ref.
    const told = describeFailure(error, { logger: deps.logger, what: 'resumed job failed', context: { jobId } });
    const failure = storedError(error);
    await deps.store.jobs.update(jobId, { status: 'failed', error: failure }).catch(() => undefined);
    await finishJobRuns(jobId, { status: 'failed', error: failure }, deps);
    if (threadTs) {
      await updateProgress(
        deps,
        stored.channel,
        { jobId, ts: threadTs, startedAt },
        { status: 'FAILED', title, error: told.text },
      );
    }
  }
}
