import type { Logger as BoltLogger, LogLevel as BoltLogLevel } from '@slack/bolt';
import bolt from '@slack/bolt';
import { type Logger, scrubSecrets } from '../core/index.js';

const { LogLevel } = bolt;

/** Bolt's logger interface over our pino logger, so the SDK's lines are structured and scrubbed too. */
export function boltLogger(logger: Logger, secrets: readonly string[]): BoltLogger {
  const child = logger.child({ component: 'bolt' });
  let level: BoltLogLevel = LogLevel.INFO;
  const text = (msg: unknown[]) =>
    msg.map((m) => (typeof m === 'string' ? m : JSON.stringify(scrubSecrets(m, secrets)))).join(' ');
  return {
    debug: (...msg: unknown[]) => child.debug(text(msg)),
    info: (...msg: unknown[]) => child.info(text(msg)),
    warn: (...msg: unknown[]) => child.warn(text(msg)),
    error: (...msg: unknown[]) => child.error(text(msg)),
    setLevel: (next: BoltLogLevel) => {
      level = next;
    },
    getLevel: () => level,
    setName: () => {},
  };
}
