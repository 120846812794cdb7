import { Writable } from 'node:stream';
import { type Config, configSecrets } from '../config/index.js';
import { createLogger, type Logger } from '../core/index.js';
import type { BotMetrics } from '../metrics/index.js';
import { ReportingClient } from '../reporting/index.js';

export interface OpenedReporting {
  client: ReportingClient;
  /** Stops the embedded sandbox when one was started; nothing to do for a remote service. */
  close(): Promise<void>;
  sandbox: boolean;
}

/**
 * A Reporting Service client for the CLI: the configured remote service, or (with no REPORTING_*
 * variables) the embedded sandbox started in-process on a free port. The sandbox module (DuckDB)
 * is loaded only when it is needed.
 *
 * @example const { client, close } = await openReporting(config, logger); try { … } finally { await close(); }
 */
export async function openReporting(config: Config, logger: Logger, metrics?: BotMetrics): Promise<OpenedReporting> {
  const reporting = config.reporting;
  if (reporting.kind === 'remote')
    return { client: clientFor(reporting, logger, metrics), close: async () => {}, sandbox: false };
  const { startSandbox } = await import('../sandbox/index.js');
  const sandbox = await startSandbox({ port: 0, scale: 'small', logger });
  return { client: clientFor(sandbox, logger, metrics), close: () => sandbox.stop(), sandbox: true };
}

/** A client for a Reporting Service endpoint: a configured one or a running sandbox. */
export function clientFor(
  endpoint: { authUrl: string; graphqlUrl: string; clientId: string; clientSecret: string },
  logger: Logger,
  metrics?: BotMetrics,
): ReportingClient {
  const { authUrl, graphqlUrl, clientId, clientSecret } = endpoint;
  return new ReportingClient({ authUrl, graphqlUrl, clientId, clientSecret, logger, ...(metrics ? { metrics } : {}) });
}

/**
 * The logger of one-shot commands: JSON lines on stderr (stdout holds the table), at LOG_LEVEL
 * when it is set and `warn` otherwise, with the configuration's secrets scrubbed.
 */
export function cliLogger(config: Config, io: { err: (text: string) => void; env: NodeJS.ProcessEnv }): Logger {
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      io.err(chunk.toString());
      callback();
    },
  });
  return createLogger({
    level: io.env.LOG_LEVEL ? config.logLevel : 'warn',
    secrets: configSecrets(config),
    destination,
  });
}
