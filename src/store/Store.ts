import type {
  AlertEvaluation,
  AlertIncident,
  AsyncJob,
  JobStatus,
  Run,
  RunTrigger,
  ScheduleFire,
  StoredError,
  Subscription,
} from './storeSchema.js';

/**
 * The typed face of the store, one small repository per record kind. The whole store lives in
 * memory: reads are synchronous and never touch the disk. Every write applies its change in
 * memory at once and returns a promise that resolves when that change is durable on disk (or
 * rejects with `StoreWriteFailedError`, in which case the change stays in memory and is
 * written by the next successful write). Returned records are frozen; change them through the
 * repository.
 */
export interface Store {
  readonly jobs: JobsRepository;
  readonly subscriptions: SubscriptionsRepository;
  readonly runs: RunsRepository;
  readonly incidents: IncidentsRepository;
  readonly schedules: SchedulesRepository;
  /** `memory` or the file path. */
  readonly location: string;
  /** Writes the in-memory state if an earlier write failed; resolves when it is durable. */
  flush(): Promise<void>;
  /** Waits for pending writes, flushes, and releases the lock. Later calls throw STORE_CLOSED. */
  close(): Promise<void>;
}

export interface NewAsyncJob {
  id: string;
  request: Record<string, unknown>;
  requester: string;
  channel: string;
  threadTs?: string;
}

export interface AsyncJobPatch {
  status?: JobStatus;
  resultFile?: string;
  error?: StoredError;
  threadTs?: string;
}

export interface JobsRepository {
  /** Records a new job as `queued`; throws STORE_CONFLICT if the id is taken. */
  create(job: NewAsyncJob): Promise<AsyncJob>;
  /** Changes status/result; `startedAt`/`finishedAt` are set when the status moves there. */
  update(id: string, patch: AsyncJobPatch): Promise<AsyncJob>;
  get(id: string): AsyncJob | undefined;
  /** Every job, oldest first. Finished jobs beyond the history limit are dropped, oldest first. */
  list(): readonly AsyncJob[];
  /** Jobs still queued or running (for resuming after a restart). */
  listActive(): readonly AsyncJob[];
}

export interface NewSubscription {
  report: string;
  channel: string;
  /** Cron expression overriding the report's schedule (older form of `cron`). */
  schedule?: string;
  /** Its own daily time, `HH:MM`. */
  at?: string;
  /** Its own cron expression. */
  cron?: string;
  /** Zone of `at` / `cron`. */
  timezone?: string;
  /** A saved query's text (its report id is `saved-<name>`, or `watch-<name>` for a watch). */
  query?: string;
  /** A watch's alert rule (as a report file's `alerts` entry). */
  watch?: Record<string, unknown>;
  /** A personal watch's owner (its `channel` is their DM with the bot). */
  owner?: string;
  createdBy: string;
}

export interface SubscriptionsRepository {
  /**
   * Subscribes a channel to a report. One subscription per (report, channel): subscribing
   * again replaces its own timing (`schedule`, `at`, `cron`, `timezone`: what is not given is
   * cleared) and returns `created: false`.
   */
  add(subscription: NewSubscription): Promise<{ subscription: Subscription; created: boolean }>;
  /** Removes the channel's subscription to the report; resolves to what was removed, if any. */
  remove(report: string, channel: string): Promise<Subscription | undefined>;
  get(id: string): Subscription | undefined;
  find(report: string, channel: string): Subscription | undefined;
  list(): readonly Subscription[];
  listByReport(report: string): readonly Subscription[];
  listByChannel(channel: string): readonly Subscription[];
}

export interface NewRun {
  report: string;
  trigger: RunTrigger;
  idempotencyKey: string;
  scheduledFor?: string;
  subscriptionId?: string;
  channel?: string;
  /** Who asked for a manual run. */
  requester?: string;
  /** The `/pivot` text of a manual run. */
  command?: string;
}

export interface RunOutcome {
  status: 'succeeded' | 'failed' | 'skipped';
  error?: StoredError;
  messageTs?: string;
}

export interface RunsRepository {
  /**
   * Starts a run unless its idempotency key already has one that is running, succeeded or was
   * skipped: then that run comes back with `started: false` and nothing is written. A key whose
   * last run failed starts a new attempt.
   */
  start(run: NewRun): Promise<{ run: Run; started: boolean }>;
  /** Records the outcome, finish time and duration of a running run. */
  finish(id: string, outcome: RunOutcome): Promise<Run>;
  /** Links a run to the async job it became (a restart lets the job's outcome finish the run). */
  linkJob(id: string, jobId: string): Promise<Run>;
  get(id: string): Run | undefined;
  /** The latest attempt with this key. */
  findByIdempotencyKey(key: string): Run | undefined;
  /** A report's runs, newest first; history is bounded per report (finished runs only). */
  listByReport(report: string, limit?: number): readonly Run[];
  /** Runs still marked running, e.g. interrupted by a crash. */
  listUnfinished(): readonly Run[];
  /** Runs still marked running that are linked to this job. */
  listUnfinishedByJob(jobId: string): readonly Run[];
}

export interface NewIncident {
  ruleId: string;
  entityKey: string;
  channel: string;
  /** The breaching value that opened the incident. */
  value: number;
  threadTs?: string;
  /** When the value was observed; defaults to now. */
  at?: string;
}

export interface IncidentPatch {
  threadTs?: string;
  /** A new observation, appended to `values` (bounded). */
  value?: number;
  at?: string;
  state?: 'resolved';
}

export interface IncidentsRepository {
  /**
   * Opens an incident for (rule, entity) unless one is already open: then that one comes back
   * with `opened: false` and nothing is written.
   */
  open(incident: NewIncident): Promise<{ incident: AlertIncident; opened: boolean }>;
  update(id: string, patch: IncidentPatch): Promise<AlertIncident>;
  get(id: string): AlertIncident | undefined;
  findOpen(ruleId: string, entityKey: string): AlertIncident | undefined;
  listOpen(): readonly AlertIncident[];
  /** A rule's incidents, newest first; resolved ones are bounded per rule. */
  listByRule(ruleId: string): readonly AlertIncident[];
  /** The incidents of one rule of one report, newest first (records without `reportId` are older files'). */
  listByReportRule(reportId: string, ruleId: string): readonly AlertIncident[];
  /**
   * Records one evaluation of a rule in a single write: the incidents it opened or changed
   * (upserted by id, whole records as the evaluator returns them) and the rule's evaluation
   * record (last run, counts, pending streaks). Every record is checked before anything changes.
   */
  applyEvaluation(write: EvaluationWrite): Promise<void>;
  /** Several rules' evaluations (one scheduler tick) in a single write. */
  applyEvaluations(writes: readonly EvaluationWrite[]): Promise<void>;
  /** Replaces one incident by id, or adds it (ack, snooze, the thread ts once posted). */
  save(incident: AlertIncident): Promise<AlertIncident>;
  /** The last evaluation of a rule, or undefined when it was never evaluated. */
  getEvaluation(reportId: string, ruleId: string): AlertEvaluation | undefined;
  listEvaluations(): readonly AlertEvaluation[];
}

export interface EvaluationWrite {
  evaluation: AlertEvaluation;
  /** New or changed incidents of this rule; unchanged ones may be left out. */
  incidents: readonly AlertIncident[];
}

export interface SchedulesRepository {
  getLastFire(scheduleId: string): string | undefined;
  setLastFire(scheduleId: string, at: string): Promise<ScheduleFire>;
  list(): readonly ScheduleFire[];
  /** Forgets a schedule that no longer exists. */
  remove(scheduleId: string): Promise<boolean>;
}

/** How much history is kept; older finished records are dropped, oldest first. */
export interface StoreLimits {
  /** Finished runs kept per report (default 200). */
  runsPerReport: number;
  /** Finished (succeeded/failed/cancelled) jobs kept in all (default 500). */
  finishedJobs: number;
  /** Resolved incidents kept per rule (default 100). */
  resolvedIncidentsPerRule: number;
  /** Observations kept per incident (default 50). */
  valuesPerIncident: number;
}

export const DEFAULT_STORE_LIMITS: StoreLimits = {
  runsPerReport: 200,
  finishedJobs: 500,
  resolvedIncidentsPerRule: 100,
  valuesPerIncident: 50,
};
