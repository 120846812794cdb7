/**
 * A run someone asked for in Slack (a command, a button, a follow-up, the builder): recorded in
 * the store under the request's idempotency key, so a request Slack delivers again never runs
 * twice and a restart that interrupts it can finish it or tell the requester; then run and posted.
 */
import { storedError } from '../core/index.js';
import type { DeliveryDeps, RunPlace } from './DeliveryDeps.js';
import { runAndDeliver } from './deliverRun.js';
import type { RunTarget } from './RunTarget.js';

/** Who asked, where, and the key their request carries (none: the run is not recorded). */
export interface RunRequest {
  /** The store's idempotency key (`slack:<trigger_id>`, `slack:msg:<channel>:<ts>`). */
  key?: string;
  channel: string;
  requester: string;
  /** The command as typed, kept so an interrupted run can be told how to run again. */
  command?: string;
  threadTs?: string;
}

/** Runs `work` when a run slot is free; `release` gives the slot back early (an async job). */
export type InQueue = <T>(work: (release: () => void) => Promise<T>) => Promise<T>;

/**
 * Runs and posts `target` once per request key: a key already started is skipped (logged). The
 * run is finished as succeeded with its message, or failed with the user's text of the error
 * (shown by `/pivot history`); on shutdown it stays running for the next start. Rethrows the
 * run's error for the caller to tell the requester.
 *
 * @example await deliverRequested(target, { key: 'slack:T123', channel, requester: user }, deps, (work) => queue.run(work))
 */
export async function deliverRequested(
  target: RunTarget,
  request: RunRequest,
  deps: DeliveryDeps,
  inQueue: InQueue,
): Promise<void> {
  const { key } = request;
  let runId: string | undefined;
  if (key) {
    const { run, started } = await deps.store.runs.start({
      report: target.report.id,
      trigger: 'manual',
      idempotencyKey: key,
      channel: request.channel,
      // Kept so that a restart that interrupts the run can tell the requester how to run it again.
      requester: request.requester,
      ...(request.command ? { command: request.command } : {}),
    });
    if (!started) {
      deps.logger.info({ key }, 'duplicate Slack request ignored');
      return;
    }
    runId = run.id;
  }
  try {
    const delivered = await inQueue((release) => {
      const place: RunPlace = {
        channel: request.channel,
        user: request.requester,
        ...(request.threadTs ? { threadTs: request.threadTs } : {}),
        // An async job mostly waits from then on: its slot goes to the next run.
        onAsync: release,
        ...(runId ? { runId } : {}),
      };
      return runAndDeliver(target, place, deps);
    });
    if (runId) {
      // A command's run has no gate: it always posts (only a quiet digest may not).
      const { messageTs } = delivered;
      await deps.store.runs.finish(runId, { status: 'succeeded', ...(messageTs ? { messageTs } : {}) });
    }
  } catch (error) {
    // On shutdown the run stays `running`: the next start finishes it from its job or tells the requester.
    if (runId && !deps.signal.aborted) {
      // `/pivot history` shows this to users: their text; the internal one is in the log.
      await deps.store.runs.finish(runId, { status: 'failed', error: storedError(error) }).catch(() => undefined);
    }
    throw error;
  }
}
