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
  /** Its other own fields (`details`, `retryable`, `slackError`, a numeric `code`…), as plain data. */
  fields?: Record<string, unknown>;
  cause?: WireError;
}

/** Deep enough for any cause chain we build; a longer (or circular) one is cut here. */
const MAX_CAUSES = 8;

/**
 * Turns anything thrown into a `WireError`: class, message, code, stack, own fields and the cause
 * chain.
 *
 * @example port.postMessage({ type: 'failed', error: toWireError(error) });
 */
export function toWireError(value: unknown, depth = 0): WireError {
  if (!(value instanceof Error)) return { name: 'NonError', message: String(value) };
  const wire: WireError = { name: errorClassName(value), message: value.message };
  const { code } = value as { code?: unknown };
  if (typeof code === 'string') wire.code = code;
  if (value.stack !== undefined) wire.stack = value.stack;
  const fields = plainFields(value);
  if (fields) wire.fields = fields;
  if (value.cause !== undefined && depth < MAX_CAUSES) wire.cause = toWireError(value.cause, depth + 1);
  return wire;
}

/**
 * The error again on the receiving side: an `Error` named after the original class, with its
 * code, fields, stack and cause chain, so a log line shows it as the sender's log would.
 *
 * @example worker.on('message', (m) => m.type === 'failed' && reject(fromWireError(m.error)));
 */
export function fromWireError(wire: WireError): Error {
  const error = new Error(wire.message, wire.cause ? { cause: fromWireError(wire.cause) } : undefined);
  // Named as its class, the way that class names it (an own field for ours, the prototype's for
  // TypeError), so the log line reads the same on both sides.
  if (wire.fields?.name === undefined)
    Object.defineProperty(error, 'name', { value: wire.name, writable: true, configurable: true });
  if (wire.stack !== undefined) error.stack = wire.stack;
  if (wire.code !== undefined) Object.assign(error, { code: wire.code });
  if (wire.fields) Object.assign(error, wire.fields);
  return error;
}

/** The own fields a structured clone can carry (as JSON has them); one that cannot is left out. */
function plainFields(error: Error): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(error)) {
    if ((key === 'code' && typeof value === 'string') || key === 'message' || key === 'stack' || key === 'cause')
      continue;
    try {
      const json = JSON.stringify(value);
      if (json !== undefined) out[key] = JSON.parse(json) as unknown;
    } catch {
      // A BigInt or a circular object: the log line goes without it rather than the error.
    }
  }
  return Object.keys(out).length > 0 ? out : undefined;
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
