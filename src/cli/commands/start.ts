import type { Command } from 'commander';
import { createLogger, toError } from '../../core/index.js';
import { startBot } from '../startBot.js';
import type { CliIo } from './io.js';

/** `pivotbot start`: the bot, until SIGTERM or SIGINT. */
export function registerStart(program: Command, io: CliIo): void {
  program
    .command('start')
    .description('start the Slack bot: HTTP mode on PORT, or Socket Mode when SLACK_APP_TOKEN is set')
    .action(async () => {
      const bot = await startBot({ env: io.env });
      const logger = createLogger({ level: bot.config.logLevel, name: 'pivotbot' });
      const onRejection = (reason: unknown) => logger.error({ err: toError(reason) }, 'unhandled rejection (ignored)');
      process.on('unhandledRejection', onRejection);
      io.out(
        bot.port === undefined
          ? 'pivotbot is running in Socket Mode. Stop with Ctrl-C.\n'
          : `pivotbot is listening on port ${bot.port} (POST /slack/events, GET /healthz). Stop with Ctrl-C.\n`,
      );
      await new Promise<void>((resolve) => {
        const stop = (signal: string) => {
          logger.info({ signal }, 'shutting down');
          void bot.stop().finally(resolve);
        };
        process.once('SIGTERM', () => stop('SIGTERM'));
        process.once('SIGINT', () => stop('SIGINT'));
      });
      process.off('unhandledRejection', onRejection);
    });
}
