import type { Command } from 'commander';
import { configSecrets, loadConfig } from '../../config/index.js';
import { createLogger } from '../../core/index.js';
import { installProcessGuards } from '../processGuards.js';
import { type RunningBot, startBot } from '../startBot.js';
import type { CliIo } from './io.js';

/** `pivotbot start`: the bot, until SIGTERM or SIGINT. */
export function registerStart(program: Command, io: CliIo): void {
  program
    .command('start')
    .description('start the Slack bot: HTTP mode on PORT, or Socket Mode when SLACK_APP_TOKEN is set')
    .action(async () => {
      // The one logger of the process, with every secret, exists before anything can fail.
      const config = loadConfig(io.env, { requireSlack: true });
      const logger = createLogger({ level: config.logLevel, secrets: configSecrets(config) });
      let bot: RunningBot | undefined;
      const removeGuards = installProcessGuards({ logger, stop: () => bot?.stop() });
      try {
        bot = await startBot({ env: io.env, logger });
        const running = bot;
        io.out(
          running.port === undefined
            ? 'pivotbot is running in Socket Mode. Stop with Ctrl-C.\n'
            : `pivotbot is listening on port ${running.port} (POST /slack/events, GET /healthz). Stop with Ctrl-C.\n`,
        );
        await new Promise<void>((resolve) => {
          const stop = (signal: string) => {
            logger.info({ signal }, 'shutting down');
            void running.stop().finally(resolve);
          };
          process.once('SIGTERM', () => stop('SIGTERM'));
          process.once('SIGINT', () => stop('SIGINT'));
        });
      } finally {
        removeGuards();
      }
    });
}
