import { type Logger as PinoLogger, pino } from 'pino';
import { errorClassName } from './wireError.js';

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

const MASK = '[redacted]';
/** Deep enough for an error's cause chain and a request's nested details; deeper is cut, not walked. */
const MAX_DEPTH = 10;

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
 * Errors are serialised (class as `type`, message, stack, `code`, `details`, every own field and
 * the whole `cause` chain) and the secrets are scrubbed in that serialised copy, so a scrubbed log
 * line keeps everything the error said except the secret itself.
 *
 * @example const log = createLogger({ level: 'info', secrets: [config.reporting.clientSecret] });
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  const secrets = (options.secrets ?? []).filter((s) => s.length >= 4);
  const clean = (value: unknown): unknown => scrubSecrets(value, secrets);
  return pino(
    {
      name: options.name ?? 'pivotbot',
      level: options.level ?? 'info',
      redact: { paths: REDACT_PATHS, censor: MASK },
      hooks: {
        logMethod(args, method) {
          // pino sets `msg` from an Error passed alone; keep that once the Error becomes plain data.
          const [first, ...rest] = args as unknown[];
          if (first instanceof Error) {
            const merged = { err: clean(first) };
            const msg = rest.length > 0 ? rest.map(clean) : [clean(first.message)];
            return method.apply(this, [merged, ...msg] as unknown as Parameters<typeof method>);
          }
          return method.apply(this, args.map(clean) as Parameters<typeof method>);
        },
      },
      // Errors reaching pino unhooked (child bindings) still get the full serialisation.
      serializers: { err: (err: unknown) => clean(err) },
    },
    maskingDestination(options.destination ?? process.stdout, secrets),
  );
}

/** Streams whose write failed (EPIPE: the pipe's reader went away), shared by every logger on them. */
const brokenSinks = new WeakMap<NodeJS.WritableStream, { broken: boolean }>();

/**
 * Logging never throws and never fails the process: a sink whose write fails (a closed pipe, a
 * destroyed stream) is marked broken and gets no more lines. Its asynchronous `error` event is
 * taken here, since unhandled it would become an uncaught exception, whose fatal log line would
 * fail again: the closed-log-pipe loop that once kept a bot at 100 % CPU (issue 35).
 */
function sinkState(destination: NodeJS.WritableStream): { broken: boolean } {
  let state = brokenSinks.get(destination);
  if (state === undefined) {
    const created = { broken: false };
    state = created;
    brokenSinks.set(destination, created);
    destination.on?.('error', () => {
      created.broken = true;
    });
  }
  return state;
}

/**
 * The last guard: child bindings and message prefixes reach the line without passing the hook, so
 * each finished line is masked too (raw and JSON-escaped forms of every secret; a token's JSON form
 * is itself, and the mask holds no character JSON escapes, so the line stays valid JSON). A sink
 * that failed is skipped (see `sinkState`).
 */
function maskingDestination(destination: NodeJS.WritableStream, secrets: readonly string[]): pino.DestinationStream {
  const forms = [...new Set(secrets.flatMap((s) => [JSON.stringify(s).slice(1, -1), s]))];
  const state = sinkState(destination);
  return {
    write: (line: string) => {
      if (state.broken || (destination as { destroyed?: boolean }).destroyed === true) return;
      try {
        destination.write(forms.length === 0 ? line : maskString(line, forms));
      } catch {
        state.broken = true;
      }
    },
  };
}

/** A logger that discards everything, for tests and library callers that pass none. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}

/**
 * Returns a copy fit for a log line: every occurrence of each secret in strings is masked (deeply,
 * in objects, arrays and errors), and every Error becomes plain data that keeps its class (`type`),
 * message, stack, own fields (`code`, `details`, …) and cause chain. A value with `toJSON` (Date,
 * URL) becomes what JSON would write for it, so a Date still reads as its ISO instant.
 *
 * @example scrubSecrets({ err }, [config.slack.botToken])
 */
export function scrubSecrets(value: unknown, secrets: readonly string[], depth = 0): unknown {
  if (typeof value === 'string') return maskString(value, secrets);
  if (value === null || typeof value !== 'object') return value;
  if (depth > MAX_DEPTH) return '[too deep]';
  if (value instanceof Error) return serializeError(value, secrets, depth);
  if (Array.isArray(value)) return value.map((v) => scrubSecrets(v, secrets, depth + 1));
  // What JSON.stringify would write for a Date or a URL (which may carry a token in its query).
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') return scrubSecrets(toJSON.call(value), secrets, depth + 1);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = scrubSecrets(v, secrets, depth + 1);
  return out;
}

function maskString(value: string, secrets: readonly string[]): string {
  let out = value;
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(MASK);
  return out;
}

/** pino's error shape (`type`, `message`, `stack`, own fields) plus the cause chain, scrubbed. */
function serializeError(error: Error, secrets: readonly string[], depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {
    type: errorClassName(error),
    message: maskString(error.message, secrets),
    stack: error.stack === undefined ? undefined : maskString(error.stack, secrets),
  };
  for (const [k, v] of Object.entries(error)) {
    if (k !== 'message' && k !== 'stack') out[k] = scrubSecrets(v, secrets, depth + 1);
  }
  if (error.cause !== undefined) out.cause = scrubSecrets(error.cause, secrets, depth + 1);
  if (error instanceof AggregateError) out.errors = scrubSecrets(error.errors, secrets, depth + 1);
  return out;
}
