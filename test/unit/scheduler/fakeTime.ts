/** A clock and timers that move only when a test says so. */
export class FakeTime {
  private nowMs: number;
  private timers: Array<{ at: number; seq: number; fn: () => void }> = [];
  private seq = 0;

  constructor(iso: string) {
    this.nowMs = Date.parse(iso);
  }

  readonly clock = (): Date => new Date(this.nowMs);

  readonly setTimer = (fn: () => void, ms: number): (() => void) => {
    const timer = { at: this.nowMs + Math.max(0, ms), seq: this.seq++, fn };
    this.timers.push(timer);
    return () => {
      this.timers = this.timers.filter((t) => t !== timer);
    };
  };

  get pendingTimers(): number {
    return this.timers.length;
  }

  /** Moves time forward by `ms`, firing due timers in order and letting what they start settle. */
  async advance(ms: number): Promise<void> {
    const end = this.nowMs + ms;
    for (;;) {
      await settle();
      const due = this.timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.nowMs = Math.max(this.nowMs, due.at);
      due.fn();
    }
    this.nowMs = end;
    await settle();
  }

  /** Jumps to an instant without firing timers: the machine was off. */
  jump(iso: string): void {
    this.nowMs = Date.parse(iso);
    this.timers = [];
  }
}

/** Lets pending promise chains (store writes, pool hand-offs) run. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
}

/** A promise with its resolve and reject. */
export function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
