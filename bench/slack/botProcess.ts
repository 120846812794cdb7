/**
 * The bot under bench/slack, in its own process as in production: configured from the
 * environment, it prints `{"port":N}` when listening and stops on SIGTERM.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { startBot } from '../../src/cli/startBot.js';
import { silentLogger } from '../../src/core/index.js';

const bot = await startBot({
  env: process.env,
  logger: silentLogger(),
  ...(process.env.WORK_DIR ? { workDir: process.env.WORK_DIR } : {}),
  ...(process.env.BENCH_CONCURRENCY ? { concurrency: Number(process.env.BENCH_CONCURRENCY) } : {}),
  // --modal, --events: Slack's per-minute limits over this many ms instead (1000: sixty times
  // faster; --events uses 100), so the bot's own latency is measured rather than Slack's pacing.
  ...(process.env.BENCH_SLACK_WINDOW_MS
    ? { slackRateLimits: { windowMs: Number(process.env.BENCH_SLACK_WINDOW_MS) } }
    : {}),
  // --receivers: BENCH_RECEIVER_THREAD=0 receives Slack inline, on the bot's thread; 1 (and unset) in the worker thread.
  ...(process.env.BENCH_RECEIVER_THREAD === '0' ? { receiverThread: false as const } : {}),
});
const loop = monitorEventLoopDelay({ resolution: 5 });
process.stdout.write(`${JSON.stringify({ port: bot.port })}\n`);
// The bench resets and reads the bot's event-loop delay around its measured phase.
process.on('message', (message) => {
  if (message === 'reset') loop.reset();
  if (message === 'read')
    process.send?.({ p50: loop.percentile(50) / 1e6, p99: loop.percentile(99) / 1e6, max: loop.max / 1e6 });
});
loop.enable();
process.once('SIGTERM', () => {
  void bot.stop().then(() => process.exit(0));
});
