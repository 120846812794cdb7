import { readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';
import { ConfigError } from '../core/index.js';

/** The variable that says which env file the CLI reads: unset, `.env`; `none`, no file. */
export const ENV_FILE_VARIABLE = 'PIVOTBOT_ENV_FILE';
/** `PIVOTBOT_ENV_FILE=none`: read no env file (tests, and platforms that set every variable). */
export const NO_ENV_FILE = 'none';

/**
 * Reads an env file (`.env`, as `.env.example` suggests) into `env`, with Node's own parser (the
 * one `process.loadEnvFile` and `node --env-file` use): a variable the environment already sets
 * wins, so a platform's settings are never overridden by a file left in the folder. Returns the
 * names it added, or undefined when no file was read.
 *
 * Which file: `file` when given (a missing one is no error); otherwise `PIVOTBOT_ENV_FILE` from
 * `env` — unset or empty reads `.env` from the working folder if there is one, `none` reads no
 * file, any other value names the file to read, which must then exist (a `ConfigError` says so).
 *
 * @example loadEnvFile(process.env); // before loadConfig(process.env)
 */
export function loadEnvFile(env: NodeJS.ProcessEnv, file?: string): string[] | undefined {
  const named = file === undefined ? env[ENV_FILE_VARIABLE]?.trim() || undefined : undefined;
  if (named === NO_ENV_FILE) return undefined;
  const path = file ?? named ?? '.env';
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && named === undefined) return undefined;
    const where = named === undefined ? path : `${ENV_FILE_VARIABLE}: ${JSON.stringify(named)}`;
    throw new ConfigError([
      code === 'ENOENT'
        ? `${where}: no such file (name an existing env file, or "${NO_ENV_FILE}" to read none)`
        : `${where}: cannot be read (${code ?? String(error)})`,
    ]);
  }
  const added: string[] = [];
  for (const [name, value] of Object.entries(parseEnv(text))) {
    if (env[name] !== undefined) continue;
    env[name] = value;
    added.push(name);
  }
  return added;
}
