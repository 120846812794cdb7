import type { Logger as WebClientLogger, LogLevel as WebClientLogLevel } from '@slack/web-api';
import webApi from '@slack/web-api';
import { type Logger, scrubSecrets } from '../core/index.js';

const { LogLevel } = webApi;

/** Where the Slack SDKs' log lines go: already flattened to text and scrubbed of secrets. */
export type LogSink = (level: 'debug' | 'info' | 'warn' | 'error', text: string) => void;

/** pino's level numbers: a line passes when its level is at least the logger's. */
const LEVELS: Record<string, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 };

/**
 * The Slack SDKs' logger interface (WebClient's, and Bolt's, which is the same) over a sink.
 * Lines below `minLevel` (a pino level name) are dropped before they are formatted: Bolt logs
 * several debug lines per request, and formatting or forwarding them would cost every ack.
 *
 * @example new WebClient(token, { logger: webClientLoggerFor(pinoLogSink(logger), secrets, 'info') })
 */
export function webClientLoggerFor(sink: LogSink, secrets: readonly string[], minLevel = 'info'): WebClientLogger {
  let level: WebClientLogLevel = LogLevel.INFO;
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
    setLevel: (next: WebClientLogLevel) => {
      level = next;
    },
    getLevel: () => level,
    setName: () => {},
  };
}

/** The sink that writes the SDKs' lines to our pino logger, structured (`component: bolt`) and scrubbed. */
export function pinoLogSink(logger: Logger): LogSink {
  const child = logger.child({ component: 'bolt' });
  return (level, text) => child[level](text);
}

/** The WebClient's logger over our pino logger. */
export function webClientLogger(logger: Logger, secrets: readonly string[]): WebClientLogger {
  return webClientLoggerFor(pinoLogSink(logger), secrets, logger.level);
}
