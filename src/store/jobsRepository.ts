import type { AsyncJobPatch, JobsRepository, NewAsyncJob } from './Store.js';
import { StoreConflictError, StoreNotFoundError } from './StoreError.js';
import { checkRecord, dropOldest, type StoreContext } from './storeContext.js';
import { ACTIVE_JOB_STATUSES, type AsyncJob, asyncJobSchema, type JobStatus } from './storeSchema.js';

const isFinished = (status: JobStatus): boolean => !ACTIVE_JOB_STATUSES.includes(status);

/** Async report jobs; finished ones beyond `limits.finishedJobs` are dropped, oldest first. */
export function createJobsRepository(ctx: StoreContext): JobsRepository {
  const get = (id: string): AsyncJob | undefined => ctx.data().jobs.find((job) => job.id === id);

  const prune = (): void => {
    const data = ctx.data();
    const finished = data.jobs.filter((job) => isFinished(job.status)).length;
    const excess = finished - ctx.limits.finishedJobs;
    if (excess > 0) data.jobs = dropOldest(data.jobs, excess, (job) => isFinished(job.status));
  };

  return {
    create(input: NewAsyncJob) {
      return ctx.mutate((data) => {
        if (get(input.id) !== undefined) throw new StoreConflictError('job', input.id);
        const now = ctx.now();
        const job = checkRecord(
          asyncJobSchema,
          {
            id: input.id,
            request: structuredClone(input.request),
            requester: input.requester,
            channel: input.channel,
            ...(input.threadTs === undefined ? {} : { threadTs: input.threadTs }),
            status: 'queued',
            createdAt: now,
            updatedAt: now,
          },
          'job',
        );
        data.jobs.push(job);
        return job;
      });
    },

    update(id: string, patch: AsyncJobPatch) {
      return ctx.mutate((data) => {
        const index = data.jobs.findIndex((job) => job.id === id);
        const current = data.jobs[index];
        if (current === undefined) throw new StoreNotFoundError('job', id);
        const now = ctx.now();
        const status = patch.status ?? current.status;
        const next = checkRecord(
          asyncJobSchema,
          {
            ...current,
            ...patch,
            status,
            updatedAt: now,
            ...(status === 'running' && current.startedAt === undefined ? { startedAt: now } : {}),
            ...(isFinished(status) && current.finishedAt === undefined ? { finishedAt: now } : {}),
          },
          'job',
        );
        data.jobs[index] = next;
        if (isFinished(status)) prune();
        return next;
      });
    },

    get,
    list: () => [...ctx.data().jobs],
    listActive: () => ctx.data().jobs.filter((job) => !isFinished(job.status)),
  };
}
