/**
 * Runs the benchmarks: every `bench/<name>/index.ts` (compiled to dist/bench/<name>/index.js)
 * exporting `run(args)`. `npm run bench` runs them all; `npm run bench -- store client` runs some.
 * Figures are printed; record them with the command in docs/benchmarks.md.
 */
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

interface BenchModule {
  run(args: readonly string[]): Promise<void>;
}

const here = dirname(fileURLToPath(import.meta.url));
const entries = await readdir(here, { withFileTypes: true });
// A bench is a folder with an index (bench/support holds shared helpers, not a bench).
const available = entries
  .filter((e) => e.isDirectory() && existsSync(join(here, e.name, 'index.js')))
  .map((e) => e.name)
  .sort();
const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const flags = process.argv.slice(2).filter((a) => a.startsWith('-'));
const unknown = wanted.filter((w) => !available.includes(w));
if (unknown.length > 0) {
  console.error(`unknown bench ${unknown.join(', ')}; available: ${available.join(', ')}`);
  process.exit(1);
}
for (const name of wanted.length > 0 ? wanted : available) {
  const mod = (await import(pathToFileURL(join(here, name, 'index.js')).href)) as BenchModule;
  console.log(`\n=== bench/${name} (node ${process.version}, ${new Date().toISOString()})`);
  await mod.run(flags);
}
