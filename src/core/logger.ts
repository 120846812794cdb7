import { type Logger as PinoLogger, pino } from 'pino';

/** The logger every component takes: pino's API (structured JSON lines). */
export type Logger = PinoLogger;

/** Keys whose values are secret wherever they appear in a log object. */
const REDACT_PATHS = [
  'token',
  'accessToken',
  'access_token',
  'clientSecret',
  'client_secret',
  'signingSecret',
  'botToken',
  'appToken',
  'password',
  'authorization',
  'Authorization',
  '*.token',
  '*.accessToken',
  '*.access_token',
  '*.clientSecret',
  '*.client_secret',
  '*.signingSecret',
  '*.botToken',
  '*.appToken',
  '*.password',
  '*.authorization',
  '*.Authorization',
  'headers.authorization',
  'req.headers.authorization',
  'req.headers.cookie',
];

export interface LoggerOptions {
  level?: string;
  /** Secret values (tokens, client secrets) to scrub from every string that is logged. */
  secrets?: readonly string[];
  /** Where lines go; defaults to stdout. Tests pass a stream to read what was logged. */
  destination?: NodeJS.WritableStream;
  name?: string;
}

/**
 * Creates a structured JSON logger that never prints a secret: known secret keys are redacted,
 * and any registered secret value is masked wherever it appears in a message or field.
 *
 * @example const log = createLogger({ level: 'info', secrets: [config.reporting.clientSecret] });
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  const secrets = (options.secrets ?? []).filter((s) => s.length >= 4);
  const scrub = (value: unknown): unknown => scrubSecrets(value, secrets);
  return pino(
    {
      name: options.name ?? 'pivotbot',
      level: options.level ?? 'info',
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      hooks: {
        logMethod(args, method) {
          if (secrets.length === 0) return method.apply(this, args);
          const cleaned = args.map(scrub) as Parameters<typeof method>;
          return method.apply(this, cleaned);
        },
      },
      serializers: { err: (err: unknown) => scrub(pino.stdSerializers.err(err as Error)) },
    },
    (options.destination ?? process.stdout) as pino.DestinationStream,
  );
}

/** A logger that discards everything, for tests and library callers that pass none. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}

/** Replaces every occurrence of each secret in strings (deeply, in objects and arrays) with a mask. */
export function scrubSecrets(value: unknown, secrets: readonly string[], depth = 0): unknown {
  if (secrets.length === 0 || depth > 8) return value;
  if (typeof value === 'string') {
    let out = value;
    for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join('[redacted]');
    return out;
  }
  if (Array.isArray(value)) return value.map((v) => scrubSecrets(v, secrets, depth + 1));
  if (value instanceof Error) {
    const copy = new Error(scrubSecrets(value.message, secrets) as string);
    copy.name = value.name;
    copy.stack = scrubSecrets(value.stack, secrets) as string;
    return copy;
  }
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = scrubSecrets(v, secrets, depth + 1);
    return out;
  }
  return value;
}
