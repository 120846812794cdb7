import type { Logger as BoltLogger, LogLevel as BoltLogLevel } from '@slack/web-api';
import webApi from '@slack/web-api';
import { type Logger, scrubSecrets } from '../../core/index.js';

const { LogLevel } = webApi;

/** Where Bolt's log lines go: already flattened to text and scrubbed of secrets. */
export type BoltLogSink = (level: 'debug' | 'info' | 'warn' | 'error', text: string) => void;

/** pino's level numbers: a line passes when its level is at least the logger's. */
const LEVELS: Record<string, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 };

/**
 * Bolt's logger interface over a sink (the receiver thread forwards its lines to the bot's logger).
 * Lines below `minLevel` (a pino level name) are dropped before they are formatted: Bolt logs
 * several debug lines per request, and formatting or forwarding them would cost every ack.
 */
export function boltLoggerFor(sink: BoltLogSink, secrets: readonly string[], minLevel = 'info'): BoltLogger {
  let level: BoltLogLevel = LogLevel.INFO;
  const min = LEVELS[minLevel] ?? Number.POSITIVE_INFINITY;
  const text = (msg: unknown[]) =>
    msg.map((m) => (typeof m === 'string' ? m : JSON.stringify(scrubSecrets(m, secrets)))).join(' ');
  const line = (name: 'debug' | 'info' | 'warn' | 'error') =>
    (LEVELS[name] as number) < min ? () => {} : (...msg: unknown[]) => sink(name, text(msg));
  return {
    debug: line('debug'),
    info: line('info'),
    warn: line('warn'),
    error: line('error'),
    setLevel: (next: BoltLogLevel) => {
      level = next;
    },
    getLevel: () => level,
    setName: () => {},
  };
}

/** The sink that writes Bolt's lines to our pino logger, structured (`component: bolt`) and scrubbed. */
export function boltLogSink(logger: Logger): BoltLogSink {
  const child = logger.child({ component: 'bolt' });
  return (level, text) => child[level](text);
}

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

/** Bolt's logger interface over our pino logger. */
export function boltLogger(logger: Logger, secrets: readonly string[]): BoltLogger {
  return boltLoggerFor(boltLogSink(logger), secrets, logger.level);
}
