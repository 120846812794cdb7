import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The compiled module `name` beside the module at `from` (its `import.meta.url`), for starting it
 * as a worker thread or child process; undefined when running from the TypeScript sources (under
 * jest), where only `.ts` files exist and node cannot start it. Callers then do the work in
 * process.
 *
 * @example const entry = compiledSibling('./chartProcess.js', import.meta.url);
 */
export function compiledSibling(name: string, from: string): URL | undefined {
  const entry = new URL(name, from);
  return existsSync(fileURLToPath(entry)) ? entry : undefined;
}
