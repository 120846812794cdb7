// Why a metric moved: drivers found through a narrow group-by source, mix/rate for ratios, a query budget.
export { DEFAULT_BUDGET, explain } from './explain.js';
export { explanationJson, formatExplanation } from './formatExplanation.js';
export {
  explainKind,
  METRIC_DECISIONS,
  type MetricDecision,
  MetricNotExplainableError,
  type MetricPart,
  type MetricParts,
  metricParts,
  type NotExplainableReason,
} from './metricParts.js';
export {
  type Leaf,
  type LeafTable,
  type LeafTableOptions,
  leafCsvSource,
  type MeasurePart,
  parseLeafTable,
} from './sources/leafCsvSource.js';
export {
  createReportingSource,
  DEFAULT_REPORTING_DIMENSIONS,
  type Period,
  type ReportingGroupSource,
  type ReportingSourceOptions,
  type SharedPivotArguments,
} from './sources/reportingSource.js';
export type {
  Driver,
  ExplainRequest,
  Explanation,
  GroupQuery,
  GroupRow,
  GroupSource,
  Measure,
  Where,
} from './types.js';
export { describeWhere, orderWhere, valuesOf, valueText } from './where.js';
export {
  type DriverWords,
  diffuseText,
  driverWords,
  leadText,
  mechanism,
  offsetText,
  type RatioWords,
  ratioWords,
  restatesVerdict,
  shownParts,
} from './words.js';
