/**
 * A quiet digest decides after its slot's alert evaluations: an incident opened at 09:00 is
 * counted by the 09:00 digest, whichever lane the scheduler runs first.
 */
import { deliverDigest } from '../../../src/delivery/index.js';
import type { LoadedReport } from '../../../src/reports/index.js';
import { ALERTS_WAIT_MS, type ScheduleSpec, type SlotRun } from '../../../src/scheduler/index.js';
import { digestDepsUpToTheQuery, REPORT_RAN } from '../../support/digestDeps.js';

const SLOT = new Date('2026-11-20T09:00:00Z');
const spec: ScheduleSpec = {
  id: 'report:daily:C1:09:00 daily@UTC',
  report: 'daily',
  channel: 'C1',
  source: 'report',
  timezone: 'UTC',
  at: '09:00',
  catchUp: null,
  retry: { attempts: 3, backoffMs: 120_000 },
};
const report = {
  id: 'daily',
  definition: {
    title: 'Daily',
    query: { metrics: ['spend'], dimensions: [], range: 'yesterday', timezone: 'UTC' },
    mode: 'sync',
    present: { compare: 'previous_period', onlyWhen: {} },
    schedule: { at: '09:00', retry: { attempts: 3, backoff: '2m' }, catchUp: '6h' },
    deliver: { channels: ['C1'] },
    alerts: [{ id: 'spend-high', metric: 'spend', above: 100, on: 'total', consecutive: 1 }],
  },
} as unknown as LoadedReport;

const world = () => digestDepsUpToTheQuery(report, SLOT);

const run = (waitedMs = 0): SlotRun => ({
  spec,
  slot: SLOT,
  late: false,
  attempt: 1,
  runId: 'r1',
  waitedMs,
  signal: new AbortController().signal,
});

describe("a quiet digest and its slot's alert evaluations", () => {
  it('waits while the evaluation of the same slot is not claimed yet, then while it runs', async () => {
    const { store, deps } = world();
    await expect(deliverDigest(run(), deps)).resolves.toEqual({ waitMs: 5_000, for: 'alerts' });
    const { run: evaluation } = await store.runs.start({
      report: 'daily',
      trigger: 'schedule',
      idempotencyKey: `alert:daily:spend-high:${SLOT.toISOString()}`,
      scheduledFor: SLOT.toISOString(),
      channel: 'C1',
    });
    await expect(deliverDigest(run(5_000), deps)).resolves.toEqual({ waitMs: 5_000, for: 'alerts' });
    await store.runs.finish(evaluation.id, { status: 'succeeded' });
    // Evaluated: the digest runs its report and decides.
    await expect(deliverDigest(run(10_000), deps)).rejects.toBe(REPORT_RAN);
  });

  it('decides without them once its wait for them is spent', async () => {
    const { deps } = world();
    await expect(deliverDigest(run(ALERTS_WAIT_MS), deps)).rejects.toBe(REPORT_RAN);
  });
});
