import { ErrorCode, PivotbotError } from '../../core/index.js';

/** The queue already holds as many waiting runs as it may: the user is told at once. */
export class QueueFullError extends PivotbotError {
  constructor(queued: number) {
    super(ErrorCode.QueueFull, `work queue full: ${queued} runs running or waiting`, {
      userMessage: `pivotbot is busy with ${queued} runs right now, so yours did not start; try again in a minute.`,
      retryable: true,
      details: { queued },
    });
  }
}

/** The bot is stopping: a run that had not started is not started. */
export class ShuttingDownError extends PivotbotError {
  constructor() {
    super(ErrorCode.ShuttingDown, 'the bot is stopping; a waiting run was not started', {
      userMessage: 'pivotbot is restarting, so your run did not start; run it again in a minute.',
      retryable: true,
    });
  }
}

export interface WorkQueueOptions {
  /** Runs allowed to wait for a slot; one more is refused at once with `QueueFullError`. Default 100. */
  maxWaiting?: number;
  /** How long a run waits before its `onWait` is told. Default 3000 ms. */
  noticeAfterMs?: number;
  /** The bot's shutdown: waiting runs fail with `ShuttingDownError`, new ones are refused. */
  signal?: AbortSignal;
  /** Called for each run refused because the queue is full (the bot counts them). */
  onRefused?: () => void;
  /** Timers; tests pass fake ones. Default `setTimeout`/`clearTimeout`. */
  timers?: { set(fn: () => void, ms: number): unknown; clear(handle: unknown): void };
}

export interface RunOptions {
  /**
   * Called once if the run is still waiting after `noticeAfterMs`, with how many runs are ahead of
   * it (running ones included). It should not throw: it runs from a timer (a throw is ignored).
   */
  onWait?: (ahead: number) => void;
}

interface Waiter {
  /** Hands this waiter the slot of a run that ended. */
  start(): void;
  fail(error: Error): void;
}

const DEFAULT_TIMERS = {
  set: (fn: () => void, ms: number): unknown => setTimeout(fn, ms),
  clear: (handle: unknown) => clearTimeout(handle as NodeJS.Timeout),
};

/**
 * Runs at most `concurrency` tasks at once, first come first served, with at most `maxWaiting`
 * waiting. Slash commands go through it so that a burst of commands never saturates the event
 * loop: acknowledging stays fast while the work waits its turn. Nobody waits unknowingly: a run
 * that waits longer than `noticeAfterMs` hears how many are ahead, a run that finds the queue full
 * fails at once with `QueueFullError`, and on shutdown the waiting ones fail with
 * `ShuttingDownError`; each becomes a message to its user. A task may give its slot back early
 * (an async job that will only poll).
 *
 * @example const queue = new WorkQueue(4, { maxWaiting: 100, signal }); await queue.run(() => work(), { onWait: tell });
 */
export class WorkQueue {
  private running = 0;
  private readonly waiting: Waiter[] = [];
  private readonly maxWaiting: number;
  private readonly noticeAfterMs: number;
  private readonly timers: NonNullable<WorkQueueOptions['timers']>;
  private readonly signal: AbortSignal | undefined;
  private readonly onRefused: (() => void) | undefined;

  constructor(
    private readonly concurrency: number,
    options: WorkQueueOptions = {},
  ) {
    this.maxWaiting = options.maxWaiting ?? 100;
    this.noticeAfterMs = options.noticeAfterMs ?? 3_000;
    this.timers = options.timers ?? DEFAULT_TIMERS;
    this.signal = options.signal;
    this.onRefused = options.onRefused;
    this.signal?.addEventListener('abort', () => {
      for (const waiter of this.waiting.splice(0)) waiter.fail(new ShuttingDownError());
    });
  }

  /** Tasks running or waiting. */
  get size(): number {
    return this.running + this.waiting.length;
  }

  /**
   * Runs `task` when a slot is free; `release` gives the slot back before the task ends (calling
   * it again, or the task ending, does nothing more). Rejects at once with `QueueFullError` or
   * `ShuttingDownError` when the task cannot wait.
   */
  async run<T>(task: (release: () => void) => Promise<T>, options: RunOptions = {}): Promise<T> {
    if (this.signal?.aborted) throw new ShuttingDownError();
    if (this.running < this.concurrency) this.running++;
    else if (this.waiting.length >= this.maxWaiting) {
      this.onRefused?.();
      throw new QueueFullError(this.size);
    } else await this.waitForSlot(options.onWait);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      // The slot passes straight to the next waiter, so no newcomer can take it in between.
      const next = this.waiting.shift();
      if (next) next.start();
      else this.running--;
    };
    try {
      return await task(release);
    } finally {
      release();
    }
  }

  private waitForSlot(onWait: RunOptions['onWait']): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      let timer: unknown;
      const waiter: Waiter = {
        start: () => {
          if (timer !== undefined) this.timers.clear(timer);
          resolve();
        },
        fail: (error) => {
          if (timer !== undefined) this.timers.clear(timer);
          reject(error);
        },
      };
      if (onWait) {
        timer = this.timers.set(() => {
          timer = undefined;
          const index = this.waiting.indexOf(waiter);
          if (index < 0) return;
          try {
            onWait(this.running + index);
          } catch {
            // A notice that could not be given must not end the wait; callers log their own failures.
          }
        }, this.noticeAfterMs);
      }
      this.waiting.push(waiter);
    });
  }
}
