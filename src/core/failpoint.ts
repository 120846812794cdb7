/**
 * Crash points for tests: a test process sets `PIVOTBOT_FAILPOINT` and the bot dies exactly where
 * a crash matters (a post made, its record not yet written), instead of the test racing a SIGKILL
 * against the bot's log lines.
 */

/**
 * Crash points for tests: PIVOTBOT_FAILPOINT="<name>:exit" (comma-separated list) makes the process
 * kill itself with SIGKILL the moment `failpoint(name)` is reached. No-op when unset.
 *
 * A SIGKILL, not `process.exit`: a crash runs no exit handlers and no teardown, and node's own
 * teardown can deadlock (nodejs/node#54918: the main thread joins V8's compiler threads while one
 * of them waits for a garbage collection on the main thread). The crash test saw two bots of 37
 * hang in `process.exit` at this very point; a killed process cannot.
 *
 * The variable is read at each call, so a test can set it for one child process and not another.
 * `exit` is the only action; an entry with another action, or none, does nothing.
 *
 * @example failpoint('alert-parent-posted'); // PIVOTBOT_FAILPOINT=alert-parent-posted:exit ends the process here
 */
export function failpoint(
  name: string,
  kill: (pid: number, signal: 'SIGKILL') => unknown = (pid, signal) => process.kill(pid, signal),
): void {
  const spec = process.env.PIVOTBOT_FAILPOINT;
  if (!spec) return;
  for (const entry of spec.split(',')) {
    const at = entry.lastIndexOf(':');
    if (at < 0) continue;
    if (entry.slice(0, at).trim() === name && entry.slice(at + 1).trim() === 'exit') {
      kill(process.pid, 'SIGKILL');
    }
  }
}
