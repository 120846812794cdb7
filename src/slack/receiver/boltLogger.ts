import type { Logger } from '../../core/index.js';
import { type LogSink, pinoLogSink, webClientLoggerFor } from '../../slackapi/index.js';

/** Where Bolt's log lines go: already flattened to text and scrubbed of secrets. */
export type BoltLogSink = LogSink;

/**
 * Bolt's logger interface over a sink (the receiver thread forwards its lines to the bot's logger);
 * Bolt's interface is the WebClient's, so this is `webClientLoggerFor`.
 */
export const boltLoggerFor = webClientLoggerFor;

/** The sink that writes Bolt's lines to our pino logger, structured (`component: bolt`) and scrubbed. */
export const boltLogSink = pinoLogSink;

/**
 * Where the receiver's log lines and caught errors go: Bolt's lines as `boltLogSink`, errors whole
 * (class, code, cause; revived when they come from the receiver thread).
 *
 * @example startReceiver(settings, { ...receiverLogSinks(logger), event, submit, health });
 */
export function receiverLogSinks(logger: Logger): { log: BoltLogSink; error: (what: string, error: unknown) => void } {
  return {
    log: boltLogSink(logger),
    error: (what, error) => logger.error({ err: error, component: 'receiver' }, what),
  };
}
