/**
 * The bot under bench/slack, in its own process as in production: configured from the
 * environment, it prints `{"port":N}` when listening and stops on SIGTERM.
 */
import { startBot } from '../../src/cli/startBot.js';
import { silentLogger } from '../../src/core/index.js';

const bot = await startBot({
  env: process.env,
  logger: silentLogger(),
  ...(process.env.WORK_DIR ? { workDir: process.env.WORK_DIR } : {}),
});
process.stdout.write(`${JSON.stringify({ port: bot.port })}\n`);
process.once('SIGTERM', () => {
  void bot.stop().then(() => process.exit(0));
});
