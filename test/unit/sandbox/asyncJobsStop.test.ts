/**
 * The async pivot runner stops in every state a job can be in (issue 35, item 3): `stop()` once
 * hung forever when a job was RUNNING and waiting for its next step (`run()` awaited a timer that
 * `stop()` cleared, and `stop()` awaited the job). Each test holds one job in one state (its step
 * lasts an hour), stops, and checks that the stop completed, nothing is left waiting, and the job
 * moved no further.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '../../../src/core/index.js';
import {
  type AsyncJob,
  AsyncJobRunner,
  type AsyncStatus,
  type PivotParamsView,
} from '../../../src/sandbox/asyncJobs.js';
import type { SandboxDb } from '../../../src/sandbox/db.js';
import { DEFAULT_FAULTS, type Faults } from '../../../src/sandbox/faults.js';
import type { PivotQuery } from '../../../src/sandbox/sql/compileSql.js';
import { eventually } from '../../support/eventually.js';

const HOUR = 3_600_000;
const field = (name: string) => ({ name, args: {}, key: name });
const QUERY: PivotQuery = {
  from: { kind: 'instant', iso: '2026-11-01T00:00:00.000Z' },
  to: { kind: 'instant', iso: '2026-11-08T00:00:00.000Z' },
  timeZone: 'UTC',
  dimensions: [field('countryCode')],
  metrics: [field('installs')],
  filter: null,
  cleanup: null,
  cohortType: null,
  cohortWindow: null,
  qualityType: 'op',
  removeZeroRows: false,
  channel: 'MOBILE',
  includeTotals: false,
  siteBundleSince: '2026-08-01T00:00:00.000Z',
};
const PARAMS: PivotParamsView = {
  from: '2026-11-01',
  to: '2026-11-08',
  options: null,
  dimensions: ['countryCode'],
  metrics: ['installs'],
  cleanup: null,
  granularity: null,
  filter: null,
  cohortType: null,
  cohortWindow: null,
  context: null,
};

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pivotbot-async-stop-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/**
 * A runner whose steps last an hour for a held job in `hold` (so it stays there) and 1 ms
 * otherwise. Its database writes the CSV a COPY names, after `gate` (when given) lets it.
 */
function runner(options: { hold: AsyncStatus; concurrency?: number; faults?: Partial<Faults>; gate?: Promise<void> }) {
  let jobs: AsyncJobRunner | undefined;
  const unheld = new Set<string>();
  const seen = new Map<string, number>();
  let mover: AsyncJob | undefined;
  const db = {
    exec: async (sql: string) => {
      await options.gate;
      const file = /TO '([^']+)'/.exec(sql)?.[1] as string;
      await writeFile(file, 'countryCode,installs\nBR,1\n');
    },
  } as unknown as SandboxDb;
  jobs = new AsyncJobRunner({
    db,
    dir,
    concurrency: options.concurrency ?? 2,
    faults: () => {
      // Called as a job schedules its next step, right after it entered a new state: the job
      // whose history just grew is the one asking (the one that asked last, when none grew).
      const all = jobs?.list(1) ?? [];
      mover = all.find((j) => j.history.length !== seen.get(j.id)) ?? mover;
      for (const j of all) seen.set(j.id, j.history.length);
      const holding = mover !== undefined && !unheld.has(mover.id) && mover.status === options.hold;
      return { ...DEFAULT_FAULTS, ...options.faults, asyncStepMs: holding ? HOUR : 1 };
    },
    random: () => 0,
    log: silentLogger(),
  });
  const runner = jobs;
  /** A new job; one created with `held: false` is never held. */
  const create = (held = true) => {
    const job = runner.create(1, QUERY, PARAMS);
    if (!held) unheld.add(job.id);
    return job;
  };
  return { jobs: runner, create };
}

/** Stops the runner and checks that nothing is left and the job stayed where it was. */
async function stopAndCheck(jobs: AsyncJobRunner, id: string): Promise<void> {
  const before = jobs.history(id);
  await jobs.stop();
  expect(jobs.pending()).toEqual({ steps: 0, queued: 0, running: 0 });
  expect(jobs.history(id)).toEqual(before);
}

describe('AsyncJobRunner.stop', () => {
  it.each(['PENDING', 'QUEUED', 'RUNNING', 'UP_FOR_RETRY'] as const)(
    'completes with a job waiting for its next step in %s, which moves no further',
    async (state) => {
      const { jobs, create } = runner({ hold: state, faults: { asyncRetryRate: 1 } });
      const job = create();
      await eventually(`the job to be ${state}`, () => jobs.history(job.id)?.at(-1) === state);
      expect(jobs.pending()).toMatchObject({ steps: 1 });
      await stopAndCheck(jobs, job.id);
      expect(jobs.history(job.id)?.at(-1)).toBe(state);
    },
  );

  it('completes with a job QUEUED behind a busy worker, which never starts', async () => {
    const { jobs, create } = runner({ hold: 'RUNNING', concurrency: 1 });
    const first = create();
    await eventually('the first job to be RUNNING', () => jobs.history(first.id)?.at(-1) === 'RUNNING');
    const second = create(false);
    await eventually('the second job to wait for the worker', () => jobs.pending().queued === 1);
    await stopAndCheck(jobs, second.id);
    expect(jobs.history(second.id)).toEqual(['PENDING', 'QUEUED']);
    expect(jobs.history(first.id)?.at(-1)).toBe('RUNNING');
  });

  it('lets a job writing its CSV finish the write, then completes', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { jobs, create } = runner({ hold: 'READY', gate });
    const job = create();
    await eventually(
      'the job to be writing',
      () => jobs.history(job.id)?.at(-1) === 'RUNNING' && jobs.pending().steps === 0,
    );
    const stopped = jobs.stop();
    release();
    await stopped;
    expect(jobs.pending()).toEqual({ steps: 0, queued: 0, running: 0 });
    expect(jobs.history(job.id)).toEqual(['PENDING', 'QUEUED', 'RUNNING', 'READY']);
  });

  it.each([
    ['READY', {}],
    ['FAILED', { asyncFailureRate: 1 }],
  ] as const)('completes with a job %s', async (state, faults) => {
    const { jobs, create } = runner({ hold: state, faults });
    const job = create();
    await eventually(`the job to be ${state}`, () => jobs.history(job.id)?.at(-1) === state);
    await stopAndCheck(jobs, job.id);
  });

  it('completes with no job at all, and a job created after the stop never moves', async () => {
    const { jobs, create } = runner({ hold: 'PENDING' });
    await jobs.stop();
    const job = create();
    expect(jobs.pending()).toEqual({ steps: 0, queued: 0, running: 0 });
    expect(jobs.history(job.id)).toEqual(['PENDING']);
  });
});
