/**
 * Charts drawn in a child process. Drawing a chart blocks its thread for 10–100 ms (Chart.js
 * layout and text measuring on a canvas). In the bot that thread also handles Slack's events,
 * uploads files and polls jobs, so the bot hands views to this renderer instead.
 *
 * A process, not a worker thread. Skia (`@napi-rs/canvas`) is safe in worker threads, so this is
 * a choice, measured by bench/render (176 against 192 MiB resident after a burst of 50 digest
 * charts; the bot thread's loop delay is the same) and bench/scheduler (a worker in the bot was no
 * smaller than the process, and the bursts were slower; docs/benchmarks.md, "Footprint"), and a
 * process keeps what a native library can do wrong (a crash, a native leak) out of the bot: it can
 * be killed at any moment and replaced.
 *
 * A child that dies or hangs fails the renders it had (the caller posts without a chart) and is
 * replaced on the next render.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { compiledSibling } from '../core/index.js';
import type { ReportView } from '../view/index.js';
import { type RenderedChart, type ViewChartKind, type ViewChartRenderer, viewMayHaveChart } from './ChartRenderer.js';

/**
 * The chart process's V8 flags. Node 22+ lets the young generation grow to 64 MiB per semi-space
 * (128 MiB of new space); a chart's garbage is short-lived and small, so 1 MiB semi-spaces keep the
 * process ~25 MiB smaller for scavenges that cost well under a millisecond; `--optimize-for-size`
 * makes V8 grow its heap and keep code more sparingly; `--jitless` (the interpreter only, no
 * compiled code) takes the process's peak from 148 to 130 MiB for a digest chart drawn in 27–33
 * instead of 18 ms, off the bot's thread and far below a post's time (docs/benchmarks.md, "Footprint").
 */
export const CHART_PROCESS_EXEC_ARGV: readonly string[] = [
  '--max-semi-space-size=1',
  '--optimize-for-size',
  '--jitless',
];

/**
 * glibc malloc settings of the chart process. Each render copies the canvas's 3 MB of pixels;
 * after such a block is freed glibc raises its mmap threshold above it, so later copies come from
 * the heap, which fragments and keeps the pages. A fixed threshold of 128 KiB keeps big blocks in
 * mmap (returned on free), and two arenas are enough for one drawing thread (docs/benchmarks.md).
 */
export const CHART_PROCESS_MALLOC_ENV: Readonly<Record<string, string>> = {
  MALLOC_ARENA_MAX: '2',
  MALLOC_MMAP_THRESHOLD_: '131072',
};

/** A render request to the chart process. */
export interface ChartRequest {
  id: number;
  view: ReportView;
  kind: ViewChartKind;
}

/** The chart process's answer: the PNG, null for no chart, or an error. */
export type ChartReply =
  | { id: number; chart: { png: Uint8Array; alt: string } | null }
  | { id: number; error: string }
  | { ready: true };

export interface ChartProcessRendererOptions {
  /** A render that takes longer fails, and the process is replaced (default 30 s). */
  timeoutMs?: number;
  /** Calls `fn` after `ms` and returns what cancels it (default: `setTimeout`); tests decide when a render times out. */
  setTimer?: (fn: () => void, ms: number) => () => void;
}

function defaultSetTimer(fn: () => void, ms: number): () => void {
  const timer = setTimeout(fn, ms);
  return () => clearTimeout(timer);
}

interface Pending {
  resolve: (chart: RenderedChart | null) => void;
  reject: (error: Error) => void;
  cancelTimer: () => void;
}

/**
 * The compiled chart-process entry next to this module, or undefined when running from the
 * TypeScript sources (under jest), where node cannot run it.
 */
export function defaultChartProcessEntry(): URL | undefined {
  return compiledSibling('./chartProcess.js', import.meta.url);
}

/**
 * Renders views' charts in one child process running `entry` (`chartProcess.js`), started on
 * the first render.
 *
 * @example const charts = new ChartProcessRenderer(entry); const chart = await charts.renderView(view);
 */
export class ChartProcessRenderer implements ViewChartRenderer {
  readonly #entry: URL;
  readonly #timeoutMs: number;
  readonly #setTimer: (fn: () => void, ms: number) => () => void;
  readonly #pending = new Map<number, Pending>();
  #child: ChildProcess | undefined;
  /** Requests wait here until the current process says it is listening. */
  #waiting: ChartRequest[] = [];
  #ready = false;
  #nextId = 0;
  #closed = false;
  #started = 0;

  constructor(entry: URL, options: ChartProcessRendererOptions = {}) {
    this.#entry = entry;
    this.#timeoutMs = options.timeoutMs ?? 30_000;
    this.#setTimer = options.setTimer ?? defaultSetTimer;
  }

  /** How many renders are waiting for the process. */
  get pending(): number {
    return this.#pending.size;
  }

  /** The running chart process's pid, if one runs (benchmarks read its memory). */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** How many chart processes were started so far (a replaced one counts again). */
  get processesStarted(): number {
    return this.#started;
  }

  renderView(view: ReportView, kind: ViewChartKind = 'main'): Promise<RenderedChart | null> {
    if (this.#closed) return Promise.reject(new Error('the chart renderer is closed'));
    if (!viewMayHaveChart(view, kind)) return Promise.resolve(null);
    const child = this.#process();
    const id = ++this.#nextId;
    return new Promise<RenderedChart | null>((resolve, reject) => {
      const cancelTimer = this.#setTimer(() => {
        this.#pending.delete(id);
        reject(new Error(`the chart process did not answer within ${this.#timeoutMs} ms`));
        // A process stuck on one chart is stuck for all the others: replace it.
        this.#replace(child, new Error('the chart process was replaced after a render timed out'));
      }, this.#timeoutMs);
      this.#pending.set(id, { resolve, reject, cancelTimer });
      this.#send(child, { id, view, kind });
    });
  }

  /** Stops the process; renders still waiting fail. */
  async close(): Promise<void> {
    this.#closed = true;
    const child = this.#child;
    if (!child) return;
    const exited = new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve();
      else child.once('exit', () => resolve());
    });
    this.#replace(child, new Error('the chart renderer was closed'));
    await exited;
  }

  #process(): ChildProcess {
    if (this.#child) return this.#child;
    const child = fork(fileURLToPath(this.#entry), [], {
      serialization: 'advanced',
      execArgv: [...CHART_PROCESS_EXEC_ARGV],
      env: { ...process.env, ...CHART_PROCESS_MALLOC_ENV },
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    this.#started++;
    child.on('message', (reply: ChartReply) => {
      if ('ready' in reply) {
        this.#ready = true;
        for (const request of this.#waiting.splice(0)) this.#send(child, request);
        return;
      }
      const pending = this.#pending.get(reply.id);
      if (!pending) return;
      this.#pending.delete(reply.id);
      pending.cancelTimer();
      if ('error' in reply) pending.reject(new Error(`chart rendering failed: ${reply.error}`));
      else if (reply.chart === null) pending.resolve(null);
      else pending.resolve({ data: Buffer.from(reply.chart.png), alt: reply.chart.alt });
    });
    child.on('error', (error) => this.#replace(child, new Error(`the chart process failed: ${error.message}`)));
    child.on('exit', (code, signal) =>
      this.#replace(child, new Error(`the chart process exited (${signal ?? `code ${code}`})`)),
    );
    this.#child = child;
    return child;
  }

  #send(child: ChildProcess, request: ChartRequest): void {
    if (!this.#ready) {
      this.#waiting.push(request);
      return;
    }
    child.send(request, (error) => {
      if (error) this.#replace(child, new Error(`could not reach the chart process: ${error.message}`));
    });
  }

  /** Fails every render the process had and forgets it; the next render starts a new one. */
  #replace(child: ChildProcess, reason: Error): void {
    if (this.#child !== child) return;
    this.#child = undefined;
    this.#ready = false;
    this.#waiting = [];
    for (const [id, pending] of this.#pending) {
      pending.cancelTimer();
      pending.reject(reason);
      this.#pending.delete(id);
    }
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}
