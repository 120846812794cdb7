/** Small helpers for the plain HTTP requests next to the Web API (response_url, upload URLs). */

/** `signal`, or a signal that also aborts after `ms`. */
export function withTimeout(ms: number, signal: AbortSignal | undefined): AbortSignal {
  const timeout = AbortSignal.timeout(ms);
  return signal ? AbortSignal.any([timeout, signal]) : timeout;
}

/** Reads a small answer's body to its end, so its connection goes back to the pool. */
export async function drain(response: Response): Promise<void> {
  await response.arrayBuffer().catch(() => undefined);
}
