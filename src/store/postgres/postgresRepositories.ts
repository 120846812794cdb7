import { createIncidentsRepository } from '../incidentsRepository.js';
import { createJobsRepository } from '../jobsRepository.js';
import type { LeaseKind, ReplicaLeases } from '../ReplicaStore.js';
import { createRunsRepository } from '../runsRepository.js';
import type {
  IncidentsRepository,
  JobsRepository,
  RunsRepository,
  SchedulesRepository,
  Store,
  SubscriptionsRepository,
} from '../Store.js';
import { createSchedulesRepository } from '../schedulesRepository.js';
import { createSubscriptionsRepository } from '../subscriptionsRepository.js';
import type { PostgresWriter } from './postgresWriter.js';

type Repositories = Pick<Store, 'jobs' | 'subscriptions' | 'runs' | 'incidents' | 'schedules'>;

/**
 * The store's repositories over PostgreSQL: the same decisions as the JSON store's (the shared
 * repositories, over the mirror), each write serialised through `writer.write`, and each claim
 * (`runs.start`, `incidents.open`, `jobs.create`, `subscriptions.add`) first re-reading the rows
 * it decides on. With `leases` (replicas), the leases follow the claims: held once the claim is
 * in the database, released once the work is finished.
 *
 * @example const { runs, jobs } = postgresRepositories(writer, leases);
 */
export function postgresRepositories(writer: PostgresWriter, leases: ReplicaLeases | undefined): Repositories {
  const lease = leaseKeeper(leases);
  return {
    jobs: postgresJobs(writer, lease),
    subscriptions: postgresSubscriptions(writer),
    runs: postgresRuns(writer, lease),
    incidents: postgresIncidents(writer),
    schedules: postgresSchedules(writer),
  };
}

interface LeaseKeeper {
  held<T>(kind: LeaseKind, id: string, result: T): Promise<T>;
  released<T>(kind: LeaseKind, id: string, result: T, finished: boolean): Promise<T>;
}

function leaseKeeper(leases: ReplicaLeases | undefined): LeaseKeeper {
  return {
    async held(kind, id, result) {
      await leases?.hold(kind, id);
      return result;
    },
    async released(kind, id, result, finished) {
      if (finished) await leases?.release(kind, id);
      return result;
    },
  };
}

function postgresJobs({ ctx, write, refreshWhere }: PostgresWriter, lease: LeaseKeeper): JobsRepository {
  const jobs = createJobsRepository(ctx);
  return {
    ...jobs,
    create: async (job) =>
      lease.held(
        'job',
        job.id,
        await write(
          () => jobs.create(job),
          () => refreshWhere('jobs', 'key = $1', [job.id], (j: { id: string }) => j.id === job.id),
        ),
      ),
    update: async (id, patch) => {
      const job = await write(() => jobs.update(id, patch));
      return lease.released('job', id, job, job.status !== 'queued' && job.status !== 'running');
    },
  };
}

function postgresSubscriptions({ ctx, write, refreshWhere }: PostgresWriter): SubscriptionsRepository {
  const subscriptions = createSubscriptionsRepository(ctx);
  const rowsOf = (report: string, channel: string) => () =>
    refreshWhere(
      'subscriptions',
      'report = $1 AND channel = $2',
      [report, channel],
      (s: { report: string; channel: string }) => s.report === report && s.channel === channel,
    );
  return {
    ...subscriptions,
    add: (input) => write(() => subscriptions.add(input), rowsOf(input.report, input.channel)),
    remove: (report, channel) => write(() => subscriptions.remove(report, channel), rowsOf(report, channel)),
  };
}

function postgresRuns({ ctx, write, refreshWhere }: PostgresWriter, lease: LeaseKeeper): RunsRepository {
  const runs = createRunsRepository(ctx);
  return {
    ...runs,
    start: async (input) => {
      const claim = await write(
        () => runs.start(input),
        () =>
          refreshWhere(
            'runs',
            'idempotency_key = $1',
            [input.idempotencyKey],
            (r: { idempotencyKey: string }) => r.idempotencyKey === input.idempotencyKey,
          ),
      );
      return claim.started ? lease.held('run', claim.run.id, claim) : claim;
    },
    finish: async (id, outcome) => lease.released('run', id, await write(() => runs.finish(id, outcome)), true),
    linkJob: (id, jobId) => write(() => runs.linkJob(id, jobId)),
  };
}

function postgresIncidents({ ctx, write, refreshWhere }: PostgresWriter): IncidentsRepository {
  const incidents = createIncidentsRepository(ctx);
  return {
    ...incidents,
    open: (input) =>
      write(
        () => incidents.open(input),
        () =>
          refreshWhere(
            'incidents',
            'rule_id = $1 AND entity_key = $2',
            [input.ruleId, input.entityKey],
            (i: { ruleId: string; entityKey: string }) => i.ruleId === input.ruleId && i.entityKey === input.entityKey,
          ),
      ),
    update: (id, patch) => write(() => incidents.update(id, patch)),
    applyEvaluation: (evaluation) => write(() => incidents.applyEvaluation(evaluation)),
    applyEvaluations: (evaluations) => write(() => incidents.applyEvaluations(evaluations)),
    save: (incident) => write(() => incidents.save(incident)),
  };
}

function postgresSchedules({ ctx, write }: PostgresWriter): SchedulesRepository {
  const schedules = createSchedulesRepository(ctx);
  return {
    ...schedules,
    setLastFire: (scheduleId, at) => write(() => schedules.setLastFire(scheduleId, at)),
    remove: (scheduleId) => write(() => schedules.remove(scheduleId)),
  };
}
