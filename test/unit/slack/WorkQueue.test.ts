import { WorkQueue } from '../../../src/slack/WorkQueue.js';

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
