/**
 * Crash points for tests: a test process sets `PIVOTBOT_FAILPOINT` and the bot dies exactly where
 * a crash matters (a post made, its record not yet written), instead of the test racing a SIGKILL
 * against the bot's log lines.
 */

/** The exit code of a failpoint's exit: 128 + 9, what a shell reports for a SIGKILLed process. */
const FAILPOINT_EXIT_CODE = 137;

/**
 * Crash points for tests: PIVOTBOT_FAILPOINT="<name>:exit" (comma-separated list) makes the process
 * exit(137) immediately when `failpoint(name)` is reached. No-op when unset.
 *
 * The variable is read at each call, so a test can set it for one child process and not another.
 * `exit` is the only action; an entry with another action, or none, does nothing.
 *
 * @example failpoint('alert-parent-posted'); // PIVOTBOT_FAILPOINT=alert-parent-posted:exit ends the process here
 */
export function failpoint(name: string): void {
  const spec = process.env.PIVOTBOT_FAILPOINT;
  if (!spec) return;
  for (const entry of spec.split(',')) {
    const at = entry.lastIndexOf(':');
    if (at < 0) continue;
    if (entry.slice(0, at).trim() === name && entry.slice(at + 1).trim() === 'exit') {
      process.exit(FAILPOINT_EXIT_CODE);
    }
  }
}
