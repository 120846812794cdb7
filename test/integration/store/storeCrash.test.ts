import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { access, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeStoreText, openStore, StoreLockedError } from '../../../src/store/index.js';
import { type RecordedLog, recordingLogger, withTempDir } from '../../support/storeTestKit.js';

/*
 * The crash test: a child process writes to the store continuously and prints a line for every
 * write the store reported durable; it is killed with SIGKILL at a random moment, then the
 * store must open without recovery, validate, and hold every write the child reported.
 * Children run the compiled store (dist/), which `npm test` builds first.
 * STORE_CRASH_KILLS and STORE_CRASH_SEED override the defaults to reproduce or soak.
 */

const root = fileURLToPath(new URL('../../../', import.meta.url));
const writer = join(root, 'test/support/storeCrashWriter.mjs');
/**
 * 100 kills (two chains of 50) in `npm test`: the kill moments are spread over the writer's whole
 * cycle (5–60 ms after its first write, several disk writes each); the 200 of earlier versions
 * drew more moments from the same spread at a writer start (about 0.4 s of CPU) each.
 * `STORE_CRASH_KILLS=1000` soaks.
 */
const KILLS = Number(process.env.STORE_CRASH_KILLS ?? 100);
const SEED = Number(process.env.STORE_CRASH_SEED ?? 20261121);
/** Independent stores killed side by side (two cores); each gets KILLS / CHAINS kills. */
const CHAINS = 2;
/** A fresh store file every this many kills, so the file stays small and the test fast. */
const KILLS_PER_FILE = 25;

/** mulberry32: a small seeded generator, so a failing sequence of kill delays reproduces. */
function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface ChildRun {
  committed: string[];
  stderr: string;
  signal: NodeJS.Signals | null;
}

/** Starts the writer; resolves once it is writing (its first write committed). */
async function startWriter(path: string, tag: string): Promise<{ child: ChildProcess; done: Promise<ChildRun> }> {
  const child = spawn(process.execPath, [writer, path, tag], { stdio: ['ignore', 'pipe', 'pipe'] });
  const committed: string[] = [];
  let stderr = '';
  let buffered = '';
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) {
      if (line.startsWith('committed ')) {
        committed.push(line.slice('committed '.length));
        markReady();
      }
    }
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const done = once(child, 'close').then(([, signal]) => ({
    committed,
    stderr,
    signal: signal as NodeJS.Signals | null,
  }));
  const exitedEarly = done.then((run) => {
    throw new Error(`writer ${tag} exited before its first write (${run.signal ?? 'no signal'}): ${run.stderr}`);
  });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`writer ${tag} wrote nothing in 20 s`)), 20_000);
  });
  try {
    await Promise.race([ready, exitedEarly, timeout]);
  } catch (error) {
    child.kill('SIGKILL');
    await done;
    throw error;
  } finally {
    clearTimeout(timer);
  }
  exitedEarly.catch(() => undefined);
  return { child, done };
}

const sleep = (ms: number) =>
  new Promise<void>((resolve) => {
    setTimeout(resolve, ms);
  });

/** Opens the store after a kill and checks every committed write is there. */
async function verify(path: string, committed: readonly string[], context: string): Promise<void> {
  const { logger, lines } = recordingLogger();
  const store = await openStore({ path, logger });
  try {
    const loud = lines.filter((l: RecordedLog) => l.level >= 50);
    if (loud.length > 0) throw new Error(`${context}: the store needed recovery: ${loud[0]?.msg}`);
    const latestFire = new Map<string, string>();
    for (const entry of committed) {
      const [kind, a, b] = entry.split(' ') as [string, string, string];
      const found =
        kind === 'run'
          ? store.runs.findByIdempotencyKey(a) !== undefined
          : kind === 'sub'
            ? store.subscriptions.find(a, b) !== undefined
            : kind === 'job'
              ? store.jobs.get(a) !== undefined
              : true;
      if (kind === 'fire' && b > (latestFire.get(a) ?? '')) latestFire.set(a, b);
      if (!found) throw new Error(`${context}: committed write "${entry}" is missing after the kill`);
    }
    for (const [scheduleId, at] of latestFire) {
      const stored = store.schedules.getLastFire(scheduleId) ?? '';
      if (stored < at) throw new Error(`${context}: schedule ${scheduleId} went back from ${at} to "${stored}"`);
    }
  } finally {
    await store.close();
  }
  // The backup must be a valid store too; nothing may have been moved aside.
  const backup = await readFile(`${path}.bak`, 'utf8').catch(() => undefined);
  if (backup !== undefined) decodeStoreText(backup, `${path}.bak`);
}

/** Shared by the chains: once one fails, the others stop, so no child outlives the test. */
interface Abort {
  aborted: boolean;
}

async function killChain(dir: string, chain: number, kills: number, random: () => number, abort: Abort) {
  let commits = 0;
  for (let k = 0; k < kills && !abort.aborted; k++) {
    const path = join(dir, `chain${chain}-file${Math.floor(k / KILLS_PER_FILE)}.json`);
    const tag = `c${chain}k${k}`;
    const { child, done } = await startWriter(path, tag);
    await sleep(5 + Math.floor(random() * 56));
    child.kill('SIGKILL');
    const run = await done;
    if (run.signal !== 'SIGKILL') throw new Error(`writer ${tag} ended by itself: ${run.stderr}`);
    commits += run.committed.length;
    await verify(path, run.committed, `kill ${k} of chain ${chain} (seed ${SEED})`);
  }
  return commits;
}

async function assertBuilt(): Promise<void> {
  await access(join(root, 'dist/src/store/index.js')).catch(() => {
    throw new Error('dist/src/store/index.js is missing: run `npm run build` (npm test does) before this test');
  });
}

describe('the store under SIGKILL', () => {
  beforeAll(assertBuilt);

  it(`holds every committed write after ${KILLS} kills at random moments`, async () => {
    await withTempDir(async (dir) => {
      const perChain = Math.ceil(KILLS / CHAINS);
      const abort: Abort = { aborted: false };
      const settled = await Promise.allSettled(
        Array.from({ length: CHAINS }, (_, chain) =>
          killChain(dir, chain, perChain, seededRandom(SEED + chain), abort).catch((error: unknown) => {
            abort.aborted = true;
            throw error;
          }),
        ),
      );
      const failure = settled.find((r) => r.status === 'rejected');
      if (failure !== undefined) throw failure.reason;
      const results = settled.map((r) => (r.status === 'fulfilled' ? r.value : 0));
      const kills = perChain * CHAINS;
      const commits = results.reduce((sum, n) => sum + n, 0);
      if (process.env.STORE_CRASH_VERBOSE) console.log({ kills, commits });
      expect(kills).toBeGreaterThanOrEqual(KILLS);
      expect(commits).toBeGreaterThan(kills);
      expect((await readdir(dir)).filter((f) => f.includes('.corrupt-'))).toEqual([]);
    });
    // A generous bound: 100 kills took 137 s beside a load average of 16 on the 2 cores.
  }, 600_000);

  it('refuses to open a store a live writer process holds, naming its pid', async () => {
    await withTempDir(async (dir) => {
      const path = join(dir, 'pivotbot.json');
      const { child, done } = await startWriter(path, 'holder');
      try {
        const error = await openStore({ path, logger: recordingLogger().logger }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(StoreLockedError);
        expect((error as Error).message).toContain(`held by pid ${child.pid}`);
      } finally {
        child.kill('SIGKILL');
        await done;
      }
    });
  });
});
