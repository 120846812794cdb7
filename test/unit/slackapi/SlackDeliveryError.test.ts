import bolt from '@slack/bolt';
import { isErrorCode } from '../../../src/core/index.js';
import { PacingError } from '../../../src/slackapi/RatePacer.js';
import {
  codeForSlackError,
  SlackDeliveryError,
  toDeliveryError,
  unreachableChannel,
} from '../../../src/slackapi/SlackDeliveryError.js';

const { webApi } = bolt;

describe('SlackDeliveryError', () => {
  it.each([
    ['not_in_channel', 'SLACK_NOT_IN_CHANNEL'],
    ['channel_not_found', 'SLACK_CHANNEL_NOT_FOUND'],
    ['is_archived', 'SLACK_IS_ARCHIVED'],
    ['expired_trigger_id', 'SLACK_EXPIRED_TRIGGER_ID'],
    ['invalid_trigger_id', 'SLACK_EXPIRED_TRIGGER_ID'],
    ['invalid_auth', 'SLACK_INVALID_AUTH'],
    ['token_revoked', 'SLACK_INVALID_AUTH'],
    ['missing_scope', 'SLACK_MISSING_SCOPE'],
    ['hash_conflict', 'SLACK_HASH_CONFLICT'],
    ['ratelimited', 'SLACK_RATELIMITED'],
    ['internal_error', 'SLACK_UNAVAILABLE'],
    ['http_503', 'SLACK_UNAVAILABLE'],
    ['http_404', 'SLACK_HTTP_ERROR'],
    ['request_failed', 'SLACK_REQUEST_FAILED'],
    ['aborted', 'SLACK_ABORTED'],
    ['pacing_timeout', 'SLACK_PACING_TIMEOUT'],
    ['pacing_queue_full', 'SLACK_PACING_QUEUE_FULL'],
    // Anything else Slack may answer: our one code, Slack's string kept beside it.
    ['invalid_blocks', 'SLACK_API_ERROR'],
    ['msg_too_long', 'SLACK_API_ERROR'],
    ['some_error_slack_adds_next_year', 'SLACK_API_ERROR'],
  ])('keeps Slack’s %s as slackError, with our code %s', (slackError, code) => {
    const error = new SlackDeliveryError('chat.postMessage', slackError);
    expect(error).toMatchObject({ code, slackError, details: { method: 'chat.postMessage', slackError } });
    expect(codeForSlackError(slackError)).toBe(code);
    expect(isErrorCode(error.code)).toBe(true);
    expect(error.message).toBe(`Slack chat.postMessage failed: ${slackError}`);
  });

  it('never mints a code from what Slack answers', () => {
    const odd = new SlackDeliveryError('chat.update', 'SLACK_Something; drop table');
    expect(odd.code).toBe('SLACK_API_ERROR');
    expect(odd.slackError).toBe('SLACK_Something; drop table');
  });

  it('tells users what to do, without a repository path or a variable name', () => {
    for (const slackError of ['not_in_channel', 'missing_scope', 'invalid_auth', 'ratelimited', 'invalid_blocks']) {
      const { userMessage } = new SlackDeliveryError('chat.postMessage', slackError);
      expect(userMessage).not.toMatch(/manifest\.yml|SLACK_[A-Z_]+|PIVOTBOT_|\/\w+\.\w+/);
    }
    expect(new SlackDeliveryError('chat.postMessage', 'not_in_channel').userMessage).toContain('/invite @pivotbot');
  });

  describe('toDeliveryError', () => {
    it.each([
      {
        name: 'a platform error keeps Slack’s string; a transient one is retryable',
        thrown: new webApi.WebAPIPlatformError({ ok: false, error: 'internal_error' }),
        expected: { code: 'SLACK_UNAVAILABLE', slackError: 'internal_error', retryable: true },
      },
      {
        name: 'a platform error that trying again cannot fix is not retryable',
        thrown: new webApi.WebAPIPlatformError({ ok: false, error: 'channel_not_found' }),
        expected: { code: 'SLACK_CHANNEL_NOT_FOUND', slackError: 'channel_not_found', retryable: false },
      },
      {
        name: 'a 429 the SDK gave up on',
        thrown: new webApi.WebAPIRateLimitedError(30),
        expected: { code: 'SLACK_RATELIMITED', slackError: 'ratelimited', retryable: true },
      },
      {
        name: 'an HTTP 502',
        thrown: new webApi.WebAPIHTTPError(502, 'Bad Gateway', {}, ''),
        expected: { code: 'SLACK_UNAVAILABLE', slackError: 'http_502', retryable: true },
      },
      {
        name: 'a network failure',
        thrown: new webApi.WebAPIRequestError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })),
        expected: { code: 'SLACK_REQUEST_FAILED', slackError: 'request_failed', retryable: true },
      },
      {
        name: 'a call the pacer gave up on',
        thrown: new PacingError('chat.postMessage', 'timeout', 'waited 60 s'),
        expected: { code: 'SLACK_PACING_TIMEOUT', slackError: 'pacing_timeout', retryable: true },
      },
      {
        name: 'a call cancelled by shutdown',
        thrown: new PacingError('chat.postMessage', 'aborted', 'stopping'),
        expected: { code: 'SLACK_ABORTED', slackError: 'aborted', retryable: false },
      },
      {
        name: 'something else with a Slack-shaped data.error',
        thrown: Object.assign(new Error('odd'), { data: { error: 'team_access_not_granted' } }),
        expected: { code: 'SLACK_API_ERROR', slackError: 'team_access_not_granted', retryable: false },
      },
      {
        name: 'anything else',
        thrown: new TypeError('x is undefined'),
        expected: { code: 'SLACK_API_ERROR', slackError: 'unknown_error', retryable: false },
      },
    ])('$name', ({ thrown, expected }) => {
      const error = toDeliveryError('chat.postMessage', thrown);
      expect(error).toBeInstanceOf(SlackDeliveryError);
      expect(error).toMatchObject(expected);
      expect(error.cause).toBe(thrown);
    });
  });

  describe('unreachableChannel: Slack saying the bot cannot post in that channel at all', () => {
    it.each(['not_in_channel', 'channel_not_found', 'is_archived', 'restricted_action'])('%s is', (slackError) => {
      expect(unreachableChannel(new SlackDeliveryError('chat.postMessage', slackError))).toBe(true);
    });

    it.each(['ratelimited', 'invalid_blocks', 'internal_error', 'missing_scope'])('%s is not', (slackError) => {
      expect(unreachableChannel(new SlackDeliveryError('chat.postMessage', slackError))).toBe(false);
    });

    it('looks through the errors it was caused by, and takes anything else as no', () => {
      const wrapped = new Error('digest delivery failed', {
        cause: new SlackDeliveryError('conversations.history', 'not_in_channel'),
      });
      expect(unreachableChannel(wrapped)).toBe(true);
      expect(unreachableChannel(new Error('boom'))).toBe(false);
      expect(unreachableChannel(undefined)).toBe(false);
    });
  });
});
