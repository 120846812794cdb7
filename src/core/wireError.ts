/**
 * An error as plain data, to cross a thread or process boundary whole (worker `postMessage` keeps
 * an Error's message but drops its class, code and fields): what the log needs to say which error
 * it was.
 */
export interface WireError {
  /** The error's class (`SlackDeliveryError`, `TypeError`…). */
  name: string;
  message: string;
  code?: string;
  stack?: string;
  /** `PivotbotError.details`: machine-readable specifics, never secrets. */
  details?: Record<string, unknown>;
  cause?: WireError;
}

/** Deep enough for any cause chain we build; a longer (or circular) one is cut here. */
const MAX_CAUSES = 8;

/**
 * Turns anything thrown into a `WireError`: class, message, code, stack, details and the cause
 * chain.
 *
 * @example port.postMessage({ type: 'failed', error: toWireError(error) });
 */
export function toWireError(value: unknown, depth = 0): WireError {
  if (!(value instanceof Error)) return { name: 'NonError', message: String(value) };
  const wire: WireError = { name: errorClassName(value), message: value.message };
  const { code, details } = value as { code?: unknown; details?: unknown };
  if (typeof code === 'string' || typeof code === 'number') wire.code = String(code);
  if (value.stack !== undefined) wire.stack = value.stack;
  if (details !== null && typeof details === 'object') {
    // Only what a structured clone keeps (plain data), so postMessage never throws on it.
    wire.details = JSON.parse(JSON.stringify(details)) as Record<string, unknown>;
  }
  if (value.cause !== undefined && depth < MAX_CAUSES) wire.cause = toWireError(value.cause, depth + 1);
  return wire;
}

/**
 * The error again on the receiving side: an `Error` named after the original class, with its
 * code, details, stack and cause chain, so a log line shows it as the sender's log would.
 *
 * @example worker.on('message', (m) => m.type === 'failed' && reject(fromWireError(m.error)));
 */
export function fromWireError(wire: WireError): Error {
  const error = new Error(wire.message, wire.cause ? { cause: fromWireError(wire.cause) } : undefined);
  error.name = wire.name;
  if (wire.stack !== undefined) error.stack = wire.stack;
  if (wire.code !== undefined) Object.assign(error, { code: wire.code });
  if (wire.details !== undefined) Object.assign(error, { details: wire.details });
  return error;
}

/**
 * The class an error is logged under: its constructor's name, or its `name` for a plain `Error`
 * that was given one (an error revived by `fromWireError`, a library's `AbortError`).
 */
export function errorClassName(error: Error): string {
  const ctor = error.constructor?.name;
  if (!ctor || ctor === 'Object' || (ctor === 'Error' && error.name && error.name !== 'Error'))
    return error.name || 'Error';
  return ctor;
}
