/**
 * The bot under bench/scheduler, in its own process as in production (`startBot`, its scheduler
 * and the chart process), pacing to Slack's limits in windows of `BENCH_WINDOW_MS`. Prints
 * `{"port":N}` when listening. Messages: `mark` starts measuring (event-loop delay, peak memory
 * sampled every 20 ms) and answers with the memory now; `read` answers with the peaks. Stops on
 * SIGTERM. With `BENCH_MEMORY_LOG=<file>`, appends one JSON line of memory every 500 ms to it
 * (`process.memoryUsage()` and /proc/self/smaps_rollup's Anonymous), to see how memory moves
 * through the burst.
 */
import { appendFileSync, readdirSync, readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { startBot } from '../../src/cli/startBot.js';
import { silentLogger } from '../../src/core/index.js';
import type { RenderedChart, ViewChartKind, ViewChartRenderer } from '../../src/render/index.js';
import type { ReportView } from '../../src/view/index.js';

const MiB = 1024 * 1024;
const memory = () => {
  const m = process.memoryUsage();
  return { rss: m.rss / MiB, heapTotal: m.heapTotal / MiB, heapUsed: m.heapUsed / MiB, external: m.external / MiB };
};
let peak = memory();
const sampler = setInterval(() => {
  const now = memory();
  peak = {
    rss: Math.max(peak.rss, now.rss),
    heapTotal: Math.max(peak.heapTotal, now.heapTotal),
    heapUsed: Math.max(peak.heapUsed, now.heapUsed),
    external: Math.max(peak.external, now.external),
  };
}, 20);

/**
 * The bot's child processes (the chart process) are part of what it costs: their resident memory,
 * summed from /proc (Linux; 0 elsewhere), sampled every 200 ms, with the total of bot and children.
 * RSS counts pages the two processes share (node's own code) twice; `pss` is the total with each
 * shared page split between them (/proc/<pid>/smaps_rollup), what the pair costs the machine.
 */
let childPeak = { children: 0, total: 0, pss: 0 };
const childSampler = setInterval(() => {
  const pids = childPids();
  const children = sumKb(pids, 'status', 'VmRSS') / 1024;
  const pss = sumKb([String(process.pid), ...pids], 'smaps_rollup', 'Pss') / 1024;
  childPeak = {
    children: Math.max(childPeak.children, children),
    total: Math.max(childPeak.total, process.memoryUsage().rss / MiB + children),
    pss: Math.max(childPeak.pss, pss),
  };
}, 200);

function childPids(): string[] {
  try {
    const pids = new Set<string>();
    for (const task of readdirSync(`/proc/${process.pid}/task`)) {
      const listed = readFileSync(`/proc/${process.pid}/task/${task}/children`, 'utf8').trim();
      for (const pid of listed.split(/\s+/)) if (pid) pids.add(pid);
    }
    return [...pids];
  } catch {
    return [];
  }
}

/** The sum over `pids` of a `<key>: N kB` line of /proc/<pid>/<file>; a process gone counts 0. */
function sumKb(pids: string[], file: string, key: string): number {
  let kb = 0;
  for (const pid of pids) {
    try {
      const match = new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/${file}`, 'utf8'));
      kb += match ? Number(match[1]) : 0;
    } catch {
      // exited between the listing and the read
    }
  }
  return kb;
}

const memoryLog = process.env.BENCH_MEMORY_LOG;
const started = performance.now();
const memoryLogger = memoryLog
  ? setInterval(() => {
      const m = process.memoryUsage();
      const line = {
        s: Math.round(performance.now() - started) / 1000,
        rss: m.rss / MiB,
        anon: anonymousKb() / 1024,
        heapTotal: m.heapTotal / MiB,
        heapUsed: m.heapUsed / MiB,
        external: m.external / MiB,
        arrayBuffers: m.arrayBuffers / MiB,
      };
      appendFileSync(
        memoryLog,
        `${JSON.stringify(line, (_, v) => (typeof v === 'number' ? Math.round(v * 10) / 10 : v))}\n`,
      );
    }, 500)
  : undefined;

/** Anonymous memory resident in this process (kB), from /proc/self/smaps_rollup (Linux; 0 elsewhere). */
function anonymousKb(): number {
  try {
    const match = /^Anonymous:\s+(\d+) kB/m.exec(readFileSync('/proc/self/smaps_rollup', 'utf8'));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

/**
 * BENCH_CHARTS=worker draws charts in a worker thread of the bot (bench/render/chartWorker.ts)
 * instead of the chart process, to compare memory; BENCH_CHART_YOUNG_MB limits its young generation.
 */
function workerCharts(): ViewChartRenderer {
  const young = Number(process.env.BENCH_CHART_YOUNG_MB ?? 0);
  const worker = new Worker(new URL('../render/chartWorker.js', import.meta.url), {
    ...(young > 0 ? { resourceLimits: { maxYoungGenerationSizeMb: young } } : {}),
  });
  worker.unref();
  let next = 0;
  const waiting = new Map<number, (chart: RenderedChart | null) => void>();
  worker.on('message', (reply: { id: number; png: Uint8Array | null; alt?: string }) => {
    waiting.get(reply.id)?.(reply.png ? { data: Buffer.from(reply.png), alt: reply.alt ?? '' } : null);
    waiting.delete(reply.id);
  });
  return {
    renderView: (view: ReportView, kind: ViewChartKind = 'main') =>
      new Promise((resolve) => {
        const id = ++next;
        waiting.set(id, resolve);
        worker.postMessage({ id, view, kind });
      }),
  };
}

const bot = await startBot({
  ...(process.env.BENCH_CHARTS === 'worker' ? { charts: workerCharts() } : {}),
  env: process.env,
  logger: silentLogger(),
  ...(process.env.WORK_DIR ? { workDir: process.env.WORK_DIR } : {}),
  slackRateLimits: { windowMs: Number(process.env.BENCH_WINDOW_MS ?? 60_000) },
  // BENCH_RECEIVER_THREAD=0 receives Slack on the main thread (to compare memory and acks).
  ...(process.env.BENCH_RECEIVER_THREAD === '0' ? { receiverThread: false as const } : {}),
});
const loop = monitorEventLoopDelay({ resolution: 5 });
loop.enable();
process.stdout.write(`${JSON.stringify({ port: bot.port })}\n`);
process.on('message', (message) => {
  if (message === 'mark') {
    loop.reset();
    peak = memory();
    childPeak = { children: 0, total: 0, pss: 0 };
    process.send?.(peak);
  }
  if (message === 'read') {
    process.send?.({
      peak,
      childPeak,
      natives: nativeModules(),
      status: processStatus(),
      loop: { p50: loop.percentile(50) / 1e6, p99: loop.percentile(99) / 1e6, max: loop.max / 1e6 },
    });
  }
});
/** The native addons loaded in this process (Linux), to tell where memory outside the V8 heap goes. */
function nativeModules(): string[] {
  try {
    const maps = readFileSync('/proc/self/maps', 'utf8');
    return [...new Set(maps.match(/[^/\s]+\.node$/gm) ?? [])];
  } catch {
    return [];
  }
}

/** RssAnon, RssFile and the thread count from /proc/self/status (Linux), empty elsewhere. */
function processStatus(): Record<string, string> {
  try {
    const lines = readFileSync('/proc/self/status', 'utf8').split('\n');
    const wanted = ['RssAnon', 'RssFile', 'Threads'];
    return Object.fromEntries(
      lines
        .map((l) => l.split(':'))
        .filter(([k]) => wanted.includes(k as string))
        .map(([k, v]) => [k as string, (v ?? '').trim()]),
    );
  } catch {
    return {};
  }
}

process.once('SIGTERM', () => {
  clearInterval(sampler);
  clearInterval(childSampler);
  if (memoryLogger) clearInterval(memoryLogger);
  void bot.stop().then(() => process.exit(0));
});
