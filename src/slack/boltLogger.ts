import type { Logger as BoltLogger, LogLevel as BoltLogLevel } from '@slack/bolt';
import bolt from '@slack/bolt';
import { type Logger, scrubSecrets } from '../core/index.js';

const { LogLevel } = bolt;

/** Where Bolt's log lines go: already flattened to text and scrubbed of secrets. */
export type BoltLogSink = (level: 'debug' | 'info' | 'warn' | 'error', text: string) => void;

/** Bolt's logger interface over a sink (the receiver thread forwards its lines to the bot's logger). */
export function boltLoggerFor(sink: BoltLogSink, secrets: readonly string[]): BoltLogger {
  let level: BoltLogLevel = LogLevel.INFO;
  const text = (msg: unknown[]) =>
    msg.map((m) => (typeof m === 'string' ? m : JSON.stringify(scrubSecrets(m, secrets)))).join(' ');
  return {
    debug: (...msg: unknown[]) => sink('debug', text(msg)),
    info: (...msg: unknown[]) => sink('info', text(msg)),
    warn: (...msg: unknown[]) => sink('warn', text(msg)),
    error: (...msg: unknown[]) => sink('error', text(msg)),
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

/** Bolt's logger interface over our pino logger. */
export function boltLogger(logger: Logger, secrets: readonly string[]): BoltLogger {
  return boltLoggerFor(boltLogSink(logger), secrets);
}
