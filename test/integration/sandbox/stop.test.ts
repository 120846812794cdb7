/**
 * The whole sandbox stops with async pivots in flight (issue 35, item 3): the stop once hung when a
 * job was RUNNING and waiting for its next step, as `test/integration/sandbox/officialClient.test.ts`'s
 * afterAll and `pivotbot sandbox` on SIGTERM showed. test/unit/sandbox/asyncJobsStop.test.ts holds a
 * job in each state; this one stops the real sandbox (jobs, HTTP server, DuckDB) as soon as a job
 * is seen RUNNING (almost always within its 250 ms step) with others behind it, and asserts on the
 * stop's completion only.
 */
import { startSandbox } from '../../../src/sandbox/index.js';
import { eventually } from '../../support/eventually.js';
import { sandboxClient } from '../../support/sandboxClient.js';

const INPUT = `{ from: "2026-11-13", to: "2026-11-20", dimensions: ["date", "countryCode"], metrics: ["installs"] }`;

it('stops with one async pivot RUNNING and others waiting for the worker', async () => {
  const sandbox = await startSandbox({
    scale: 'small',
    now: new Date('2026-11-21T05:30:00Z'),
    concurrency: 1,
    faults: { asyncStepMs: 250 },
  });
  let stopped = false;
  try {
    const client = await sandboxClient(sandbox);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const data = await client.data<{ createAsyncPivot: { asyncPivot: { id: string } } }>(
        `mutation { createAsyncPivot(Input: ${INPUT}) { asyncPivot { id } } }`,
      );
      ids.push(data.createAsyncPivot.asyncPivot.id);
    }
    await eventually('an async pivot to be RUNNING', () =>
      ids.some((id) => sandbox.asyncHistory(id)?.at(-1) === 'RUNNING'),
    );
    await sandbox.stop();
    stopped = true;
    // Nothing moves after the stop: the histories stay as they were.
    const after = ids.map((id) => sandbox.asyncHistory(id));
    await new Promise((resolve) => setImmediate(resolve));
    expect(ids.map((id) => sandbox.asyncHistory(id))).toEqual(after);
  } finally {
    if (!stopped) await sandbox.stop();
  }
});
