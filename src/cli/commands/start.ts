import type { Command } from 'commander';
import { configSecrets, loadConfig } from '../../config/index.js';
import { createLogger } from '../../core/index.js';
import { exitAfter, installProcessGuards } from '../processGuards.js';
import { type RunningBot, startBot } from '../startBot.js';
import type { CliIo } from './io.js';

/** How long a stop on SIGTERM or SIGINT may take before the process exits anyway (code 1). */
const STOP_DEADLINE_MS = 25_000;

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
      // Signals are caught before anything starts: one that arrives during start-up stops the bot
      // as soon as it is up, and none arrives between "listening" and its handler.
      let stopRequested: ((signal: string) => void) | undefined;
      const signalled = new Promise<string>((resolve) => {
        stopRequested = resolve;
      });
      const onSigterm = () => stopRequested?.('SIGTERM');
      const onSigint = () => stopRequested?.('SIGINT');
      process.once('SIGTERM', onSigterm);
      process.once('SIGINT', onSigint);
      try {
        bot = await startBot({ env: io.env, logger });
        const running = bot;
        io.out(
          running.config.slack?.appToken !== undefined
            ? `pivotbot is running in Socket Mode (GET /healthz on port ${running.port}). Stop with Ctrl-C.\n`
            : `pivotbot is listening on port ${running.port} (POST /slack/events, GET /healthz). Stop with Ctrl-C.\n`,
        );
        const signal = await signalled;
        logger.info({ signal }, 'shutting down');
        // A stop that hangs (or a second signal: the operator insists) ends the process anyway,
        // before the platform's SIGKILL (Heroku's comes 30 s after SIGTERM).
        const cancel = exitAfter(STOP_DEADLINE_MS, () => {
          try {
            logger.error({ ms: STOP_DEADLINE_MS }, 'the bot did not stop in time; exiting anyway');
          } finally {
            process.exit(1);
          }
        });
        const insist = () => process.exit(1);
        process.once('SIGTERM', insist);
        process.once('SIGINT', insist);
        try {
          await running.stop();
        } finally {
          cancel();
          process.off('SIGTERM', insist);
          process.off('SIGINT', insist);
        }
      } finally {
        process.off('SIGTERM', onSigterm);
        process.off('SIGINT', onSigint);
        removeGuards();
      }
    });
}
