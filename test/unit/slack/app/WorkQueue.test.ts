import { WorkQueue } from '../../../../src/slack/app/WorkQueue.js';

const tick = () => new Promise((r) => setImmediate(r));

describe('WorkQueue', () => {
  it('runs at most `concurrency` tasks at once, in arrival order', async () => {
    const queue = new WorkQueue(2);
    const started: number[] = [];
    const finishers: Array<() => void> = [];
    const tasks = [0, 1, 2, 3].map((i) =>
      queue.run(async () => {
        started.push(i);
        await new Promise<void>((resolve) => finishers.push(resolve));
        return i;
      }),
    );
    await tick();
    expect(started).toEqual([0, 1]);
    finishers[0]?.();
    await tick();
    await tick();
    expect(started).toEqual([0, 1, 2]);
    finishers[1]?.();
    finishers[2]?.();
    await tick();
    await tick();
    finishers[3]?.();
    expect(await Promise.all(tasks)).toEqual([0, 1, 2, 3]);
    expect(queue.size).toBe(0);
  });

  it('lets a task give its slot back early, once', async () => {
    const queue = new WorkQueue(1);
    const order: string[] = [];
    let finishFirst: () => void = () => {};
    const first = queue.run(async (release) => {
      order.push('first starts');
      release();
      release();
      await new Promise<void>((resolve) => {
        finishFirst = resolve;
      });
      order.push('first ends');
    });
    const second = queue.run(async () => {
      order.push('second runs');
    });
    await second;
    finishFirst();
    await first;
    expect(order).toEqual(['first starts', 'second runs', 'first ends']);
    expect(queue.size).toBe(0);
  });

  it('frees the slot when a task throws', async () => {
    const queue = new WorkQueue(1);
    await expect(queue.run(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(queue.run(async () => 'next')).resolves.toBe('next');
  });
});

/** Timers the test fires by hand: no test waits for the 3 s notice. */
function fakeTimers() {
  const pending = new Map<number, { fn: () => void; ms: number }>();
  let next = 0;
  return {
    timers: {
      set: (fn: () => void, ms: number) => {
        pending.set(++next, { fn, ms });
        return next;
      },
      clear: (handle: unknown) => void pending.delete(handle as number),
    },
    pending,
    fireAll() {
      const due = [...pending.values()];
      pending.clear();
      for (const t of due) t.fn();
    },
  };
}

/** A task that runs until `finish()` is called. */
function blocker() {
  let finish: () => void = () => undefined;
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  return { task: () => done, finish: () => finish() };
}

describe('WorkQueue bounds and notices', () => {
  it('refuses a run at once with QueueFullError when maxWaiting runs already wait', async () => {
    const queue = new WorkQueue(1, { maxWaiting: 2 });
    const b = blocker();
    const running = queue.run(b.task);
    const waiting = [queue.run(async () => 'w1'), queue.run(async () => 'w2')];
    await expect(queue.run(async () => 'w3')).rejects.toMatchObject({
      name: 'QueueFullError',
      code: 'QUEUE_FULL',
      retryable: true,
      userMessage: expect.stringContaining('try again in a minute'),
    });
    expect(queue.size).toBe(3);
    b.finish();
    await running;
    expect(await Promise.all(waiting)).toEqual(['w1', 'w2']);
    expect(queue.size).toBe(0);
  });

  it.each([
    { position: 0, ahead: 2 },
    { position: 1, ahead: 3 },
  ])('tells a run that still waits after noticeAfterMs how many are ahead ($ahead)', async ({ position, ahead }) => {
    const clock = fakeTimers();
    const queue = new WorkQueue(2, { noticeAfterMs: 3_000, timers: clock.timers });
    const blockers = [blocker(), blocker()];
    const running = blockers.map((b) => queue.run(b.task));
    const notices: number[][] = [[], []];
    const waiting = [0, 1].map((i) => queue.run(async () => i, { onWait: (n) => notices[i]?.push(n) }));
    expect([...clock.pending.values()].map((t) => t.ms)).toEqual([3_000, 3_000]);
    clock.fireAll();
    expect(notices[position]).toEqual([ahead]);
    for (const b of blockers) b.finish();
    await Promise.all([...running, ...waiting]);
  });

  it('gives no notice to a run that starts before noticeAfterMs, and clears its timer', async () => {
    const clock = fakeTimers();
    const queue = new WorkQueue(1, { timers: clock.timers });
    const b = blocker();
    const running = queue.run(b.task);
    const notices: number[] = [];
    const waiting = queue.run(async () => 'ran', { onWait: (n) => notices.push(n) });
    expect(clock.pending.size).toBe(1);
    b.finish();
    await running;
    expect(await waiting).toBe('ran');
    expect(clock.pending.size).toBe(0);
    expect(notices).toEqual([]);
  });

  it('fails waiting runs with ShuttingDownError on shutdown and refuses new ones; running ones finish', async () => {
    const shutdown = new AbortController();
    const queue = new WorkQueue(1, { signal: shutdown.signal });
    const b = blocker();
    const running = queue.run(async () => {
      await b.task();
      return 'finished';
    });
    let started = false;
    const waiting = queue.run(async () => {
      started = true;
    });
    shutdown.abort();
    await expect(waiting).rejects.toMatchObject({ code: 'SHUTTING_DOWN', name: 'ShuttingDownError' });
    await expect(queue.run(async () => 'late')).rejects.toMatchObject({ code: 'SHUTTING_DOWN' });
    b.finish();
    expect(await running).toBe('finished');
    expect(started).toBe(false);
    expect(queue.size).toBe(0);
  });

  it('never runs more than `concurrency` even when a newcomer arrives as a slot frees', async () => {
    const queue = new WorkQueue(1);
    let active = 0;
    let most = 0;
    const task = async () => {
      active++;
      most = Math.max(most, active);
      await tick();
      active--;
    };
    let third: Promise<void> | undefined;
    const first = queue.run(async (release) => {
      await tick();
      // The slot goes to the waiting second run; a newcomer in the same turn must wait behind it.
      release();
      third = queue.run(task);
    });
    const second = queue.run(task);
    await first;
    await Promise.all([second, third]);
    expect(third).toBeDefined();
    expect(most).toBe(1);
  });
});
