import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Config, configSecrets, loadConfig } from '../config/index.js';
import { createLogger, invariant, type Logger, toError } from '../core/index.js';
import {
  type DeliveryDeps,
  deliverDigest,
  deliverOwedAlerts,
  evaluateAlertSlot,
  postDigestFailure,
  resumeJobs,
} from '../delivery/index.js';
import { type BotMetrics, createMetrics } from '../metrics/index.js';
import { withSavedQueries } from '../query/index.js';
import {
  ChartProcessRenderer,
  defaultChartProcessEntry,
  sharedChartRenderer,
  type ViewChartRenderer,
} from '../render/index.js';
import { reportCache } from '../reports/index.js';
import { createScheduler, listAlertSchedules, listSchedules, type Scheduler } from '../scheduler/index.js';
import { PivotCommands, startSlackApp } from '../slack/app/index.js';
import type { RateLimitSettings } from '../slackapi/index.js';
import { isReplicaStore, openStore, type ReplicaLeases, type Store } from '../store/index.js';
import { botWorkQueue, measuredCharts, readOnScrape } from './botMetrics.js';
import { openReporting } from './openReporting.js';

export { BOT_MALLOC_ENV, BOT_NODE_FLAGS } from './botProcess.js';

export interface BotOptions {
  env: NodeJS.ProcessEnv;
  logger?: Logger;
  /** Where runs write CSV files before upload (default: the OS temp folder). */
  workDir?: string;
  clock?: () => Date;
  /** Draws charts; by default a child process (`ChartProcessRenderer`), stopped with the bot. */
  charts?: ViewChartRenderer;
  /** Runs (query, render, upload) working at once; more wait their turn so Slack gets fast acks. Default 4. */
  concurrency?: number;
  /** Web API retry timings (tests shorten them). */
  slackRetry?: { retries: number; minTimeout: number; maxTimeout: number; maxRetryTime: number };
  /** The Slack rate limits to pace to (default Slack's own; tests shorten the window). */
  slackRateLimits?: RateLimitSettings;
  /** Where the Slack receiver thread's compiled entry is, or `false` to receive in the bot's thread (see startSlackApp). */
  receiverThread?: URL | false;
  /** Scheduler timing for tests (timers on the injected clock); by default real timers. */
  scheduler?: { setTimer?: (fn: () => void, ms: number) => () => void; maxWakeMs?: number; concurrency?: number };
  /** How long shutdown lets digest posts in flight finish (default 10 s); the rest is caught up. */
  shutdownGraceMs?: number;
  /** The registry `GET /metrics` serves (default: a new one with Node's default metrics). */
  metrics?: BotMetrics;
}

export interface RunningBot {
  config: Config;
  /** The HTTP port: Slack's and `/healthz`'s, or in Socket Mode `/healthz`'s alone (on `PORT` too). */
  port: number | undefined;
  store: Store;
  /** Posts the digests of reports and subscriptions on their schedules. */
  scheduler: Scheduler;
  /** Stops taking requests, cancels polling (jobs stay resumable), closes the store and the sandbox. */
  stop(): Promise<void>;
}

/**
 * Starts pivotbot: configuration (stops with one clear message when wrong), the store (refuses a
 * store it cannot read or that another bot holds), the Reporting Service or the embedded sandbox,
 * the Slack app, the jobs a previous run left unfinished, and the scheduler (which first catches up
 * the digests missed while the bot was down).
 *
 * @example const bot = await startBot({ env: process.env }); process.on('SIGTERM', () => bot.stop());
 */
export async function startBot(options: BotOptions): Promise<RunningBot> {
  const config = loadConfig(options.env, { requireSlack: true });
  const slack = config.slack;
  invariant(slack, 'loadConfig with requireSlack returns Slack settings');
  const secrets = configSecrets(config);
  const logger = options.logger ?? createLogger({ level: config.logLevel, secrets });
  const clock = options.clock ?? (() => new Date());
  const metrics = options.metrics ?? createMetrics({ defaultMetrics: true });
  if (config.admins.length === 0) {
    logger.warn(
      'PIVOTBOT_ADMINS is empty: nobody can subscribe channels to digests or manage alert rules. Set it to the Slack user ids of the admins, comma-separated (docs/slack.md, "First run")',
    );
  }
  const store = await openStore({
    path: config.storePath,
    logger,
    clock,
    leaseMs: config.leaseMs,
    heartbeatSeconds: config.heartbeatSeconds,
  });
  // PostgreSQL: one of any number of replicas; scheduled slots go through the store's job queue,
  // and async jobs a dead replica leaves are adopted through the leases.
  const replica = isReplicaStore(store) ? store : undefined;
  const closers: Array<() => Promise<void>> = [() => store.close()];
  const shutdown = new AbortController();
  try {
    const reporting = await openReporting(config, logger, metrics);
    closers.unshift(() => reporting.close());
    if (reporting.sandbox) logger.warn('no REPORTING_* credentials: using the embedded sandbox (synthetic data)');
    // Saved queries ("Schedule this") are reports too, read from the store at every load.
    const loadDefinitions = withSavedQueries(
      reportCache(config.reportsDir, { now: clock, defaultTimeZone: config.timezone }),
      () => store.subscriptions.list(),
      clock,
      config.timezone,
    );
    const initial = await loadDefinitions();
    for (const problem of initial.problems)
      logger.warn({ file: problem.file, line: problem.line }, `report definition problem: ${problem.message}`);
    logger.info({ reports: initial.reports.length, broken: initial.broken.length }, 'report definitions loaded');

    const settings = { admins: config.admins, timezone: config.timezone, sandbox: reporting.sandbox };
    const charts = measuredCharts(options.charts ?? botCharts(closers), metrics);
    readOnScrape(metrics, store, replica?.queue, clock);
    const base = {
      client: reporting.client,
      store,
      charts,
      logger,
      clock,
      workDir: options.workDir ?? join(tmpdir(), 'pivotbot'),
      defaultTimeZone: config.timezone,
      signal: shutdown.signal,
      metrics,
    };
    const app = await startSlackApp({
      slack,
      port: config.port,
      commands: (gateway) =>
        new PivotCommands({
          ...base,
          slack: gateway,
          runs: botWorkQueue(metrics, options.concurrency, { maxWaiting: config.maxQueued, signal: shutdown.signal }),
          loadReports: loadDefinitions,
          settings,
        }),
      home: { store, loadReports: loadDefinitions, timezone: config.timezone, sandbox: reporting.sandbox },
      logger,
      secrets,
      ...(options.slackRetry ? { retry: options.slackRetry } : {}),
      ...(options.slackRateLimits ? { rateLimits: options.slackRateLimits } : {}),
      ...(options.receiverThread !== undefined ? { receiverThread: options.receiverThread } : {}),
      metrics,
    });
    closers.unshift(async () => {
      await app.stop();
      // Calls still waiting for a turn under the rate limits fail now instead of after shutdown.
      app.gateway.close();
    });
    const deliveryDeps = { ...base, slack: app.gateway };
    if (replica) closers.unshift(adoptJobsEvery(replica.leases, deliveryDeps, logger));
    else {
      void resumeJobs(deliveryDeps)
        .then((count) => count > 0 && logger.info({ count }, 'resumed unfinished async jobs'))
        .catch((error: unknown) => logger.error({ err: toError(error) }, 'resuming jobs failed'));
    }

    // Digests wait behind interactive answers at Slack's rate limits (the scheduled lane); a failure
    // notice that cannot reach its channel goes to the admins when no subscriber is known.
    const scheduled = app.gateway.withLane('scheduled');
    const digestDeps = { ...base, slack: scheduled, loadReports: loadDefinitions, admins: config.admins };
    const scheduler = createScheduler({
      // Digests and alert evaluations share one scheduler: the same claims, catch-up, retries and pool.
      listSchedules: async () => {
        const loaded = await loadDefinitions();
        const digests = listSchedules(loaded, store.subscriptions.list(), { timezone: config.timezone });
        const alerts = listAlertSchedules(loaded, { timezone: config.timezone });
        return {
          schedules: [...digests.schedules, ...alerts.schedules],
          problems: [...digests.problems, ...alerts.problems],
        };
      },
      store,
      runSlot: (run) =>
        run.spec.kind === 'alert' ? evaluateAlertSlot(run, digestDeps) : deliverDigest(run, digestDeps),
      // A rule whose evaluations keep failing shows as not run lately in /pivot alerts; the log has why.
      onGiveUp: (giveUp) => (giveUp.spec.kind === 'alert' ? undefined : postDigestFailure(giveUp, digestDeps)),
      clock,
      logger,
      ...(replica ? { queue: replica.queue } : {}),
      metrics,
      ...options.scheduler,
    });
    // First in the shutdown order: posts in flight finish while Slack and the store are still open.
    closers.unshift(() => scheduler.stop({ graceMs: options.shutdownGraceMs ?? 10_000 }));
    await scheduler.start();
    // Replies and parent edits an earlier process owed (crash, Slack failure) go out now, not at the
    // rule's next evaluation. With replicas the next evaluation does it (one claimant per slot).
    if (!replica) {
      void deliverOwedAlerts(digestDeps)
        .then((count) => count > 0 && logger.info({ count }, 'delivered alert notices owed by an earlier process'))
        .catch((error: unknown) => logger.error({ err: toError(error) }, 'delivering owed alert notices failed'));
    }
    let stopped: Promise<void> | undefined;
    return {
      config,
      port: app.port,
      store,
      scheduler,
      stop() {
        stopped ??= (async () => {
          shutdown.abort();
          for (const close of closers) {
            try {
              await close();
            } catch (error) {
              logger.error({ err: toError(error) }, 'shutdown step failed');
            }
          }
        })();
        return stopped;
      },
    };
  } catch (error) {
    shutdown.abort();
    for (const close of closers) await close().catch(() => undefined);
    throw error;
  }
}

/** How often a replica looks for work whose holder stopped: twice per lease. */
const sweepEveryMs = (leases: ReplicaLeases): number => Math.max(250, Math.floor(leases.leaseMs / 2));

/**
 * Replica mode's `resumeJobs`: instead of every unfinished job and manual run at start-up (which
 * other live replicas may be running), only those whose holder's lease expired, once adopted by
 * this replica, at start and then twice per lease. Returns the closer that stops the sweep.
 */
function adoptJobsEvery(leases: ReplicaLeases, deps: DeliveryDeps, logger: Logger): () => Promise<void> {
  const { store } = deps;
  let sweeping: Promise<void> | undefined;
  const sweep = async (): Promise<void> => {
    const runs = new Set<string>();
    const jobs = new Set<string>();
    for (const id of await leases.orphans('run')) {
      if (store.runs.get(id)?.trigger === 'manual' && (await leases.adopt('run', id))) runs.add(id);
    }
    for (const id of await leases.orphans('job')) {
      if (store.jobs.get(id) !== undefined && (await leases.adopt('job', id))) jobs.add(id);
    }
    if (runs.size + jobs.size === 0) return;
    logger.info({ runs: runs.size, jobs: jobs.size }, 'adopting async jobs and runs of a stopped replica');
    // resumeJobs over just the adopted ones: the same delivery, told what is this replica's now.
    // Not awaited: a job may poll for long; what is adopted is leased to this replica meanwhile.
    void resumeJobs(deps, { runs, jobs }).catch((error: unknown) =>
      logger.error({ err: toError(error) }, 'resuming adopted jobs failed'),
    );
  };
  const run = () => {
    if (sweeping || deps.signal.aborted) return;
    sweeping = sweep()
      .catch((error: unknown) =>
        logger.warn({ err: toError(error) }, 'adopting jobs of stopped replicas failed; retrying'),
      )
      .finally(() => {
        sweeping = undefined;
      });
  };
  run();
  const timer = setInterval(run, sweepEveryMs(leases));
  timer.unref();
  return async () => clearInterval(timer);
}

/**
 * The bot's chart renderer: a child process, so drawing never blocks the thread that handles Slack
 * events and uploads; in the bot's own thread when running from the TypeScript sources (jest),
 * where node cannot run the entry.
 */
function botCharts(closers: Array<() => Promise<void>>): ViewChartRenderer {
  const entry = defaultChartProcessEntry();
  if (!entry) return sharedChartRenderer();
  const renderer = new ChartProcessRenderer(entry);
  closers.push(() => renderer.close());
  return renderer;
}
