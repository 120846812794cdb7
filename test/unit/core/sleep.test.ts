import { CancelledError, sleep, untilAborted } from '../../../src/core/index.js';

describe('sleep', () => {
  it('resolves after the time when nothing aborts it', async () => {
    const started = Date.now();
    await sleep(30, new AbortController().signal);
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
  });

  it('rejects with CancelledError when its signal aborts during the wait, not when the wait ends', async () => {
    const controller = new AbortController();
    // Ten times the test's own timeout: only the abort can end it.
    const waiting = sleep(600_000, controller.signal, 'polling job 7');
    setTimeout(() => controller.abort(), 20);
    const error = await waiting.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CancelledError);
    expect(error).toMatchObject({ code: 'CANCELLED', message: 'polling job 7 cancelled', retryable: true });
  });

  it('rejects at once when the signal has already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(sleep(60_000, controller.signal)).rejects.toBeInstanceOf(CancelledError);
  });
});

describe('untilAborted', () => {
  it('passes the value through, or stops waiting with CancelledError when the signal aborts', async () => {
    await expect(untilAborted(Promise.resolve(7), new AbortController().signal)).resolves.toBe(7);
    const controller = new AbortController();
    const never = new Promise<number>(() => undefined);
    const waiting = untilAborted(never, controller.signal, 'token');
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ code: 'CANCELLED', message: 'token cancelled' });
  });
});
