/** A run's own working directory (its CSV is written there), removed when the run ends whatever happened. */
import { randomUUID } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { DeliveryDeps } from './DeliveryDeps.js';
import type { RunTarget } from './RunTarget.js';

/**
 * Calls `work` with a fresh directory under `deps.workDir/runs`, and removes it afterwards.
 *
 * @example const view = await inRunDir(deps, (dir) => runReport(report, runDeps(target, dir, deps)));
 */
export async function inRunDir<T>(deps: DeliveryDeps, work: (runDir: string) => Promise<T>): Promise<T> {
  const runDir = join(deps.workDir, 'runs', randomUUID());
  await mkdir(runDir, { recursive: true });
  try {
    return await work(runDir);
  } finally {
    await rm(runDir, { recursive: true, force: true });
  }
}

/** What `runReport` needs for one run of `target`, its CSV written into `runDir`. */
export function runDeps(target: RunTarget, runDir: string, deps: DeliveryDeps) {
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
