// Rendering: charts (PNG), Block Kit messages, tables, number formatting and the HTML preview, from a ReportView.

export { type AlertChartInput, alertChartSpec, alertChartView, chartLimits, trendLimits } from './alertChart.js';
export {
  ACTION_IDS,
  ALERT_ACTION_PATTERN,
  MODAL_ACTION_PATTERN,
  RANGE_ACTION_PATTERN,
  RANGE_BUTTONS,
  type ReportActionValue,
  SNOOZE_ACTIONS,
} from './blocks/actionIds.js';
export { type AdhocOptions, adhocMessage } from './blocks/adhocMessage.js';
export {
  type AlertMessageInput,
  type AlertReplyKind,
  type AlertState,
  alertMessage,
  alertParentMessage,
  alertReplyMessage,
  conditionText,
  formatWhen,
  mentionText,
} from './blocks/alertMessages.js';
export {
  type AlertsSummaryInput,
  alertsSummaryMessage,
  type SummaryIncident,
  type SummaryRule,
} from './blocks/alertsSummaryMessage.js';
export {
  type DigestOptions,
  digestMessage,
  fallbackText,
  headlineFields,
  withBecause,
} from './blocks/digestMessage.js';
export {
  type AllQuiet,
  allQuietMessage,
  type DigestFailure,
  digestFailureMessage,
  lateNote,
} from './blocks/digestNotices.js';
export { type ErrorMessageInput, errorMessage } from './blocks/errorMessage.js';
export {
  BECAUSE_PIECES,
  becauseLine,
  changeText,
  type DriverText,
  type ExplainedMetric,
  type ExplanationDriver,
  type ExplanationMessageInput,
  type ExplanationSummary,
  type ExplanationWords,
  explanationChartView,
  explanationMessage,
  RANKING_DRIVERS,
  rankingText,
  signedValue,
} from './blocks/explanationMessages.js';
export {
  formatElapsed,
  type JobProgressInput,
  type JobState,
  jobProgressMessage,
} from './blocks/jobProgressMessage.js';
export { monospaceTable } from './blocks/monospace.js';
export {
  monthName,
  neededText,
  type PacingFigures,
  pacingLine,
  pacingStatement,
  shareText,
} from './blocks/pacingLine.js';
export { type BuiltTable, buildTable, type TableOptions, type TableStyle, tableCells } from './blocks/table.js';
export { deltaText, escapeMrkdwn, mrkdwnContext, mrkdwnSection, TONE_EMOJI } from './blocks/text.js';
export type * from './blocks/types.js';
export { axesByUnit, buildChartConfig, MAX_SPLIT_SERIES, type SeriesDraft } from './buildChartConfig.js';
export {
  CHART_PROCESS_EXEC_ARGV,
  CHART_PROCESS_MALLOC_ENV,
  ChartProcessRenderer,
  type ChartProcessRendererOptions,
  defaultChartProcessEntry,
} from './ChartProcessRenderer.js';
export {
  CHART_FONT_FAMILY,
  ChartRenderer,
  type ChartRendererOptions,
  type RenderedChart,
  sharedChartRenderer,
  type ViewChartKind,
  type ViewChartRenderer,
  viewMayHaveChart,
} from './ChartRenderer.js';
export { type ChartChannel, type ChartProcessServerOptions, serveChartRequests } from './chartProcessServer.js';
export { type AnyChartConfig, CHART_HEIGHTS, CHART_WIDTH, type ChartSpec, PIXEL_RATIO } from './chartStyle.js';
export {
  arrowFor,
  type Direction,
  deltaTone,
  type FormatOptions,
  type FormatUnit,
  formatCompactNumber,
  formatDelta,
  formatTime,
  formatTimeShort,
  formatValue,
  NULL_TEXT,
  type Tone,
  toNumber,
} from './format.js';
export { type PreviewEntry, type PreviewFile, type PreviewPage, renderHtmlPreview } from './htmlPreview.js';
export { escapeHtml, mrkdwnToHtml } from './mrkdwnToHtml.js';
export {
  type PacingChartDay,
  type PacingChartInput,
  pacingChartAlt,
  pacingChartSpec,
  pacingChartView,
  pacingLimit,
} from './pacingChart.js';
export { PALETTE, seriesColour } from './palette.js';
export {
  blockCharacters,
  cellText,
  type FitOptions,
  type FitResult,
  fitMessage,
  fitText,
  SLACK_LIMITS,
} from './slackLimits.js';
