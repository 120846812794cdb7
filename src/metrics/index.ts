// The Prometheus registry and the names of every metric pivotbot exports (prom-client), one module.

export {
  type AckKind,
  type BotMetrics,
  createMetrics,
  type MetricsOptions,
  metricNames,
  type ScrapeSources,
} from './botMetrics.js';
