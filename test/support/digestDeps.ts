/**
 * Digest dependencies for unit tests of the steps before a digest's report runs: a memory store,
 * one report, a fixed clock, and a Reporting Service client that throws `REPORT_RAN` when asked,
 * so a test sees that the digest went past its checks to the query.
 */
import { tmpdir } from 'node:os';
import { silentLogger } from '../../src/core/index.js';
import type { DigestDeps } from '../../src/delivery/index.js';
import type { LoadedReport } from '../../src/reports/index.js';
import { createMemoryStore, type Store } from '../../src/store/index.js';

/** What the client throws: the digest reached the report's query. */
export const REPORT_RAN = new Error('the report ran');

export function digestDepsUpToTheQuery(report: LoadedReport, now: Date): { store: Store; deps: DigestDeps } {
  const store = createMemoryStore({ clock: () => now });
  const ran = async () => {
    throw REPORT_RAN;
  };
  const deps = {
    store,
    logger: silentLogger(),
    clock: () => now,
    defaultTimeZone: 'UTC',
    loadReports: async () => ({ reports: [report], problems: [], broken: [] }),
    client: { pivot: ran, runAsyncPivot: ran },
    signal: new AbortController().signal,
    workDir: tmpdir(),
  } as unknown as DigestDeps;
  return { store, deps };
}
