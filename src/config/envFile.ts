import { readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';

/**
 * Reads a `.env` file (as `.env.example` suggests) into `env`, with Node's own parser (the one
 * `process.loadEnvFile` and `node --env-file` use): a variable the environment already sets wins,
 * so a platform's settings are never overridden by a file left in the folder. Returns the names it
 * added, or undefined when there is no such file.
 *
 * @example loadEnvFile(process.env); // before loadConfig(process.env)
 */
export function loadEnvFile(env: NodeJS.ProcessEnv, file = '.env'): string[] | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const added: string[] = [];
  for (const [name, value] of Object.entries(parseEnv(text))) {
    if (env[name] !== undefined) continue;
    env[name] = value;
    added.push(name);
  }
  return added;
}
