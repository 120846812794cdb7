import webApi from '@slack/web-api';
import { ErrorCode, PivotbotError } from '../core/index.js';
import { PacingError } from './RatePacer.js';

/**
 * A Slack call failed. `slackError` keeps Slack's own error string (`not_in_channel`,
 * `ratelimited`, `http_503`…), which callers branch on; `code` is ours, from the one list
 * (`codeForSlackError`), and `userMessage` says what a person can do about it.
 */
export class SlackDeliveryError extends PivotbotError {
  /** Slack's error string (`not_in_channel`, `ratelimited`, `http_503`…). */
  readonly slackError: string;

  constructor(
    method: string,
    slackError: string,
    options: { retryable?: boolean; cause?: unknown; userMessage?: string } = {},
  ) {
    super(codeForSlackError(slackError), `Slack ${method} failed: ${slackError}`, {
      userMessage: options.userMessage ?? userMessageFor(slackError),
      retryable: options.retryable ?? false,
      cause: options.cause,
      details: { method, slackError },
    });
    this.slackError = slackError;
  }
}

/**
 * Our code for Slack's error string. The strings that earlier versions minted as
 * `SLACK_<ERROR>` (and that run records hold) keep that name; every other Slack answer is
 * `SLACK_API_ERROR`, with Slack's string in `slackError`.
 *
 * @example codeForSlackError('token_revoked') // 'SLACK_INVALID_AUTH'
 */
export function codeForSlackError(slackError: string): ErrorCode {
  if (/^http_5\d\d$/.test(slackError)) return ErrorCode.SlackUnavailable;
  if (/^http_\d+$/.test(slackError)) return ErrorCode.SlackHttpError;
  return SLACK_ERROR_CODES[slackError] ?? ErrorCode.SlackApiError;
}

const SLACK_ERROR_CODES: Readonly<Record<string, ErrorCode>> = {
  not_in_channel: ErrorCode.SlackNotInChannel,
  channel_not_found: ErrorCode.SlackChannelNotFound,
  is_archived: ErrorCode.SlackChannelArchived,
  expired_trigger_id: ErrorCode.SlackTriggerExpired,
  invalid_trigger_id: ErrorCode.SlackTriggerExpired,
  invalid_auth: ErrorCode.SlackInvalidAuth,
  not_authed: ErrorCode.SlackInvalidAuth,
  token_revoked: ErrorCode.SlackInvalidAuth,
  account_inactive: ErrorCode.SlackInvalidAuth,
  missing_scope: ErrorCode.SlackMissingScope,
  hash_conflict: ErrorCode.SlackHashConflict,
  ratelimited: ErrorCode.SlackRateLimited,
  internal_error: ErrorCode.SlackUnavailable,
  fatal_error: ErrorCode.SlackUnavailable,
  service_unavailable: ErrorCode.SlackUnavailable,
  request_timeout: ErrorCode.SlackUnavailable,
  request_failed: ErrorCode.SlackRequestFailed,
  aborted: ErrorCode.SlackAborted,
  pacing_timeout: ErrorCode.SlackPacingTimeout,
  pacing_queue_full: ErrorCode.SlackPacingQueueFull,
};

function userMessageFor(error: string): string {
  switch (error) {
    case 'not_in_channel':
      return "I'm not a member of this channel yet. Invite me with `/invite @pivotbot` and try again.";
    case 'channel_not_found':
      return "I can't find that channel; for a private channel, invite me first with `/invite @pivotbot`.";
    case 'expired_trigger_id':
    case 'invalid_trigger_id':
      return 'Slack allows 3 seconds to open a form after a click, and that passed while pivotbot was busy; click again (or run the command again).';
    case 'is_archived':
      return 'That channel is archived.';
    case 'invalid_auth':
    case 'not_authed':
    case 'token_revoked':
    case 'account_inactive':
      return "pivotbot's Slack token is not valid any more; a workspace admin needs to reinstall the app.";
    case 'missing_scope':
      return 'pivotbot lacks a Slack permission for this; ask a workspace admin to reinstall the app so it gets the permissions it asks for.';
    case 'ratelimited':
    case 'pacing_timeout':
    case 'pacing_queue_full':
      return 'Slack is rate-limiting pivotbot right now; try again in a minute.';
    case 'aborted':
      return 'pivotbot stopped before this message went out; it will be sent again when pivotbot is back.';
    default:
      return `Slack refused the message (${error}); try again in a minute.`;
  }
}

/**
 * Slack's answers that mean the bot cannot post in the channel at all, whatever it posts: not in
 * it (a private channel the bot is not in is `channel_not_found`), archived, or posting there is
 * restricted (an announcement channel).
 */
const UNREACHABLE_CHANNEL = new Set([
  'not_in_channel',
  'channel_not_found',
  'is_archived',
  'restricted_action',
  'restricted_action_read_only_channel',
]);

/**
 * Whether `error` (or an error it was caused by) is Slack saying the bot cannot post in that
 * channel: a notice about it must go elsewhere.
 *
 * @example unreachableChannel(new SlackDeliveryError('chat.postMessage', 'not_in_channel')) // true
 */
export function unreachableChannel(error: unknown): boolean {
  for (let e = error, depth = 0; e !== undefined && e !== null && depth < 5; depth++) {
    if (e instanceof SlackDeliveryError) return UNREACHABLE_CHANNEL.has(e.slackError);
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * Errors Slack answers (HTTP 200, `ok: false`) that its Web API documentation calls transient,
 * "likely due to a transient issue on our end": a scheduled delivery tries them again instead of
 * giving up at once.
 */
const TRANSIENT_ERRORS = new Set(['internal_error', 'fatal_error', 'service_unavailable', 'request_timeout']);

/** Maps what @slack/web-api throws to a typed error. */
export function toDeliveryError(method: string, error: unknown): SlackDeliveryError {
  if (error instanceof SlackDeliveryError) return error;
  if (error instanceof PacingError) {
    const slackError = error.reason === 'aborted' ? 'aborted' : `pacing_${error.reason}`;
    return new SlackDeliveryError(method, slackError, { retryable: error.retryable, cause: error });
  }
  if (error instanceof webApi.WebAPIPlatformError)
    return new SlackDeliveryError(method, error.data.error, {
      retryable: TRANSIENT_ERRORS.has(error.data.error),
      cause: error,
    });
  if (error instanceof webApi.WebAPIRateLimitedError)
    return new SlackDeliveryError(method, 'ratelimited', { retryable: true, cause: error });
  if (error instanceof webApi.WebAPIHTTPError) {
    return new SlackDeliveryError(method, `http_${error.statusCode}`, {
      retryable: error.statusCode >= 500,
      cause: error,
    });
  }
  if (error instanceof webApi.WebAPIRequestError)
    return new SlackDeliveryError(method, 'request_failed', { retryable: true, cause: error });
  const code = (error as { data?: { error?: unknown } } | null)?.data?.error;
  if (typeof code === 'string') return new SlackDeliveryError(method, code, { cause: error });
  return new SlackDeliveryError(method, 'unknown_error', { cause: error });
}
