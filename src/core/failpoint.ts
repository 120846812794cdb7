/** Crash points for tests: PIVOTBOT_FAILPOINT="<name>:exit" (comma-separated list) makes the process exit(137) immediately when `failpoint(name)` is reached. No-op when unset. */
export function failpoint(name: string): void {
  const points = process.env.PIVOTBOT_FAILPOINT;
  if (points === undefined || points === '') return;
  if (points.split(',').some((point) => point.trim() === `${name}:exit`)) process.exit(137);
}
