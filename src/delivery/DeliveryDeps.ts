/**
 * What delivering a run needs, and where a run posts: shared by run-and-deliver, posting, digests,
 * alert threads and resumed jobs.
 */
import type { Logger } from '../core/index.js';
import type { BotMetrics } from '../metrics/index.js';
import type { ViewChartRenderer } from '../render/index.js';
import type { ReportingClient } from '../reporting/index.js';
import type { SlackGateway } from '../slackapi/index.js';
import type { Store } from '../store/index.js';

/** Everything a delivery talks to, in one object (the clock and the shutdown signal injected). */
export interface DeliveryDeps {
  slack: SlackGateway;
  client: ReportingClient;
  store: Store;
  /** Draws the charts: in a child process in the bot (`ChartProcessRenderer`). */
  charts: ViewChartRenderer;
  logger: Logger;
  clock: () => Date;
  /** Where runs write their CSV before it is uploaded (one folder per run, removed after). */
  workDir: string;
  defaultTimeZone: string;
  /** Aborted on shutdown: in-flight polling stops and its job stays active for the next start. */
  signal: AbortSignal;
  /** Waits before showing a just-uploaded chart again when Slack refuses it (default `IMAGE_RETRY_DELAYS_MS`). */
  imageRetryDelaysMs?: readonly number[];
  /** Alert evaluations, incidents opened and resolved, explanations posted or skipped (the bot's metrics). */
  metrics?: BotMetrics;
}

/** Where a run's result goes, and who asked. */
export interface RunPlace {
  channel: string;
  user: string;
  /** Post into this thread instead of the channel (the CSV button). */
  threadTs?: string;
  /** Called once when the run becomes an async job (it will mostly wait from then on). */
  onAsync?: () => void;
  /** The store's run of a manual command: linked to its job, so a restart can finish it. */
  runId?: string;
}
