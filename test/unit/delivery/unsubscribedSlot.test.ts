/**
 * A subscription's slot claimed before `/pivot unsubscribe` (queued behind other posts at Slack's
 * rate limits) posts nothing once the subscription is gone: it is skipped as unsubscribed.
 */
import { deliverDigest } from '../../../src/delivery/index.js';
import type { LoadedReport } from '../../../src/reports/index.js';
import type { ScheduleSpec, SlotRun } from '../../../src/scheduler/index.js';
import { digestDepsUpToTheQuery, REPORT_RAN } from '../../support/digestDeps.js';

const SLOT = new Date('2026-11-20T09:00:00Z');
const report = {
  id: 'daily',
  definition: {
    title: 'Daily',
    query: { metrics: ['spend'], dimensions: [], range: 'yesterday', timezone: 'UTC' },
    mode: 'sync',
    present: { compare: 'previous_period' },
    schedule: { at: '09:00', retry: { attempts: 3, backoff: '2m' } },
    deliver: { channels: ['C1'] },
  },
} as unknown as LoadedReport;

async function world() {
  const { store, deps } = digestDepsUpToTheQuery(report, SLOT);
  const { subscription } = await store.subscriptions.add({ report: 'daily', channel: 'C2', createdBy: 'U1' });
  const spec: ScheduleSpec = {
    id: `subscription:${subscription.id}`,
    report: 'daily',
    channel: 'C2',
    source: 'subscription',
    subscriptionId: subscription.id,
    timezone: 'UTC',
    at: '09:00',
    catchUp: null,
    retry: { attempts: 3, backoffMs: 120_000 },
  };
  const run: SlotRun = {
    spec,
    slot: SLOT,
    late: false,
    attempt: 1,
    runId: 'r1',
    waitedMs: 0,
    signal: new AbortController().signal,
  };
  return { store, deps, run };
}

describe("a subscription's slot", () => {
  it('runs the report while the subscription exists', async () => {
    const { deps, run } = await world();
    await expect(deliverDigest(run, deps)).rejects.toBe(REPORT_RAN);
  });

  it('is skipped as unsubscribed, without running the report, once the subscription is removed', async () => {
    const { store, deps, run } = await world();
    await store.subscriptions.remove('daily', 'C2');
    await expect(deliverDigest(run, deps)).resolves.toEqual({
      skipped: 'the subscription was removed',
      unsubscribed: true,
    });
  });
});
