// Report definitions (YAML): schema, loading with file:line errors, date ranges, compilation, comparison, running a report, the ReportView it produces and the CSV of its rows.

export type * from '../view/index.js';
export {
  type AlertPacing,
  type AlertRule,
  alertSchema,
  compoundOf,
  PACING_RECOVERY_SHARE,
  pacingRecovery,
  type RuleCondition,
  ruleChange,
} from './alertSchema.js';
export { budgetsSchema, MONTH_PATTERN, planFor, type ReportBudgets } from './budgetSchema.js';
export { buildView, filtersText, type ViewInput } from './buildView.js';
export { canonicalDimension, canonicalMetric, findInputField, inputFieldNames } from './canonical.js';
export { type CheckOptions, checkReport, type DefinitionProblem, segments } from './checkReport.js';
export { chooseMode, estimateRows, type ModeChoice, type ModeOptions } from './chooseMode.js';
export { compareRows, compareTotals, delta, type JoinKeys } from './comparison.js';
export { type CompiledReport, type CompileOptions, compileReport } from './compileReport.js';
export { type CsvColumn, csvCell, csvLine, toCsv, writeCsv } from './csv.js';
export { describeColumn, humanize, totalsFromRows } from './describeColumns.js';
export { findReport } from './findReport.js';
export {
  errorQuantiles,
  FORECAST_ERROR_QUANTILES,
  type ForecastInterval,
  forecastInterval,
  INTERVAL_LEVEL,
} from './forecastInterval.js';
export {
  ARRIVED_SHARE,
  type DayValue,
  forecastMonthEnd,
  type MonthForecast,
  type PacingDay,
  pacingPath,
  pacingShare,
  WEIGHT_DAYS,
} from './forecastSpend.js';
export { formatCell, formatViewTable } from './formatViewTable.js';
export {
  formatReportProblem,
  type LoadedReports,
  type LoadOptions,
  loadReports,
  type ReportProblem,
} from './loadReports.js';
export {
  type MonthPacing,
  monthPacing,
  monthPacingPath,
  type PacingPlan,
  pacingPlan,
  pacingRequest,
} from './monthPacing.js';
export { outputKeys, resolveKey } from './outputKeys.js';
export { type ParseOptions, parseReportText, pathText } from './parseReport.js';
export { parseCsvRows, readCsvRows } from './readCsvRows.js';
export { type ReportCacheOptions, reportCache } from './reportCache.js';
export {
  type Comparison,
  previousRange,
  RANGE_NAMES,
  type RangeSpec,
  RangeSpecError,
  type ResolvedRange,
  resolveRange,
} from './resolveRange.js';
export { type RunDeps, type RunOptions, runReport } from './runReport.js';
export {
  type FieldSpec,
  type LoadedReport,
  type ReportDefinition,
  type ReportOwners,
  type ReportPresent,
  type ReportQuery,
  type ReportSchedule,
  reportSchema,
} from './schema.js';
export { asyncable, toAsyncRequest } from './toAsyncRequest.js';
