import { createWriteQueue } from '../../../src/store/createWriteQueue.js';

function deferredWrites() {
  const calls: Array<{ resolve: () => void; reject: (e: unknown) => void }> = [];
  const write = () =>
    new Promise<void>((resolve, reject) => {
      calls.push({ resolve, reject });
    });
  return { calls, write };
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('createWriteQueue', () => {
  it('coalesces the calls of one tick into one write', async () => {
    let writes = 0;
    const queue = createWriteQueue(async () => {
      writes++;
    });
    await Promise.all([queue.commit(), queue.commit(), queue.commit()]);
    expect(writes).toBe(1);
    expect(queue.dirty).toBe(false);
  });

  it('never overlaps writes, and resolves a caller only after a write that started after its call', async () => {
    const { calls, write } = deferredWrites();
    const queue = createWriteQueue(write);
    const settled: string[] = [];
    const a = queue.commit().then(() => settled.push('a'));
    await tick();
    expect(calls).toHaveLength(1);
    const b = queue.commit().then(() => settled.push('b'));
    const c = queue.commit().then(() => settled.push('c'));
    await tick();
    expect(calls).toHaveLength(1); // b and c wait for the running write
    calls[0]?.resolve();
    await a;
    expect(settled).toEqual(['a']);
    await tick();
    expect(calls).toHaveLength(2); // one write for both b and c
    calls[1]?.resolve();
    await Promise.all([b, c]);
    expect(settled).toEqual(['a', 'b', 'c']);
  });

  it('rejects the callers of a failed write, stays dirty, and lets the next write clear it', async () => {
    const { calls, write } = deferredWrites();
    const queue = createWriteQueue(write);
    const failed = queue.commit();
    await tick();
    calls[0]?.reject(new Error('ENOSPC'));
    await expect(failed).rejects.toThrow('ENOSPC');
    expect(queue.dirty).toBe(true);
    const next = queue.commit();
    await tick();
    calls[1]?.resolve();
    await next;
    expect(queue.dirty).toBe(false);
    await queue.idle();
  });
});
