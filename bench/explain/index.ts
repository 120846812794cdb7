/**
 * bench/explain: the explanation engine. The leaf-CSV source's time per explanation on a
 * 20,000-leaf table, and planted causes found on synthetic leaf tables (bench/explain/leafTable.ts);
 * planted causes on the medium sandbox through the Reporting Service, with queries and latency
 * (bench/explain/plantedCauses.ts).
 * Plants are drawn by today's sampler (randomPlants) and, side by side, by the uniform one.
 * Run: npm run build && node --expose-gc dist/bench/run.js explain [--only=leaves|sandbox]
 *   [--plants=225] [--draw=today|uniform] [--seed=7] [--noise-days=14] [--now=2026-11-25T12:00:00Z]
 */

import { TODAYS_DRAW, UNIFORM_DRAW } from './draws.js';
import { runLeafTable } from './leafTable.js';
import { runPlantedCauses } from './plantedCauses.js';

export async function run(args: readonly string[]): Promise<void> {
  const only = args.find((a) => a.startsWith('--only='))?.slice(7);
  if (only !== undefined && only !== 'leaves' && only !== 'sandbox')
    throw new Error(`bench/explain: --only=${only}: expected leaves or sandbox`);
  if (only !== 'sandbox') await runLeafTable();
  const draw = args.find((a) => a.startsWith('--draw='))?.slice(7);
  if (only !== 'leaves')
    await runPlantedCauses(
      args,
      draw === 'today' ? [TODAYS_DRAW] : draw === 'uniform' ? [UNIFORM_DRAW] : [TODAYS_DRAW, UNIFORM_DRAW],
    );
}
