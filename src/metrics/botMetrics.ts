import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/**
 * Seconds buckets for what should take well under Slack's 3 s (acks) up to a minute (a Reporting
 * Service query), and for how late a slot posts (seconds to an hour).
 */
const FAST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
const DELAY_BUCKETS = [1, 5, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200];

/** The kinds of acknowledged Slack input (`pivotbot_slack_ack_seconds{kind}`). */
export type AckKind = 'command' | 'action' | 'view_submission' | 'event' | 'other';

/** Values read when `/metrics` is scraped (set by the composition root once their owners exist). */
export interface ScrapeSources {
  /** Runs waiting for or holding a place in the work queue. */
  workQueueDepth?: () => number;
  /** Alert incidents open now. */
  openIncidents?: () => number;
  /** The oldest slot handed to this process's scheduler and not yet posted, skipped or given up. */
  oldestDueSlot?: () => Date | undefined;
  /** Jobs in the replicas' queue (pg-boss), by state; only with a PostgreSQL store. */
  replicaQueue?: () => Promise<{ queued: number; active: number; deferred: number }>;
  clock?: () => Date;
}

/**
 * Every metric pivotbot exports, in one registry. Labels are bounded: a report id, an alert rule
 * id, a Slack method, a Reporting Service operation, a kind, an outcome. Never a channel, a user,
 * an entity, a query or any text: those are unbounded and may be private.
 */
export interface BotMetrics {
  readonly registry: Registry;
  readonly slots: {
    /** A slot claimed for its first attempt. */
    due: Counter<'kind' | 'report'>;
    posted: Counter<'kind' | 'report'>;
    /** Posted, and late (caught up after downtime, or past its due time by retries or waits). */
    postedLate: Counter<'kind' | 'report'>;
    skippedQuiet: Counter<'kind' | 'report'>;
    /** Slots given up after their last attempt. */
    failed: Counter<'kind' | 'report'>;
    /** Attempts after the first. */
    retried: Counter<'kind' | 'report'>;
    postDelay: Histogram<'kind'>;
  };
  readonly alerts: {
    evaluations: Counter<'report' | 'rule' | 'outcome'>;
    incidentsOpened: Counter<'report' | 'rule'>;
    incidentsResolved: Counter<'report' | 'rule'>;
    explanations: Counter<'subject' | 'outcome' | 'reason'>;
  };
  readonly slack: {
    calls: Counter<'method' | 'outcome'>;
    rateLimited: Counter<'method'>;
    rateLimitWait: Counter<'method'>;
    ackSeconds: Histogram<'kind'>;
  };
  readonly reporting: {
    requests: Counter<'operation' | 'outcome'>;
    requestSeconds: Histogram<'operation'>;
    retries: Counter<'operation'>;
    asyncJobs: Counter<'state'>;
    tokenRefreshes: Counter;
  };
  readonly work: {
    busyRefusals: Counter;
    chartRenders: Counter<'outcome'>;
    chartRenderSeconds: Histogram;
  };
  /** Where the values read on scrape come from; fill in what exists. */
  readonly sources: ScrapeSources;
  /** The exposition, in Prometheus' text format. */
  exposition(): Promise<{ contentType: string; text: string }>;
}

export interface MetricsOptions {
  /** Node's default metrics (event loop, heap, RSS, GC): on in the bot, off in unit tests. */
  defaultMetrics?: boolean;
}

/**
 * A registry with every pivotbot metric. One per process (the bot's main thread); components get
 * it in their dependency object and record through its members.
 *
 * @example const metrics = createMetrics({ defaultMetrics: true });
 *          metrics.slots.posted.inc({ kind: 'digest', report: 'daily' });
 *          const { text } = await metrics.exposition();
 */
export function createMetrics(options: MetricsOptions = {}): BotMetrics {
  const registry = new Registry();
  const sources: ScrapeSources = {};
  const counter = <L extends string>(name: string, help: string, labelNames: readonly L[] = []) =>
    new Counter<L>({ name, help, labelNames, registers: [registry] });
  const histogram = <L extends string>(name: string, help: string, buckets: number[], labelNames: readonly L[] = []) =>
    new Histogram<L>({ name, help, labelNames, buckets, registers: [registry] });
  const slotLabels = ['kind', 'report'] as const;

  const metrics: BotMetrics = {
    registry,
    sources,
    slots: {
      due: counter('pivotbot_slots_due_total', 'Scheduled slots claimed for their first attempt.', slotLabels),
      posted: counter(
        'pivotbot_slots_posted_total',
        'Scheduled slots posted (digests) or evaluated (alerts).',
        slotLabels,
      ),
      postedLate: counter('pivotbot_slots_posted_late_total', 'Scheduled slots posted late (caught up).', slotLabels),
      skippedQuiet: counter(
        'pivotbot_slots_skipped_quiet_total',
        'Scheduled slots that decided not to post.',
        slotLabels,
      ),
      failed: counter('pivotbot_slots_failed_total', 'Scheduled slots given up after their last attempt.', slotLabels),
      retried: counter('pivotbot_slots_retried_total', 'Attempts at scheduled slots after the first.', slotLabels),
      postDelay: histogram(
        'pivotbot_slot_post_delay_seconds',
        'Seconds from a slot being due to its post.',
        DELAY_BUCKETS,
        ['kind'],
      ),
    },
    alerts: {
      evaluations: counter('pivotbot_alert_evaluations_total', 'Alert rule evaluations by outcome.', [
        'report',
        'rule',
        'outcome',
      ]),
      incidentsOpened: counter('pivotbot_alert_incidents_opened_total', 'Alert incidents opened.', ['report', 'rule']),
      incidentsResolved: counter('pivotbot_alert_incidents_resolved_total', 'Alert incidents resolved.', [
        'report',
        'rule',
      ]),
      explanations: counter(
        'pivotbot_explanations_total',
        'Explanations of a digest or an incident: posted, or skipped with the reason.',
        ['subject', 'outcome', 'reason'],
      ),
    },
    slack: {
      calls: counter('pivotbot_slack_api_calls_total', 'Slack Web API calls by method and outcome.', [
        'method',
        'outcome',
      ]),
      rateLimited: counter('pivotbot_slack_rate_limited_total', 'Slack Web API 429 answers by method.', ['method']),
      rateLimitWait: counter(
        'pivotbot_slack_rate_limit_wait_seconds_total',
        'Seconds Slack Web API calls waited for their turn under the rate limits.',
        ['method'],
      ),
      ackSeconds: histogram(
        'pivotbot_slack_ack_seconds',
        'Seconds from a Slack request arriving to its acknowledgement (measured in the receiver thread).',
        FAST_BUCKETS,
        ['kind'],
      ),
    },
    reporting: {
      requests: counter('pivotbot_reporting_requests_total', 'Reporting Service requests (each attempt) by outcome.', [
        'operation',
        'outcome',
      ]),
      requestSeconds: histogram(
        'pivotbot_reporting_request_seconds',
        'Seconds per Reporting Service request attempt.',
        FAST_BUCKETS,
        ['operation'],
      ),
      retries: counter('pivotbot_reporting_retries_total', 'Reporting Service requests retried.', ['operation']),
      asyncJobs: counter('pivotbot_reporting_async_jobs_total', 'Async pivot jobs waited for, by final state.', [
        'state',
      ]),
      tokenRefreshes: counter('pivotbot_reporting_token_refreshes_total', 'Reporting Service tokens minted.'),
    },
    work: {
      busyRefusals: counter(
        'pivotbot_work_queue_busy_refusals_total',
        'Requests refused because the work queue was full.',
      ),
      chartRenders: counter('pivotbot_chart_renders_total', 'Charts drawn, by outcome.', ['outcome']),
      chartRenderSeconds: histogram('pivotbot_chart_render_seconds', 'Seconds to draw one chart.', FAST_BUCKETS),
    },
    async exposition() {
      return { contentType: registry.contentType, text: await registry.metrics() };
    },
  };
  registerScrapeGauges(registry, sources);
  if (options.defaultMetrics) collectDefaultMetrics({ register: registry });
  return metrics;
}

/** The gauges read when scraped, from `sources`. */
function registerScrapeGauges(registry: Registry, sources: ScrapeSources): void {
  const now = () => (sources.clock ?? (() => new Date()))().getTime();
  new Gauge({
    name: 'pivotbot_work_queue_depth',
    help: 'Runs working or waiting in the work queue.',
    registers: [registry],
    collect() {
      this.set(sources.workQueueDepth?.() ?? 0);
    },
  });
  new Gauge({
    name: 'pivotbot_alert_incidents_open',
    help: 'Alert incidents open now.',
    registers: [registry],
    collect() {
      this.set(sources.openIncidents?.() ?? 0);
    },
  });
  new Gauge({
    name: 'pivotbot_slot_oldest_due_seconds',
    help: 'Seconds since the oldest slot still due (not posted, skipped or given up) was due; 0 when none.',
    registers: [registry],
    collect() {
      const oldest = sources.oldestDueSlot?.();
      this.set(oldest ? Math.max(0, (now() - oldest.getTime()) / 1000) : 0);
    },
  });
  new Gauge({
    name: 'pivotbot_replica_queue_jobs',
    help: "Jobs in the replicas' queue (pg-boss) by state; absent without a PostgreSQL store.",
    labelNames: ['state'],
    registers: [registry],
    async collect() {
      if (!sources.replicaQueue) return;
      const depth = await sources.replicaQueue().catch(() => undefined);
      if (!depth) return;
      for (const [state, value] of Object.entries(depth)) this.set({ state }, value);
    },
  });
}

/**
 * The name of every metric pivotbot exports (the dashboard and the alerting rules may name only
 * these; a histogram's series add `_bucket`, `_sum` and `_count`).
 *
 * @example metricNames().includes('pivotbot_slots_posted_total'); // true
 */
export async function metricNames(): Promise<string[]> {
  const metrics = createMetrics({ defaultMetrics: true });
  const json = await metrics.registry.getMetricsAsJSON();
  return json.map((metric) => metric.name).sort();
}
