/**
 * Runs at most `concurrency` tasks at once, first come first served. Slash commands go through it
 * so that a burst of commands never saturates the event loop: acknowledging stays fast while the
 * work waits its turn. A task may give its slot back early (an async job that will only poll).
 */
export class WorkQueue {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly concurrency: number) {}

  /** Tasks running or waiting. */
  get size(): number {
    return this.running + this.waiting.length;
  }

  /**
   * Runs `task` when a slot is free; `release` gives the slot back before the task ends (calling
   * it again, or the task ending, does nothing more).
   */
  async run<T>(task: (release: () => void) => Promise<T>): Promise<T> {
    if (this.running >= this.concurrency) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running++;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.running--;
      this.waiting.shift()?.();
    };
    try {
      return await task(release);
    } finally {
      release();
    }
  }
}
