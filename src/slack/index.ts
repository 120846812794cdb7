// The Slack app: /pivot commands, buttons, App Home, async jobs in threads, and the gateway to the Web API.

export { type AlertsOverviewInput, alertsOverview } from './alertsOverview.js';
export {
  deliverOwed,
  editParents,
  ensureParents,
  findAlertParent,
  findAlertReply,
  messageContext,
  parentsOf,
  type RuleThreads,
  replyMetadata,
  ruleRange,
  type ThreadDeps,
  threadUrl,
} from './alertThreads.js';
export { parseActionValue, type RunningSlackApp, type SlackAppOptions, startSlackApp } from './createSlackApp.js';
export { RecentKeys } from './dedupe.js';
export {
  DIGEST_EVENT,
  type DigestDeps,
  deliverDigest,
  digestMetadata,
  findDigestPost,
  postDigestFailure,
} from './deliverDigest.js';
export {
  type DeliveryDeps,
  type PostDeps,
  postView,
  type RunPlace,
  type RunTarget,
  runAndDeliver,
  TABLE_ROWS,
} from './deliverRun.js';
export { type AlertSlotOutcome, deliverOwedAlerts, deliverTransitions, evaluateAlertSlot } from './evaluateAlerts.js';
export { type HomeInput, homeView, recentRuns } from './homeView.js';
export { helpMessage, listMessage, scheduleText, showMessage, statusMessage } from './infoMessages.js';
export {
  type ButtonClick,
  type CommandContext,
  failureMessage,
  PivotCommands,
  type PivotCommandsDeps,
} from './PivotCommands.js';
export { parseSlashCommand, type SlashCommand } from './parseSlashCommand.js';
export { IMAGE_ERRORS, IMAGE_RETRY_DELAYS_MS, type ImagePost, postWithImage } from './postWithImage.js';
export { type Lane, PacingError } from './RatePacer.js';
export {
  limitFor,
  paceLowerBoundMs,
  type RateLimitSettings,
  SLACK_RATE_LIMITS,
  SLACK_RATE_SETTINGS,
} from './rateLimits.js';
export { resumeJobs } from './resumeJobs.js';
export {
  type CallOptions,
  type HistoryMessage,
  type HistoryOptions,
  type MessageMetadata,
  type MethodStats,
  SlackDeliveryError,
  type SlackGateway,
  toDeliveryError,
  type UploadFile,
} from './SlackGateway.js';
export {
  savedName,
  savedQueriesOf,
  savedQueryReport,
  savedQueryYaml,
  WATCH_PREFIX,
  watchesOf,
  watchId,
  withSavedQueries,
  withSavedQueryReports,
} from './savedQueries.js';
export { SAVED_QUERY_PREFIX, savedQueryId } from './scheduleModal.js';
export { type GatewayOptions, MAX_WAIT_MS, SLACK_RETRY, slackGatewayFor, WebApiGateway } from './WebApiGateway.js';
export { WorkQueue } from './WorkQueue.js';
