/**
 * The bot under bench/scheduler, in its own process as in production (`startBot`, its scheduler
 * and the chart process), pacing to Slack's limits in windows of `BENCH_WINDOW_MS`. Prints
 * `{"port":N}` when listening; on the message `read` it answers with its peak RSS (sampled every
 * 20 ms from start) and event-loop delay; stops on SIGTERM.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { startBot } from '../../src/cli/startBot.js';
import { silentLogger } from '../../src/core/index.js';
import { rssMiB, trackPeakRss } from '../support/stats.js';

const rss = trackPeakRss(20);
const bot = await startBot({
  env: process.env,
  logger: silentLogger(),
  ...(process.env.WORK_DIR ? { workDir: process.env.WORK_DIR } : {}),
  slackRateLimits: { windowMs: Number(process.env.BENCH_WINDOW_MS ?? 60_000) },
});
const loop = monitorEventLoopDelay({ resolution: 5 });
loop.enable();
process.stdout.write(`${JSON.stringify({ port: bot.port })}\n`);
process.on('message', (message) => {
  if (message === 'reset') loop.reset();
  if (message === 'rss') process.send?.({ rssMiB: rssMiB() });
  if (message === 'read') {
    process.send?.({
      peakRssMiB: rss.stop(),
      heapUsedMiB: process.memoryUsage().heapUsed / 1024 / 1024,
      loop: { p50: loop.percentile(50) / 1e6, p99: loop.percentile(99) / 1e6, max: loop.max / 1e6 },
    });
  }
});
process.once('SIGTERM', () => {
  void bot.stop().then(() => process.exit(0));
});
