/**
 * The environment of a pivotbot process a test starts: PATH, `PIVOTBOT_ENV_FILE=none` (the CLI
 * would otherwise read a `.env` in its working folder — a developer's own, in the repository root,
 * would change the run on that machine only), then the test's own values.
 *
 * @example spawn(process.execPath, ['bin/pivotbot.js', 'start'], { env: botEnv({ PORT: '0' }) });
 */
export function botEnv(values: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, PIVOTBOT_ENV_FILE: 'none', ...values };
}
