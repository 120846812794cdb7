/**
 * bench/explain: the explanation engine. The leaf-CSV source's time per explanation on a
 * 20,000-leaf table, and planted causes found on synthetic leaf tables (bench/explain/leafTable.ts).
 * Run: npm run build && node --expose-gc dist/bench/run.js explain
 */
import { runLeafTable } from './leafTable.js';

export async function run(): Promise<void> {
  await runLeafTable();
}
