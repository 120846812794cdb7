/** A digest's thread files posted again, for a digest whose message went out but whose files died with its process. */
import { runReport } from '../reports/index.js';
import type { DeliveryDeps } from './DeliveryDeps.js';
import { postThreadFiles } from './postView.js';
import type { RunTarget } from './RunTarget.js';
import { inRunDir, runDeps } from './runDir.js';

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
  return inRunDir(deps, async (runDir) => {
    const view = await runReport(
      target.report,
      runDeps(target, runDir, deps),
      target.range !== undefined ? { range: target.range } : {},
    );
    return await postThreadFiles(view, target.csv ? { csv: true } : {}, thread, deps);
  });
}
