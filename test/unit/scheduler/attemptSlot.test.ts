import { INTERNAL_FAILURE_MESSAGE, PivotbotError, silentLogger } from '../../../src/core/index.js';
import { type AttemptSlotDeps, createAttemptSlot } from '../../../src/scheduler/attemptSlot.js';
import type { ScheduleSpec, SlotResult, SlotRun } from '../../../src/scheduler/index.js';
import { recordWith, type SlotStep } from '../../../src/scheduler/slotAttempt.js';
import { createMemoryStore, type Store } from '../../../src/store/index.js';

const spec: ScheduleSpec = {
  id: 'report:daily:C1:0 9 * * *@UTC',
  report: 'daily',
  channel: 'C1',
  source: 'report',
  timezone: 'UTC',
  cron: '0 9 * * *',
  catchUp: 3_600_000,
  retry: { attempts: 3, backoffMs: 120_000 },
  waitForData: { metric: 'installs', minShare: 0.5, waitMs: 60 * 60_000 },
};
const SLOT = new Date('2026-11-23T09:00:00Z');
const KEY = 'digest:daily:C1:2026-11-23T09:00:00.000Z';

/** One attempt over a memory store, `runSlot` answering `answer` (or throwing what it throws). */
function setup(answer: (run: SlotRun) => Promise<SlotResult>, options: { stopping?: boolean } = {}) {
  const store: Store = createMemoryStore({ clock: () => new Date('2026-11-23T09:00:05Z') });
  const calls: SlotRun[] = [];
  const inFlight = new Set<Promise<unknown>>();
  const deps: AttemptSlotDeps = {
    runs: store.runs,
    runSlot: (run) => {
      calls.push(run);
      expect(inFlight.size).toBe(1);
      return answer(run);
    },
    runtime: {
      logger: silentLogger(),
      isStopping: () => options.stopping ?? false,
      record: recordWith(silentLogger()),
    },
    inFlight,
  };
  const attempt = createAttemptSlot(deps);
  const step = (over: Partial<SlotStep> = {}): SlotStep => ({
    spec,
    slot: SLOT,
    late: false,
    waitedMs: 0,
    signal: new AbortController().signal,
    ...over,
  });
  const run = () => store.runs.findByIdempotencyKey(KEY);
  return { store, calls, inFlight, attempt, step, run };
}

describe('attemptSlot: claim, run once, record', () => {
  it('claims the run key, passes the claim to runSlot, and records the posted ts', async () => {
    const { attempt, step, calls, run, inFlight } = setup(async () => ({ messageTs: '1.000100' }));
    expect(await attempt(step({ late: true }))).toBe('done');
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ slot: SLOT, late: true, attempt: 1, runId: run()?.id, waitedMs: 0 });
    expect(run()).toMatchObject({ status: 'succeeded', messageTs: '1.000100', trigger: 'catch-up' });
    expect(inFlight.size).toBe(0);
  });

  it('does not call runSlot for a key already succeeded (the same channel at the same instant)', async () => {
    const { attempt, step, calls } = setup(async () => ({ messageTs: '1.000100' }));
    await attempt(step());
    expect(await attempt(step())).toBe('done');
    expect(calls).toHaveLength(1);
  });

  it('takes over a run a stopped replica left running when the queue hands the slot over', async () => {
    const { attempt, step, calls, store } = setup(async () => ({ messageTs: '2.000100' }));
    const { run: left } = await store.runs.start({ report: 'daily', trigger: 'schedule', idempotencyKey: KEY });
    expect(await attempt(step())).toBe('done');
    expect(calls).toEqual([]);
    expect(await attempt(step({ handedOver: true }))).toBe('done');
    expect(store.runs.get(left.id)).toMatchObject({ status: 'failed', error: { code: 'RUN_INTERRUPTED' } });
    expect(calls.map((c) => c.attempt)).toEqual([2]);
  });

  it('records a failure with its user-safe message and hands the error back for the retry decision', async () => {
    const failure = new PivotbotError('REPORTING_HTTP', 'POST /v1/graphql answered 503', {
      retryable: true,
      userMessage: 'The Reporting Service did not answer.',
    });
    const { attempt, step, run } = setup(async () => {
      throw failure;
    });
    expect(await attempt(step())).toEqual({ error: failure, runId: run()?.id });
    expect(run()).toMatchObject({
      status: 'failed',
      error: { code: 'REPORTING_HTTP', message: 'The Reporting Service did not answer.' },
    });
  });

  it("never stores an unknown error's text", async () => {
    const { attempt, step, run } = setup(async () => {
      throw new TypeError('secret detail at /home/bot/src/x.ts');
    });
    await attempt(step());
    expect(run()?.error).toEqual({ code: 'INTERNAL', message: INTERNAL_FAILURE_MESSAGE });
  });

  it('keeps the run claimed while it waits for data, and continues the held run without a new claim', async () => {
    const answers: SlotResult[] = [{ waitMs: 15 * 60_000 }, { messageTs: '3.000100' }];
    const { attempt, step, calls, run } = setup(async () => answers.shift() ?? {});
    const waiting = await attempt(step());
    expect(waiting).toMatchObject({ waitMs: 15 * 60_000, run: { status: 'running' } });
    if (typeof waiting !== 'object' || !('waitMs' in waiting)) throw new Error('expected a wait');
    expect(await attempt(step({ held: waiting.run, waitedMs: 15 * 60_000 }))).toBe('done');
    expect(calls.map((c) => [c.runId, c.waitedMs])).toEqual([
      [waiting.run.id, 0],
      [waiting.run.id, 15 * 60_000],
    ]);
    expect(run()).toMatchObject({ status: 'succeeded', attempt: 1 });
  });

  it('fails a wait past the schedule’s waitForData (DATA_WAIT_OVER)', async () => {
    const { attempt, step, run } = setup(async () => ({ waitMs: 15 * 60_000 }));
    const outcome = await attempt(step({ waitedMs: 50 * 60_000 }));
    expect(outcome).toMatchObject({ error: { code: 'DATA_WAIT_OVER' } });
    expect(run()).toMatchObject({ status: 'failed', error: { code: 'DATA_WAIT_OVER' } });
  });

  it('records a quiet digest as skipped with its reason and the ts of its note', async () => {
    const { attempt, step, run } = setup(async () => ({ skipped: 'no change since yesterday', messageTs: '4.0001' }));
    expect(await attempt(step())).toBe('done');
    expect(run()).toMatchObject({
      status: 'skipped',
      error: { code: 'QUIET', message: 'no change since yesterday' },
      messageTs: '4.0001',
    });
  });

  it('records a run aborted by shutdown as interrupted, to run again', async () => {
    const abort = new AbortController();
    const { attempt, step, run } = setup(async () => {
      abort.abort();
      throw new Error('aborted');
    });
    expect(await attempt(step({ signal: abort.signal }))).toBe('stopped');
    expect(run()).toMatchObject({ status: 'failed', error: { code: 'RUN_INTERRUPTED' } });
  });

  it('writes nothing for a step whose fence fell (another replica may have taken it over)', async () => {
    const fence = new AbortController();
    const { attempt, step, run } = setup(async () => {
      fence.abort();
      return { messageTs: '5.0001' };
    });
    expect(await attempt(step({ fence: fence.signal }))).toBe('stopped');
    expect(run()?.status).toBe('running');
  });

  it('neither claims nor runs once the scheduler is stopping', async () => {
    const { attempt, step, calls, run } = setup(async () => ({ messageTs: '6.0001' }), { stopping: true });
    expect(await attempt(step())).toBe('stopped');
    expect(calls).toEqual([]);
    expect(run()).toBeUndefined();
  });
});
