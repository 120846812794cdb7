/**
 * The bot's metrics, wired: the registry (`src/metrics/`) and the values it reads on scrape from
 * the parts `startBot` composes. Components record into it through their dependency objects.
 */
import type { BotMetrics } from '../metrics/index.js';
import type { ViewChartRenderer } from '../render/index.js';
import { WorkQueue, type WorkQueueOptions } from '../slack/app/index.js';
import type { SlotQueue, Store } from '../store/index.js';

/**
 * Charts drawn through `charts`, counted by outcome (`drawn`, `none`: the view has no chart,
 * `failed`) with the time each drawing took.
 *
 * @example const charts = measuredCharts(new ChartProcessRenderer(entry), metrics);
 */
export function measuredCharts(charts: ViewChartRenderer, metrics: BotMetrics): ViewChartRenderer {
  const { chartRenders, chartRenderSeconds } = metrics.work;
  return {
    async renderView(view, kind) {
      const started = performance.now();
      try {
        const chart = await charts.renderView(view, kind);
        chartRenders.inc({ outcome: chart ? 'drawn' : 'none' });
        if (chart) chartRenderSeconds.observe((performance.now() - started) / 1000);
        return chart;
      } catch (error) {
        chartRenders.inc({ outcome: 'failed' });
        throw error;
      }
    },
  };
}

/**
 * What `/metrics` reads when scraped: the open incidents in the store, and with replicas the
 * queue's depth (every replica reports the same shared figures: aggregate them with `max`).
 */
export function readOnScrape(metrics: BotMetrics, store: Store, queue: SlotQueue | undefined, clock: () => Date): void {
  metrics.sources.clock = clock;
  metrics.sources.openIncidents = () => store.incidents.listOpen().length;
  const depth = queue?.depth?.bind(queue);
  if (depth) metrics.sources.replicaQueue = depth;
}

/**
 * The bot's work queue of `/pivot` runs (`concurrency` at once, default 4), its busy refusals
 * counted and its depth read by `/metrics`.
 *
 * @example const runs = botWorkQueue(metrics, 4, { maxWaiting: 100, signal });
 */
export function botWorkQueue(
  metrics: BotMetrics,
  concurrency: number | undefined,
  options: WorkQueueOptions,
): WorkQueue {
  const queue = new WorkQueue(concurrency ?? 4, { ...options, onRefused: () => metrics.work.busyRefusals.inc() });
  metrics.sources.workQueueDepth = () => queue.size;
  return queue;
}
