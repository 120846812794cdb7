/**
 * Starts the embedded Reporting Service in-process: generates the data in DuckDB, then serves the
 * token endpoint, GraphQL and signed CSV downloads on 127.0.0.1.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Logger, silentLogger } from '../core/index.js';
import { AsyncJobRunner } from './asyncJobs.js';
import { type GenerationInfo, generateData, type Scale } from './data/generate.js';
import { SandboxDb, type SqlRow } from './db.js';
import { DEFAULT_FAULTS, type Faults, mergeFaults, seededRandom } from './faults.js';
import { createResolvers } from './graphql/resolvers.js';
import { buildSandboxSchema } from './graphql/schema.js';
import { createHttpHandler } from './httpServer.js';
import { PlantedFacts, type PlantsState, plantsConfigError } from './plantedFacts.js';
import type { DataSpan, PlantInput } from './plants.js';
import { UrlSigner } from './signedUrl.js';
import { SQL_MACROS } from './sql/compileSql.js';
import { TokenService } from './tokenService.js';

export interface SandboxOptions {
  /** Port on 127.0.0.1; 0 (the default here) picks a free one. */
  port?: number;
  scale?: Scale;
  seed?: number;
  /** The instant the data is relative to (yesterday always has data); defaults to the real now. */
  now?: Date;
  clientId?: string;
  clientSecret?: string;
  faults?: Partial<Faults>;
  /** Planted causes in force from the start (docs/sandbox.md, "Planted causes"); bad ones stop the start with a ConfigError. */
  plants?: PlantInput | readonly PlantInput[];
  /** Async pivots run at once (default 2). */
  concurrency?: number;
  logger?: Logger;
}

export interface RunningSandbox {
  baseUrl: string;
  /** `{baseUrl}/v1/oauth/token` */
  authUrl: string;
  /** `{baseUrl}/v1/graphql` (`{baseUrl}/graphql` answers too). */
  graphqlUrl: string;
  clientId: string;
  clientSecret: string;
  port: number;
  generation: GenerationInfo;
  faults(): Faults;
  /** Changes faults at run time (rates 0..1); returns the faults now in force. */
  setFaults(update: Partial<Faults>): Faults;
  /**
   * Replaces every fault (knobs left out go back to their defaults), as `PUT {baseUrl}/sandbox/faults`
   * does from another process; returns the faults now in force.
   */
  replaceFaults(update: Partial<Faults>): Faults;
  resetFaults(): Faults;
  /** Every status an async pivot has had, in order; undefined for an unknown id. */
  asyncHistory(pivotId: string): readonly string[] | undefined;
  /** The planted causes in force, with the fact rows each matched. */
  plants(): PlantsState;
  /**
   * Replaces every plant (one or a list; `[]` restores the generated data exactly), as
   * `PUT {baseUrl}/sandbox/plants` does. A bad plant throws a UserInputError and changes nothing.
   */
  replacePlants(plants: PlantInput | readonly PlantInput[]): Promise<PlantsState>;
  /** Adds a client pair; returns its user id. */
  addClient(clientId: string, clientSecret: string): number;
  removeClient(clientId: string): void;
  /** Runs SQL on the sandbox's data (tests compare pivots with it). */
  sql(query: string): Promise<SqlRow[]>;
  stop(): Promise<void>;
}

/** UTC midnight of `now`'s day minus three calendar months: siteBundle is NULL before it. */
export function siteBundleSince(now: Date): string {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 3, now.getUTCDate()));
  return d.toISOString();
}

/** The days that hold data: `today` is the UTC day of the data's end ("yesterday" is the day before). */
export function dataSpan(generation: GenerationInfo): DataSpan {
  const day = (d: Date) => d.toISOString().slice(0, 10);
  const lastDay = day(new Date(generation.dataEnd.getTime() - 1));
  return {
    today: day(generation.dataEnd),
    first: day(generation.dataStart),
    end: day(new Date(Date.parse(`${lastDay}T00:00:00Z`) + 86_400_000)),
  };
}

/**
 * Starts a sandbox.
 *
 * @example const sandbox = await startSandbox({ scale: 'small', seed: 7 }); … await sandbox.stop();
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const scale = options.scale ?? 'small';
  const seed = options.seed ?? 1;
  const log = options.logger ?? silentLogger();
  const clientId = options.clientId ?? 'sandbox';
  const clientSecret = options.clientSecret ?? 'sandbox-secret';
  let faults = mergeFaults(DEFAULT_FAULTS, options.faults ?? {});
  const random = seededRandom(seed * 7919 + 17);

  const db = await SandboxDb.open({
    inMemory: scale === 'small',
    connections: 4,
    threads: 2,
    ...(scale === 'small' ? {} : { memoryLimit: scale === 'large' ? '3GB' : '1GB' }),
  });
  const filesDir = await mkdtemp(join(tmpdir(), 'pivotbot-sandbox-files-'));
  try {
    const generation = await generateData(db, { scale, seed, now: options.now ?? new Date() });
    await db.exec(SQL_MACROS);
    const bundleSince = siteBundleSince(generation.dataEnd);
    const planted = await PlantedFacts.open(db, { span: dataSpan(generation), siteBundleSince: bundleSince });
    if (options.plants !== undefined)
      await planted.replace(options.plants).catch((e: unknown) => Promise.reject(plantsConfigError(e)));
    const tokens = new TokenService();
    tokens.addClient(clientId, clientSecret);
    const signer = new UrlSigner();
    const jobs = new AsyncJobRunner({
      db,
      dir: filesDir,
      concurrency: options.concurrency ?? 2,
      faults: () => faults,
      random,
      log,
    });
    let baseUrl = '';
    const resolvers = createResolvers({
      db,
      jobs,
      env: { siteBundleSince: bundleSince },
      signedUrl: (path) => `${baseUrl}${path}?${signer.sign(path, faults.urlTtlSeconds)}`,
    });
    const schema = buildSandboxSchema(resolvers);
    const replaceFaults = (update: Partial<Faults>): Faults => {
      faults = mergeFaults(DEFAULT_FAULTS, update);
      log.info({ faults: update }, 'sandbox faults replaced');
      return faults;
    };
    const server = createServer(
      createHttpHandler({
        schema,
        tokens,
        signer,
        jobs,
        faults: () => faults,
        takeForcedFailure: () => {
          if (faults.failNextRequests <= 0) return false;
          faults = { ...faults, failNextRequests: faults.failNextRequests - 1 };
          return true;
        },
        random,
        log,
        control: { clientSecret, faults: () => faults, replaceFaults },
        plants: { clientSecret, plants: () => planted.current(), replacePlants: (value) => planted.replace(value) },
      }),
    );
    server.keepAliveTimeout = 1000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
    });
    const port = (server.address() as AddressInfo).port;
    baseUrl = `http://127.0.0.1:${port}`;
    log.info({ port, scale, seed, factRows: generation.factRows, ms: Math.round(generation.millis) }, 'sandbox ready');

    let stopped: Promise<void> | null = null;
    return {
      baseUrl,
      authUrl: `${baseUrl}/v1/oauth/token`,
      graphqlUrl: `${baseUrl}/v1/graphql`,
      clientId,
      clientSecret,
      port,
      generation,
      faults: () => faults,
      setFaults(update) {
        faults = mergeFaults(faults, update);
        return faults;
      },
      replaceFaults,
      resetFaults() {
        faults = mergeFaults(DEFAULT_FAULTS, {});
        return faults;
      },
      asyncHistory: (pivotId) => jobs.history(pivotId),
      plants: () => planted.current(),
      replacePlants: (value) => planted.replace(value),
      addClient: (id, secret) => tokens.addClient(id, secret),
      removeClient: (id) => tokens.removeClient(id),
      sql: (query) => db.query(query),
      stop() {
        stopped ??= (async () => {
          await jobs.stop();
          await new Promise<void>((resolve) => {
            server.close(() => resolve());
            server.closeAllConnections();
          });
          await db.close();
          await rm(filesDir, { recursive: true, force: true });
        })();
        return stopped;
      },
    };
  } catch (error) {
    await db.close();
    await rm(filesDir, { recursive: true, force: true });
    throw error;
  }
}
