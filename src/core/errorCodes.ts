/**
 * Every error code pivotbot gives, in one list (as bolt-js keeps its `ErrorCode`): a
 * `PivotbotError` takes its code from here, and a failure recorded in a run, job or evaluation
 * record (`storedError`) carries one of these, never an upstream's own code (`ENOENT`, `23505`,
 * Slack's `channel_not_found`, which stays in the error's fields).
 *
 * The strings are stored in run records, printed in logs and named in docs: add codes, never
 * rename one.
 *
 * @example throw new UserInputError(ErrorCode.ReportNotFound, `No report named "${name}".`);
 */
export const ErrorCode = {
  // core: what has no more specific code
  /** Anything that is not a PivotbotError (a bug, a library's own error); its class is in the log. */
  Internal: 'INTERNAL',
  Invariant: 'INVARIANT',
  ConfigInvalid: 'CONFIG_INVALID',
  /** A wait or call stopped by its AbortSignal (shutdown). */
  Cancelled: 'CANCELLED',

  // time
  CronInvalid: 'CRON_INVALID',
  DurationInvalid: 'DURATION_INVALID',
  TimezoneInvalid: 'TIMEZONE_INVALID',

  // reporting: the Reporting Service client
  ReportingHttp: 'REPORTING_HTTP',
  ReportingAuth: 'REPORTING_AUTH',
  ReportingGraphQL: 'REPORTING_GRAPHQL',
  ReportingBadResponse: 'REPORTING_BAD_RESPONSE',
  ReportingTimeout: 'REPORTING_TIMEOUT',
  ReportingNetwork: 'REPORTING_NETWORK',
  AsyncPivotFailed: 'ASYNC_PIVOT_FAILED',
  PivotInvalid: 'PIVOT_INVALID',

  // reports and queries
  QueryInvalid: 'QUERY_INVALID',
  RangeInvalid: 'RANGE_INVALID',
  RangeEmpty: 'RANGE_EMPTY',
  ReportsDirUnreadable: 'REPORTS_DIR_UNREADABLE',
  ReportInvalid: 'REPORT_INVALID',
  ReportNotFound: 'REPORT_NOT_FOUND',
  ReportNotScheduled: 'REPORT_NOT_SCHEDULED',
  AsyncUnsupported: 'ASYNC_UNSUPPORTED',
  SavedQueryNotFound: 'SAVED_QUERY_NOT_FOUND',

  // alerts
  AlertNoQuery: 'ALERT_NO_QUERY',
  AlertNoChannel: 'ALERT_NO_CHANNEL',
  AlertRuleGone: 'ALERT_RULE_GONE',
  AlertRuleNotFound: 'ALERT_RULE_NOT_FOUND',
  BacktestRefused: 'BACKTEST_REFUSED',
  IncidentNotOpen: 'INCIDENT_NOT_OPEN',
  SnoozeInvalid: 'SNOOZE_INVALID',

  // explain
  MetricNotExplainable: 'METRIC_NOT_EXPLAINABLE',
  ExplainBudgetInvalid: 'EXPLAIN_BUDGET_INVALID',
  ExplainDimensionUnknown: 'EXPLAIN_DIMENSION_UNKNOWN',
  ExplainMinVolumeInvalid: 'EXPLAIN_MIN_VOLUME_INVALID',
  ExplainScaleInvalid: 'EXPLAIN_SCALE_INVALID',
  ExplainQueryRefused: 'EXPLAIN_QUERY_REFUSED',
  LeavesCsvInvalid: 'LEAVES_CSV_INVALID',
  LeavesDimensionUnknown: 'LEAVES_DIMENSION_UNKNOWN',

  // scheduled runs and async jobs (stored in run and job records)
  /** The process stopped (or a replica died) before the run finished; the slot runs again. */
  RunInterrupted: 'RUN_INTERRUPTED',
  JobFailed: 'JOB_FAILED',
  DataWaitOver: 'DATA_WAIT_OVER',
  /** A skipped run: a newer slot of the same schedule superseded it. */
  SlotSkipped: 'SLOT_SKIPPED',
  /** A skipped run: a quiet digest had nothing to say. */
  Quiet: 'QUIET',
  /** A skipped run: its subscription was removed after the slot was claimed. */
  Unsubscribed: 'UNSUBSCRIBED',

  // store
  StoreCorrupt: 'STORE_CORRUPT',
  StoreTooNew: 'STORE_TOO_NEW',
  StoreLocked: 'STORE_LOCKED',
  StoreWriteFailed: 'STORE_WRITE_FAILED',
  StoreClosed: 'STORE_CLOSED',
  StoreInvalidRecord: 'STORE_INVALID_RECORD',
  StoreNotFound: 'STORE_NOT_FOUND',
  StoreConflict: 'STORE_CONFLICT',
  StoreUnavailable: 'STORE_UNAVAILABLE',
  StoreUnreadable: 'STORE_UNREADABLE',
  StoreFileUnreadable: 'STORE_FILE_UNREADABLE',
  StoreMigrateConflict: 'STORE_MIGRATE_CONFLICT',

  // slack: Web API calls (`slackError` keeps Slack's own error string)
  SlackApiError: 'SLACK_API_ERROR',
  SlackNotInChannel: 'SLACK_NOT_IN_CHANNEL',
  SlackChannelNotFound: 'SLACK_CHANNEL_NOT_FOUND',
  SlackChannelArchived: 'SLACK_IS_ARCHIVED',
  SlackTriggerExpired: 'SLACK_EXPIRED_TRIGGER_ID',
  SlackInvalidAuth: 'SLACK_INVALID_AUTH',
  SlackMissingScope: 'SLACK_MISSING_SCOPE',
  SlackHashConflict: 'SLACK_HASH_CONFLICT',
  SlackRateLimited: 'SLACK_RATELIMITED',
  /** Slack's own transient errors (`internal_error`, `fatal_error`, …) and HTTP 5xx: retryable. */
  SlackUnavailable: 'SLACK_UNAVAILABLE',
  SlackHttpError: 'SLACK_HTTP_ERROR',
  SlackRequestFailed: 'SLACK_REQUEST_FAILED',
  SlackAborted: 'SLACK_ABORTED',
  SlackPacingAborted: 'SLACK_PACING_ABORTED',
  SlackPacingTimeout: 'SLACK_PACING_TIMEOUT',
  SlackPacingQueueFull: 'SLACK_PACING_QUEUE_FULL',

  // slack: /pivot commands and the interactive queue
  UnknownSubcommand: 'UNKNOWN_SUBCOMMAND',
  UnknownHelpTopic: 'UNKNOWN_HELP_TOPIC',
  MissingArgument: 'MISSING_ARGUMENT',
  BadSchedule: 'BAD_SCHEDULE',
  BadChannel: 'BAD_CHANNEL',
  BadTimezone: 'BAD_TIMEZONE',
  ChannelNameOnly: 'CHANNEL_NAME_ONLY',
  AlreadyPostsHere: 'ALREADY_POSTS_HERE',
  ChannelUnreachable: 'CHANNEL_UNREACHABLE',
  NothingToExplain: 'NOTHING_TO_EXPLAIN',
  WatchNotFound: 'WATCH_NOT_FOUND',
  QueueFull: 'QUEUE_FULL',
  ShuttingDown: 'SHUTTING_DOWN',

  // sandbox and CLI
  PlantsInvalid: 'PLANTS_INVALID',
  MigrateStoreTarget: 'MIGRATE_STORE_TARGET',
  CliCountInvalid: 'CLI_COUNT_INVALID',
  CliFromInvalid: 'CLI_FROM_INVALID',
  CliExplainBoth: 'CLI_EXPLAIN_BOTH',
  CliExplainSource: 'CLI_EXPLAIN_SOURCE',
  CliExplainScale: 'CLI_EXPLAIN_SCALE',
  CliExplainMinVolume: 'CLI_EXPLAIN_MIN_VOLUME',
  CliExplainBudget: 'CLI_EXPLAIN_BUDGET',
  CliExplainLeavesUnreadable: 'CLI_EXPLAIN_LEAVES_UNREADABLE',
  CliExplainPostbacks: 'CLI_EXPLAIN_POSTBACKS',
  CliExplainParts: 'CLI_EXPLAIN_PARTS',
} as const;

/** One of the codes in `ErrorCode`: what `PivotbotError.code` and a stored error's `code` hold. */
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

const CODES: ReadonlySet<string> = new Set(Object.values(ErrorCode));

/** True when `value` is one of our codes (a stored record read back, an error from another thread). */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && CODES.has(value);
}
