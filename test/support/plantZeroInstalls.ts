/**
 * The planted anomaly "installs stop while spend goes on" for one publisher app (siteBundle), on
 * the sandbox's running data: its install rows of the given UTC days are deleted, its delivery
 * (spend, impressions) is left as it is.
 *
 * Written against `sandbox.sql` because this branch's sandbox has no `plants` yet. Once it has,
 * this becomes `sandbox.replacePlants([{ where: { siteBundle }, metric: 'installs', factor: 0, days }])`
 * and the callers stay as they are.
 */
import type { RunningSandbox } from '../../src/sandbox/index.js';

const DAY_MS = 86_400_000;

/**
 * Sets `siteBundle`'s installs to zero on each of the `days` UTC days before `now` (1 = yesterday).
 * Returns how many install rows were removed (more than 0, or it throws: nothing was planted).
 *
 * @example await plantZeroInstalls(sandbox, 'com.pub0.app', new Date(), 2) // yesterday and the day before
 */
export async function plantZeroInstalls(
  sandbox: RunningSandbox,
  siteBundle: string,
  now: Date,
  days = 1,
): Promise<number> {
  if (!/^[\w.-]+$/.test(siteBundle)) throw new Error(`not a bundle id: ${siteBundle}`);
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const from = new Date(today - days * DAY_MS).toISOString().slice(0, 10);
  const to = new Date(today).toISOString().slice(0, 10);
  const where = `kind = 1 AND ts >= TIMESTAMPTZ '${from} 00:00:00+00' AND ts < TIMESTAMPTZ '${to} 00:00:00+00'
    AND site_id IN (SELECT site_id FROM sites WHERE bundle = '${siteBundle}')`;
  const [counted] = await sandbox.sql(`SELECT count(*) AS n FROM facts WHERE ${where}`);
  const removed = Number(counted?.n ?? 0);
  if (removed === 0) throw new Error(`${siteBundle} has no install rows between ${from} and ${to} to remove`);
  await sandbox.sql(`DELETE FROM facts WHERE ${where}`);
  return removed;
}
