import type { NewRun, RunOutcome, RunsRepository } from './Store.js';
import { StoreNotFoundError } from './StoreError.js';
import { checkRecord, dropOldest, type StoreContext } from './storeContext.js';
import { type Run, runSchema } from './storeSchema.js';

/** Report runs with idempotency keys; finished runs are bounded per report (`limits.runsPerReport`). */
export function createRunsRepository(ctx: StoreContext): RunsRepository {
  const runs = (): readonly Run[] => ctx.data().runs;

  const findByIdempotencyKey = (key: string): Run | undefined => {
    const all = runs();
    for (let i = all.length - 1; i >= 0; i--) {
      const run = all[i];
      if (run?.idempotencyKey === key) return run;
    }
    return undefined;
  };

  const prune = (report: string): void => {
    const data = ctx.data();
    const finished = (run: Run): boolean => run.report === report && run.status !== 'running';
    const excess = data.runs.filter(finished).length - ctx.limits.runsPerReport;
    if (excess > 0) data.runs = dropOldest(data.runs, excess, finished);
  };

  return {
    async start(input: NewRun) {
      ctx.assertOpen();
      const previous = findByIdempotencyKey(input.idempotencyKey);
      if (previous !== undefined && previous.status !== 'failed') {
        return { run: previous, started: false };
      }
      return ctx.mutate((data) => {
        const run = checkRecord(
          runSchema,
          {
            ...input,
            id: ctx.newId('run'),
            attempt: (previous?.attempt ?? 0) + 1,
            status: 'running',
            startedAt: ctx.now(),
          },
          'run',
        );
        data.runs.push(run);
        return { run, started: true };
      });
    },

    finish(id: string, outcome: RunOutcome) {
      return ctx.mutate((data) => {
        const index = data.runs.findIndex((run) => run.id === id);
        const current = data.runs[index];
        if (current === undefined) throw new StoreNotFoundError('run', id);
        const finishedMs = ctx.nowMs();
        const next = checkRecord(
          runSchema,
          {
            ...current,
            ...outcome,
            finishedAt: new Date(finishedMs).toISOString(),
            durationMs: Math.max(0, finishedMs - Date.parse(current.startedAt)),
          },
          'run',
        );
        data.runs[index] = next;
        prune(next.report);
        return next;
      });
    },

    linkJob(id: string, jobId: string) {
      return ctx.mutate((data) => {
        const index = data.runs.findIndex((run) => run.id === id);
        const current = data.runs[index];
        if (current === undefined) throw new StoreNotFoundError('run', id);
        const next = checkRecord(runSchema, { ...current, jobId }, 'run');
        data.runs[index] = next;
        return next;
      });
    },

    get: (id: string) => runs().find((run) => run.id === id),
    findByIdempotencyKey,

    listByReport(report: string, limit = Number.POSITIVE_INFINITY) {
      const out: Run[] = [];
      const all = runs();
      for (let i = all.length - 1; i >= 0 && out.length < limit; i--) {
        const run = all[i];
        if (run?.report === report) out.push(run);
      }
      return out;
    },

    listUnfinished: () => runs().filter((run) => run.status === 'running'),
    listUnfinishedByJob: (jobId: string) => runs().filter((run) => run.status === 'running' && run.jobId === jobId),
  };
}
