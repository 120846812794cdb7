/**
 * bench/explain: the explanation engine. The leaf-CSV source's time per explanation on a
 * 20,000-leaf table, and planted causes found on synthetic leaf tables (bench/explain/leafTable.ts);
 * planted causes on the medium sandbox through the Reporting Service, with queries and latency
 * (bench/explain/plantedCauses.ts).
 * Plants are drawn by today's sampler (randomPlants) and, side by side, by the uniform one.
 * Run: npm run build && node --expose-gc dist/bench/run.js explain [--only=leaves|sandbox]
 *   [--plants=225] [--seed=7] [--noise-days=14] [--now=2026-11-25T12:00:00Z]
 */
import { runLeafTable } from './leafTable.js';
import { runPlantedCauses, TODAYS_DRAW } from './plantedCauses.js';

export async function run(args: readonly string[]): Promise<void> {
  const only = args.find((a) => a.startsWith('--only='))?.slice(7);
  if (only !== undefined && only !== 'leaves' && only !== 'sandbox')
    throw new Error(`bench/explain: --only=${only}: expected leaves or sandbox`);
  if (only !== 'sandbox') await runLeafTable();
  if (only !== 'leaves') await runPlantedCauses(args, [TODAYS_DRAW]);
}
