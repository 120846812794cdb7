import { EventEmitter } from 'node:events';
import { Writable } from 'node:stream';
import { jest } from '@jest/globals';
import { installProcessGuards, UNCAUGHT_EXIT_CODE } from '../../../src/cli/processGuards.js';
import { createLogger, PivotbotError } from '../../../src/core/index.js';

function harness(stop: () => Promise<void> | undefined, graceMs = 1_000) {
  const lines: Array<Record<string, unknown>> = [];
  const destination = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).trim().split('\n')) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const logger = createLogger({ destination, secrets: ['xoxb-guard-secret'] });
  const target = new EventEmitter();
  let exitCode: number | undefined;
  let exited: () => void = () => undefined;
  const exitedPromise = new Promise<void>((resolve) => {
    exited = resolve;
  });
  const remove = installProcessGuards({
    logger,
    stop,
    graceMs,
    target,
    exit: (code) => {
      exitCode = code;
      exited();
    },
  });
  return { lines, target, remove, exitedPromise, exitCode: () => exitCode };
}

describe('installProcessGuards', () => {
  it('logs an unhandled rejection with its code and class, scrubbed, and keeps running', () => {
    let stops = 0;
    const h = harness(async () => {
      stops += 1;
    });
    h.target.emit('unhandledRejection', new PivotbotError('STORE_WRITE_FAILED', 'write failed for xoxb-guard-secret'));
    expect(h.lines[0]).toMatchObject({ level: 50, err: { type: 'PivotbotError', code: 'STORE_WRITE_FAILED' } });
    expect(JSON.stringify(h.lines)).not.toContain('xoxb-guard-secret');
    expect(stops).toBe(0);
    expect(h.exitCode()).toBeUndefined();
    h.remove();
  });

  it('on an uncaught exception logs fatal, stops the bot, then exits non-zero', async () => {
    const order: string[] = [];
    const h = harness(async () => {
      order.push('stopped');
    });
    h.target.emit('uncaughtException', new TypeError('boom'));
    await h.exitedPromise;
    expect(h.lines[0]).toMatchObject({ level: 60, err: { type: 'TypeError', message: 'boom' } });
    expect(order).toEqual(['stopped']);
    expect(h.exitCode()).toBe(UNCAUGHT_EXIT_CODE);
    expect(UNCAUGHT_EXIT_CODE).not.toBe(0);
    h.remove();
  });

  it('exits when the grace period is over, not before, when stopping hangs', async () => {
    // Fake timers: the grace ends when the test says, whatever the machine's speed.
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    try {
      const h = harness(() => new Promise<void>(() => undefined), 60_000);
      h.target.emit('uncaughtException', new Error('stuck'));
      await jest.advanceTimersByTimeAsync(59_999);
      expect(h.exitCode()).toBeUndefined();
      await jest.advanceTimersByTimeAsync(1);
      await h.exitedPromise;
      expect(h.exitCode()).toBe(1);
      expect(h.lines.map((l) => l.msg)).toContain('the bot did not stop within the grace period; exiting anyway');
      h.remove();
    } finally {
      jest.useRealTimers();
    }
  });

  it('exits at once when the exception comes before the bot exists, and logs a failing stop', async () => {
    const early = harness(() => undefined);
    early.target.emit('uncaughtException', new Error('during start-up'));
    await early.exitedPromise;
    expect(early.exitCode()).toBe(1);
    early.remove();

    const failing = harness(async () => {
      throw new Error('store close failed');
    });
    failing.target.emit('uncaughtException', new Error('first'));
    await failing.exitedPromise;
    expect(failing.lines.map((l) => l.msg)).toContain('stopping after an uncaught exception failed');
    failing.remove();
  });

  it('removes both listeners', () => {
    const h = harness(() => undefined);
    expect(h.target.listenerCount('uncaughtException')).toBe(1);
    h.remove();
    expect(h.target.listenerCount('uncaughtException')).toBe(0);
    expect(h.target.listenerCount('unhandledRejection')).toBe(0);
  });
});

describe('installProcessGuards with a logger that throws', () => {
  /** A logger whose every line throws, as pino on a closed pipe once did. */
  const throwingLogger = () =>
    createLogger({
      destination: new Writable({
        write() {
          throw Object.assign(new Error('write EPIPE'), { code: 'EPIPE' });
        },
      }),
    });

  it('still logs nothing out of the handlers, stops the bot once and exits', async () => {
    const logger = throwingLogger();
    const target = new EventEmitter();
    let exitCode: number | undefined;
    let stops = 0;
    const exited = new Promise<void>((resolve) => {
      installProcessGuards({
        logger,
        target,
        stop: async () => {
          stops += 1;
        },
        exit: (code) => {
          exitCode = code;
          resolve();
        },
      });
    });
    expect(() => target.emit('unhandledRejection', new Error('nobody awaited'))).not.toThrow();
    expect(() => target.emit('uncaughtException', new Error('boom'))).not.toThrow();
    // More exceptions while stopping (each log line failing again) change nothing.
    for (let i = 0; i < 10; i++) expect(() => target.emit('uncaughtException', new Error('again'))).not.toThrow();
    await exited;
    expect(stops).toBe(1);
    expect(exitCode).toBe(UNCAUGHT_EXIT_CODE);
  });

  it('exits at the end of the grace period when the stop hangs, whatever the logger does', async () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    try {
      const target = new EventEmitter();
      const exits: number[] = [];
      installProcessGuards({
        logger: throwingLogger(),
        target,
        graceMs: 5_000,
        stop: () => new Promise<void>(() => undefined),
        exit: (code) => void exits.push(code),
      });
      target.emit('uncaughtException', new Error('stuck'));
      await jest.advanceTimersByTimeAsync(4_999);
      expect(exits).toEqual([]);
      await jest.advanceTimersByTimeAsync(1);
      expect(exits).toEqual([UNCAUGHT_EXIT_CODE]);
    } finally {
      jest.useRealTimers();
    }
  });

  it('takes write errors of the streams it is given, and lets them go when removed', () => {
    const stream = new Writable({ write: (_c, _e, done) => done() });
    const remove = installProcessGuards({
      logger: throwingLogger(),
      target: new EventEmitter(),
      stop: () => undefined,
      streams: [stream],
    });
    expect(() => stream.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }))).not.toThrow();
    remove();
    expect(stream.listenerCount('error')).toBe(0);
  });
});
