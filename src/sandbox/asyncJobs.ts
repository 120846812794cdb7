/**
 * Asynchronous pivots: PENDING → QUEUED → RUNNING → READY (or UP_FOR_RETRY and on again, or
 * FAILED), run by a bounded worker pool. DuckDB writes each result as an RFC 4180 CSV whose
 * header is the requested dimension and metric names.
 */
import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../core/index.js';
import { sqlString } from './data/seedLists.js';
import type { SandboxDb } from './db.js';
import type { Faults } from './faults.js';
import { compilePivot, type PivotQuery } from './sql/compileSql.js';

export type AsyncStatus = 'PENDING' | 'QUEUED' | 'RUNNING' | 'READY' | 'UP_FOR_RETRY' | 'FAILED';

/** PivotParams as the spec shows them: JSON text for the structured parts. */
export interface PivotParamsView {
  from: string;
  to: string;
  options: string | null;
  dimensions: string[] | null;
  metrics: string[] | null;
  cleanup: string | null;
  granularity: string | null;
  filter: string | null;
  cohortType: string | null;
  cohortWindow: string | null;
  context: string | null;
}

export interface AsyncJob {
  id: string;
  userId: number;
  status: AsyncStatus;
  created: Date;
  lastUpdated: Date;
  pivotParams: PivotParamsView;
  query: PivotQuery;
  attempts: number;
  /** Every status the job has had, in order (tests read it: polling can miss a short state). */
  history: AsyncStatus[];
  /** Path of the CSV once READY. */
  file: string | null;
  bytes: number;
}

export interface AsyncJobDeps {
  db: SandboxDb;
  /** Folder the CSV files go to. */
  dir: string;
  concurrency: number;
  faults: () => Faults;
  random: () => number;
  log: Logger;
}

export class AsyncJobRunner {
  private readonly jobs = new Map<string, AsyncJob>();
  private readonly queue: AsyncJob[] = [];
  /** Pending steps: each timer with what ends its wait early when the runner stops. */
  private readonly timers = new Map<NodeJS.Timeout, () => void>();
  private readonly running = new Set<Promise<void>>();
  private stopped = false;

  constructor(private readonly deps: AsyncJobDeps) {}

  /** Registers a job (PENDING) and schedules it. */
  create(userId: number, query: PivotQuery, pivotParams: PivotParamsView): AsyncJob {
    const now = new Date();
    const job: AsyncJob = {
      id: randomUUID(),
      userId,
      status: 'PENDING',
      created: now,
      lastUpdated: now,
      pivotParams,
      query,
      attempts: 0,
      history: ['PENDING'],
      file: null,
      bytes: 0,
    };
    this.jobs.set(job.id, job);
    this.later(() => this.enqueue(job));
    return job;
  }

  /** Every status of the job with this id, in order. */
  history(id: string): readonly AsyncStatus[] | undefined {
    return this.jobs.get(id)?.history.slice();
  }

  /** The caller's job with this id (another user's job is not found). */
  get(id: string, userId: number): AsyncJob | undefined {
    const job = this.jobs.get(id);
    return job !== undefined && job.userId === userId ? job : undefined;
  }

  /** The CSV of a READY job, by id (signed URLs carry no caller). */
  fileOf(id: string): string | null {
    const job = this.jobs.get(id);
    return job?.status === 'READY' ? job.file : null;
  }

  /** What the runner holds: steps waiting on a timer, jobs waiting for a worker, jobs running. */
  pending(): { steps: number; queued: number; running: number } {
    return { steps: this.timers.size, queued: this.queue.length, running: this.running.size };
  }

  /** The caller's jobs, newest first. */
  list(userId: number): AsyncJob[] {
    return [...this.jobs.values()].filter((j) => j.userId === userId).sort((a, b) => +b.created - +a.created);
  }

  /**
   * Stops the runner in whatever state its jobs are: no job moves on (a job waiting for its next
   * step, or for a worker, stays where it is), every timer is cleared, and a job writing its CSV
   * finishes that write (DuckDB's COPY is bounded) before this resolves.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    this.queue.length = 0;
    const cancels = [...this.timers];
    this.timers.clear();
    for (const [timer, cancel] of cancels) {
      clearTimeout(timer);
      cancel();
    }
    await Promise.allSettled([...this.running]);
  }

  private set(job: AsyncJob, status: AsyncStatus): void {
    job.status = status;
    job.history.push(status);
    job.lastUpdated = new Date();
  }

  /** Runs `fn` one step from now, unless the runner stops first (then `onStop` runs, at the stop). */
  private later(fn: () => void, onStop: () => void = () => undefined): void {
    if (this.stopped) {
      onStop();
      return;
    }
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (this.stopped) onStop();
      else fn();
    }, this.deps.faults().asyncStepMs);
    this.timers.set(timer, onStop);
  }

  /** Waits one step; false when the runner stopped meanwhile (the wait never outlives a stop). */
  private step(): Promise<boolean> {
    return new Promise<boolean>((resolve) =>
      this.later(
        () => resolve(true),
        () => resolve(false),
      ),
    );
  }

  /** QUEUED lasts at least one step, so pollers can see it even when a worker is free. */
  private enqueue(job: AsyncJob): void {
    this.set(job, 'QUEUED');
    this.later(() => {
      this.queue.push(job);
      this.pump();
    });
  }

  private pump(): void {
    while (!this.stopped && this.running.size < this.deps.concurrency && this.queue.length > 0) {
      const job = this.queue.shift() as AsyncJob;
      const run = this.run(job).finally(() => {
        this.running.delete(run);
        this.pump();
      });
      this.running.add(run);
    }
  }

  private async run(job: AsyncJob): Promise<void> {
    this.set(job, 'RUNNING');
    job.attempts++;
    const faults = this.deps.faults();
    if (faults.asyncStepMs > 0 && !(await this.step())) return;
    if (this.stopped) return;
    if (this.deps.random() < faults.asyncFailureRate) {
      this.set(job, 'FAILED');
      return;
    }
    if (job.attempts === 1 && this.deps.random() < faults.asyncRetryRate) {
      this.set(job, 'UP_FOR_RETRY');
      this.later(() => this.enqueue(job));
      return;
    }
    try {
      const file = join(this.deps.dir, `${job.id}.csv`);
      job.bytes = await writeCsv(this.deps.db, job.query, file);
      job.file = file;
      this.set(job, 'READY');
    } catch (error) {
      this.deps.log.warn({ err: error, jobId: job.id }, 'async pivot failed');
      this.set(job, 'FAILED');
    }
  }
}

/** Writes the pivot's rows (no totals) as CSV with DuckDB's COPY; returns the file size. */
export async function writeCsv(db: SandboxDb, query: PivotQuery, file: string): Promise<number> {
  const compiled = compilePivot({ ...query, includeTotals: false });
  const select = compiled.columns.map((c) => `${c.column} AS "${c.name.replaceAll('"', '""')}"`).join(', ');
  // The file name is ours (job id in the sandbox's folder); every request value is a bound parameter.
  await db.exec(
    `COPY (SELECT ${select} FROM (${compiled.sql})) TO ${sqlString(file)} (FORMAT csv, HEADER, DELIMITER ',')`,
    compiled.params,
  );
  return (await stat(file)).size;
}
