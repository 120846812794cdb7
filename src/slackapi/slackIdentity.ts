import webApi from '@slack/web-api';
import type { SlackConfig } from '../config/index.js';
import { ConfigError, type Logger, toError } from '../core/index.js';
import { slackApiUrlOption } from './slackApiUrl.js';

/** Who the bot is in the workspace, from `auth.test`. */
export interface SlackIdentity {
  botUserId?: string;
  botId?: string;
  team?: string;
  user?: string;
}

/** Slack's answers that mean the token itself is no good (reinstalling the app is the fix). */
const BAD_TOKEN = new Set(['invalid_auth', 'not_authed', 'token_revoked', 'token_expired', 'account_inactive']);

/**
 * Checks the bot token once at start-up with `auth.test` (one try, 5 s): a token Slack refuses
 * stops start-up with a `ConfigError` that says what to do; Slack being unreachable only warns
 * (the bot starts, and Web API calls retry later). The receiver then authorizes every event with
 * this identity instead of calling `auth.test` on the first one, so no ack waits for Slack.
 *
 * @example const identity = await verifySlackToken(config.slack, logger);
 */
export async function verifySlackToken(slack: SlackConfig, logger: Logger): Promise<SlackIdentity> {
  const client = new webApi.WebClient(slack.botToken, {
    ...slackApiUrlOption(slack.apiUrl),
    retryConfig: { retries: 0 },
    timeout: 5_000,
    logLevel: webApi.LogLevel.ERROR,
  });
  try {
    const answer = await client.auth.test();
    const identity: SlackIdentity = {
      ...(answer.user_id ? { botUserId: answer.user_id } : {}),
      ...(answer.bot_id ? { botId: answer.bot_id } : {}),
      ...(answer.team ? { team: answer.team } : {}),
      ...(answer.user ? { user: answer.user } : {}),
    };
    logger.info({ team: identity.team, user: identity.user }, 'Slack accepted the bot token');
    return identity;
  } catch (error) {
    const slackError = (error as { data?: { error?: unknown } }).data?.error;
    if (typeof slackError === 'string' && BAD_TOKEN.has(slackError)) {
      throw new ConfigError([
        `SLACK_BOT_TOKEN: Slack refused the token (${slackError}); copy the Bot User OAuth Token from the app's "OAuth & Permissions" page, or reinstall the app`,
      ]);
    }
    logger.warn(
      { err: toError(error) },
      'could not check the Slack token now (Slack unreachable?); starting anyway, Web API calls will retry',
    );
    return {};
  }
}
