import type { Logger } from '../core/index.js';

export interface ProcessGuardOptions {
  logger: Logger;
  /** Stops the bot; returns undefined while there is no bot yet (start-up still under way). */
  stop: () => Promise<void> | undefined;
  /** How long an uncaught exception leaves the bot to stop before the process exits anyway. Default 10 s. */
  graceMs?: number;
  /** Ends the process; tests pass a spy. Default `process.exit`. */
  exit?: (code: number) => void;
  /** Where the events come from; tests pass an EventEmitter. Default `process`. */
  target?: NodeJS.EventEmitter;
}

/** Exit code after an uncaught exception: the supervisor (systemd, Heroku) restarts the bot. */
export const UNCAUGHT_EXIT_CODE = 1;

/**
 * The process-wide failure policy of `pivotbot start`, installed before anything starts so start-up
 * is covered too. An unhandled rejection is logged (with the whole error) and the bot keeps serving:
 * it is one request's bug, and node's default would crash every other user's run. An uncaught
 * exception leaves the process in an unknown state: it is logged as fatal, the bot gets `graceMs` to
 * stop (finish acks, close the store), and the process exits with a non-zero code.
 *
 * @example const remove = installProcessGuards({ logger, stop: () => bot?.stop() }); … remove();
 */
export function installProcessGuards(options: ProcessGuardOptions): () => void {
  const { logger } = options;
  const target = options.target ?? process;
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const graceMs = options.graceMs ?? 10_000;
  let dying = false;

  const onRejection = (reason: unknown) => {
    logger.error({ err: reason }, 'unhandled promise rejection (the bot keeps running)');
  };
  const onException = (error: unknown) => {
    if (dying) {
      logger.fatal({ err: error }, 'uncaught exception while stopping after an earlier one');
      return;
    }
    dying = true;
    logger.fatal({ err: error, graceMs }, 'uncaught exception: stopping the bot, then exiting');
    void stopWithin(options.stop, graceMs, logger).finally(() => exit(UNCAUGHT_EXIT_CODE));
  };
  target.on('unhandledRejection', onRejection);
  target.on('uncaughtException', onException);
  return () => {
    target.off('unhandledRejection', onRejection);
    target.off('uncaughtException', onException);
  };
}

async function stopWithin(stop: () => Promise<void> | undefined, graceMs: number, logger: Logger): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const grace = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), graceMs);
  });
  try {
    const stopping = Promise.resolve()
      .then(stop)
      .catch((error: unknown) => logger.error({ err: error }, 'stopping after an uncaught exception failed'));
    if ((await Promise.race([stopping, grace])) === 'late') {
      logger.error({ graceMs }, 'the bot did not stop within the grace period; exiting anyway');
    }
  } finally {
    clearTimeout(timer);
  }
}
