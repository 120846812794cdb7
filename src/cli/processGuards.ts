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
  /**
   * The process's output streams, whose write errors (EPIPE once a supervisor's pipe closed) are
   * taken here instead of becoming uncaught exceptions. Default stdout and stderr when `target` is
   * `process`, none otherwise.
   */
  streams?: readonly NodeJS.EventEmitter[];
}

/** Exit code after an uncaught exception: the supervisor (systemd, Heroku) restarts the bot. */
export const UNCAUGHT_EXIT_CODE = 1;

/** Exceptions logged while stopping after the first one; more are counted, not logged. */
const LOGGED_WHILE_DYING = 3;

/** Logs, and swallows whatever the logger throws: the failure path must not fail on its log line. */
function safely(log: () => void): void {
  try {
    log();
  } catch {
    // A broken sink: nothing else can be told.
  }
}

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
  const streams: readonly NodeJS.EventEmitter[] =
    options.streams ?? (target === process ? [process.stdout, process.stderr] : []);
  let dying = false;
  let laterExceptions = 0;

  const onRejection = (reason: unknown) => {
    safely(() => logger.error({ err: reason }, 'unhandled promise rejection (the bot keeps running)'));
  };
  const onException = (error: unknown) => {
    if (dying) {
      laterExceptions += 1;
      if (laterExceptions <= LOGGED_WHILE_DYING)
        safely(() => logger.fatal({ err: error }, 'uncaught exception while stopping after an earlier one'));
      return;
    }
    dying = true;
    let exited = false;
    const exitOnce = () => {
      if (exited) return;
      exited = true;
      exit(UNCAUGHT_EXIT_CODE);
    };
    // The exit is armed before anything else runs: it fires whatever the logger or the stop do.
    const cancel = exitAfter(graceMs, () => {
      safely(() => logger.error({ graceMs }, 'the bot did not stop within the grace period; exiting anyway'));
      exitOnce();
    });
    safely(() => logger.fatal({ err: error, graceMs }, 'uncaught exception: stopping the bot, then exiting'));
    void Promise.resolve()
      .then(options.stop)
      .catch((stopError: unknown) =>
        safely(() => logger.error({ err: stopError }, 'stopping after an uncaught exception failed')),
      )
      .finally(() => {
        cancel();
        exitOnce();
      });
  };
  // A write error on stdout or stderr is the log sink failing, not the bot: never a crash.
  const onStreamError = () => undefined;
  target.on('unhandledRejection', onRejection);
  target.on('uncaughtException', onException);
  for (const stream of streams) stream.on('error', onStreamError);
  return () => {
    target.off('unhandledRejection', onRejection);
    target.off('uncaughtException', onException);
    for (const stream of streams) stream.off('error', onStreamError);
  };
}

/**
 * Calls `exit` after `ms` unless cancelled (the returned function): the backstop of a stop that
 * may hang. The timer keeps the process alive until it fires or is cancelled, so a stop that hangs
 * on nothing still ends in `exit`.
 *
 * @example const cancel = exitAfter(30_000, () => process.exit(1)); await bot.stop(); cancel();
 */
export function exitAfter(ms: number, exit: () => void): () => void {
  const timer = setTimeout(exit, ms);
  return () => clearTimeout(timer);
}
