/** `pivotbot sandbox`: starts the sandbox, prints friendly text and one JSON ready line, stops on SIGINT/SIGTERM. */
import { ConfigError } from '../core/index.js';
import type { Scale } from './data/generate.js';
import { type Faults, parseFaultsJson } from './faults.js';
import { FAULTS_PATH } from './faultsRoute.js';
import { describePlant, type Plant, parsePlantsJson } from './plants.js';
import { PLANTS_PATH } from './plantsRoute.js';
import { type RunningSandbox, startSandbox } from './startSandbox.js';

export interface SandboxCommandOptions {
  port?: string | number;
  scale?: string;
  seed?: string | number;
  clientId?: string;
  clientSecret?: string;
  /** JSON of `startSandbox` fault knobs, e.g. `{"http5xxRate":0.2,"latencyMs":300}`. */
  faults?: string;
  /** JSON of one planted cause or a list, e.g. `{"where":{"countryCode":"BR"},"metric":"installs","factor":0.4,"days":"yesterday"}`. */
  plant?: string;
}

export interface SandboxCommandIo {
  out: (text: string) => void;
  err: (text: string) => void;
  /** Resolves when the command should stop; defaults to the first SIGINT or SIGTERM. */
  until?: Promise<void>;
  /** Called once the sandbox is ready (tests use it). */
  onReady?: (sandbox: RunningSandbox) => void;
}

const SCALES: readonly Scale[] = ['small', 'medium', 'large'];

/** Parses the flags; every problem names its flag. */
export function parseSandboxOptions(options: SandboxCommandOptions): {
  port: number;
  scale: Scale;
  seed: number;
  clientId: string;
  clientSecret: string;
  faults: Partial<Faults>;
  plants: Plant[];
} {
  const problems: string[] = [];
  const port = Number(options.port ?? 4010);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    problems.push(`--port: ${JSON.stringify(String(options.port))} is not a port number (0-65535; 0 picks a free one)`);
  }
  const scale = (options.scale ?? 'small') as Scale;
  if (!SCALES.includes(scale))
    problems.push(`--scale: ${JSON.stringify(options.scale)} is not one of ${SCALES.join(', ')}`);
  const seed = Number(options.seed ?? 1);
  if (!Number.isSafeInteger(seed)) problems.push(`--seed: ${JSON.stringify(String(options.seed))} is not an integer`);
  const clientId = options.clientId ?? 'sandbox';
  const clientSecret = options.clientSecret ?? 'sandbox-secret';
  if (clientId === '') problems.push('--client-id: must not be empty');
  if (clientSecret === '') problems.push('--client-secret: must not be empty');
  const faults = options.faults === undefined ? { update: {}, problems: [] } : parseFaultsJson(options.faults);
  problems.push(...faults.problems.map((p) => `--faults: ${p}`));
  const plants = options.plant === undefined ? { plants: [], problems: [] } : parsePlantsJson(options.plant);
  problems.push(...plants.problems.map((p) => `--plant: ${p}`));
  if (problems.length > 0) throw new ConfigError(problems);
  return { port, scale, seed, clientId, clientSecret, faults: faults.update, plants: plants.plants };
}

function describeFaults(faults: Partial<Faults>): string {
  return Object.keys(faults).length === 0 ? 'none' : JSON.stringify(faults);
}

function signals(): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
      resolve();
    };
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
}

/**
 * Runs the command until a signal; resolves to the exit code.
 *
 * @example process.exitCode = await runSandboxCommand({ port: '0' }, { out, err });
 */
export async function runSandboxCommand(options: SandboxCommandOptions, io: SandboxCommandIo): Promise<number> {
  const parsed = parseSandboxOptions(options);
  const until = io.until ?? signals();
  io.err(`Generating the ${parsed.scale} data set (seed ${parsed.seed})…\n`);
  const sandbox = await startSandbox(parsed).catch((error: unknown) => {
    if (error instanceof ConfigError)
      throw new ConfigError(error.problems.map((p) => (p.startsWith('plants: ') ? `--plant: ${p.slice(8)}` : p)));
    throw error;
  });
  const g = sandbox.generation;
  const today = g.dataEnd.toISOString().slice(0, 10);
  const { plants, matchedFacts } = sandbox.plants();
  const plantLines = plants.map((p, i) => `           ${describePlant(p, today)}: ${matchedFacts[i]} fact rows`);
  io.out(
    [
      `pivotbot sandbox: the Reporting Service on ${sandbox.baseUrl}`,
      `  token:   POST ${sandbox.authUrl} (form-encoded client_credentials)`,
      `  graphql: POST ${sandbox.graphqlUrl} (also ${sandbox.baseUrl}/graphql)`,
      `  client:  ${sandbox.clientId} / ${'*'.repeat(Math.min(8, sandbox.clientSecret.length))}`,
      `  faults:  ${describeFaults(parsed.faults)}; GET/PUT ${sandbox.baseUrl}${FAULTS_PATH} (loopback, Bearer <client secret>)`,
      `  plants:  ${plants.length === 0 ? 'none' : `${plants.length}`}; GET/PUT ${sandbox.baseUrl}${PLANTS_PATH} (loopback, Bearer <client secret>)`,
      ...plantLines,
      `  data:    ${g.factRows.toLocaleString('en-US')} fact rows, ${g.dataStart.toISOString().slice(0, 10)} to ${g.dataEnd.toISOString().slice(0, 13)}:00Z, generated in ${(g.millis / 1000).toFixed(1)} s`,
      '  Stop with Ctrl-C.',
      '',
    ].join('\n'),
  );
  io.out(
    `${JSON.stringify({
      ready: true,
      authUrl: sandbox.authUrl,
      graphqlUrl: sandbox.graphqlUrl,
      clientId: sandbox.clientId,
      clientSecret: sandbox.clientSecret,
    })}\n`,
  );
  io.onReady?.(sandbox);
  await until;
  io.err('Stopping the sandbox…\n');
  await sandbox.stop();
  return 0;
}
