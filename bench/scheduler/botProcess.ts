/**
 * The bot under bench/scheduler, in its own process as in production (`startBot`, its scheduler
 * and the chart process), pacing to Slack's limits in windows of `BENCH_WINDOW_MS`. Prints
 * `{"port":N}` when listening. Messages: `mark` starts measuring (event-loop delay, peak memory
 * sampled every 20 ms) and answers with the memory now; `read` answers with the peaks. Stops on
 * SIGTERM.
 */
import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { startBot } from '../../src/cli/startBot.js';
import { silentLogger } from '../../src/core/index.js';

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

const bot = await startBot({
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
    process.send?.(peak);
  }
  if (message === 'read') {
    process.send?.({
      peak,
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
  void bot.stop().then(() => process.exit(0));
});
