/**
 * Waiting for an event instead of sleeping: polls `check` (every 25 ms) until it holds, and fails
 * after `timeoutMs` (generous by default: a busy machine is slow, not wrong) with a message naming
 * what was awaited.
 *
 * @example await eventually('the digest for 12:00 in #general', () => digests().length === 1);
 */
export async function eventually(
  what: string,
  check: () => boolean | Promise<boolean>,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
