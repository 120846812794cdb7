/**
 * Slack's Web API rate limits for every method pivotbot calls, in one place, and the pacing budget
 * derived from them.
 *
 * Sources (looked up November 2026):
 * - Tiers: https://docs.slack.dev/apis/web-api/rate-limits ("Tier 1: 1+ per minute, Tier 2: 20+,
 *   Tier 3: 50+, Tier 4: 100+; Special: chat.postMessage generally allows posting one message per
 *   second per channel, while also maintaining a workspace-wide limit"; "Posting messages: 1 per
 *   second, short bursts >1 allowed"). Limits apply per method, per app, per workspace, in
 *   one-minute windows.
 * - Each method's tier, as Slack's own Java SDK lists them from the method reference pages
 *   (slackapi/java-slack-sdk `MethodsRateLimits.java`): chat.update Tier 3, chat.postEphemeral
 *   Tier 4, files.getUploadURLExternal and files.completeUploadExternal Tier 4, views.* Tier 4,
 *   conversations.history Tier 3, conversations.info Tier 3, conversations.list Tier 2, conversations.open Tier 3, conversations.replies Tier 3, users.info Tier 4, apps.connections.open
 *   Tier 1, auth.test Special ("hundreds of requests per minute"), and chat.postMessage Special
 *   ("1 message per second to a specific channel … limits governing your app's relationship with
 *   the entire workspace above that, limiting posting to several hundred messages per minute").
 * - conversations.history: since 2025-05-29 a *commercially distributed, non-Marketplace* app gets
 *   1 request per minute and 15 messages per page (docs.slack.dev changelog 2025-05 "rate limit
 *   changes for non-Marketplace apps"); internal customer-built apps like pivotbot keep Tier 3.
 *   Override it with `overrides` if the app is ever distributed.
 *
 * We pace at the documented floor of each tier (the "+" is Slack's headroom, not ours to spend),
 * with a burst of about ten seconds' worth so a short spike goes out at once and a long one is
 * spread over the minute instead of being refused.
 */

export type RateTier = 'tier1' | 'tier2' | 'tier3' | 'tier4' | 'special';

/** The Web API methods pivotbot calls (Bolt calls `apps.connections.open` itself in Socket Mode). */
export const SLACK_METHODS = [
  'apps.connections.open',
  'auth.test',
  'chat.postEphemeral',
  'chat.postMessage',
  'chat.update',
  'conversations.history',
  'conversations.info',
  'conversations.list',
  'conversations.open',
  'conversations.replies',
  'files.completeUploadExternal',
  'files.getUploadURLExternal',
  'users.info',
  'views.open',
  'views.publish',
  'views.update',
] as const;

export type SlackMethod = (typeof SLACK_METHODS)[number];

/** One method's budget: `perWindow` calls per window (a minute at Slack), at most `burst` at once. */
export interface MethodLimit {
  tier: RateTier;
  perWindow: number;
  burst: number;
  /** chat.postMessage only: the budget of each channel, on top of the workspace-wide one. */
  perChannel?: { perWindow: number; burst: number };
}

/** The documented floor of each standard tier, per minute. */
export const TIER_PER_MINUTE: Record<Exclude<RateTier, 'special'>, number> = {
  tier1: 1,
  tier2: 20,
  tier3: 50,
  tier4: 100,
};

function tier(name: Exclude<RateTier, 'special'>): MethodLimit {
  const perWindow = TIER_PER_MINUTE[name];
  return { tier: name, perWindow, burst: Math.max(1, Math.ceil(perWindow / 6)) };
}

/** Every method's limit, per one-minute window. */
export const SLACK_RATE_LIMITS: Record<SlackMethod, MethodLimit> = {
  'apps.connections.open': tier('tier1'),
  // "Hundreds of requests per minute": 300 is a conservative reading of "hundreds".
  'auth.test': { tier: 'special', perWindow: 300, burst: 50 },
  'chat.postEphemeral': tier('tier4'),
  // Workspace-wide "several hundred per minute" read as 300; per channel 1 per second, and the
  // short burst Slack allows kept to 3 so a burst never risks messages being dropped from view.
  'chat.postMessage': {
    tier: 'special',
    perWindow: 300,
    burst: 50,
    perChannel: { perWindow: 60, burst: 3 },
  },
  'chat.update': tier('tier3'),
  'conversations.history': tier('tier3'),
  'conversations.info': tier('tier3'),
  'conversations.list': tier('tier2'),
  'conversations.open': tier('tier3'),
  'conversations.replies': tier('tier3'),
  'files.completeUploadExternal': tier('tier4'),
  'files.getUploadURLExternal': tier('tier4'),
  'users.info': tier('tier4'),
  'views.open': tier('tier4'),
  'views.publish': tier('tier4'),
  'views.update': tier('tier4'),
};

/** A method not in the table is paced as Tier 2, the tier "most methods" have. */
export const UNKNOWN_METHOD_LIMIT: MethodLimit = tier('tier2');

/** Slack's rate-limit window. */
export const SLACK_WINDOW_MS = 60_000;

/** How a gateway (or the Slack test server) applies the table; tests shorten the window. */
export interface RateLimitSettings {
  /** The length of one window, in ms (Slack: 60 000). Tests use about 1 000. */
  windowMs: number;
  /** Per-method replacements of the table's budget. */
  overrides?: Partial<Record<string, Partial<MethodLimit>>>;
}

export const SLACK_RATE_SETTINGS: RateLimitSettings = { windowMs: SLACK_WINDOW_MS };

/**
 * The budget of `method` under `settings`.
 *
 * @example limitFor('chat.update', SLACK_RATE_SETTINGS) // { tier: 'tier3', perWindow: 50, burst: 9 }
 */
export function limitFor(method: string, settings: RateLimitSettings = SLACK_RATE_SETTINGS): MethodLimit {
  const base = (SLACK_RATE_LIMITS as Record<string, MethodLimit | undefined>)[method] ?? UNKNOWN_METHOD_LIMIT;
  const override = settings.overrides?.[method];
  return override ? { ...base, ...override } : base;
}

/**
 * The least time `counts` calls can take under the limits, as the gateway reads them: per method,
 * what is left after the first burst at the method's rate, and never more than the window's count
 * in one window (so 408 Tier 4 calls need four whole minutes); the same per channel for
 * chat.postMessage, given `perChannel` as the most posts any one channel gets. Benchmarks compare
 * their time with it.
 *
 * @example paceLowerBoundMs({ 'files.getUploadURLExternal': 400 }) // 229 800 (383 calls at 100 a minute)
 */
export function paceLowerBoundMs(
  counts: Record<string, number>,
  settings: RateLimitSettings = SLACK_RATE_SETTINGS,
  perChannel: Record<string, number> = {},
): number {
  const boundOf = (calls: number, budget: { perWindow: number; burst: number }) =>
    calls <= 0
      ? 0
      : Math.max(
          (Math.max(0, calls - budget.burst) / budget.perWindow) * settings.windowMs,
          Math.floor((calls - 1) / budget.perWindow) * settings.windowMs,
        );
  let bound = 0;
  for (const [method, calls] of Object.entries(counts))
    bound = Math.max(bound, boundOf(calls, limitFor(method, settings)));
  for (const [method, calls] of Object.entries(perChannel)) {
    const budget = limitFor(method, settings).perChannel;
    if (budget) bound = Math.max(bound, boundOf(calls, budget));
  }
  return bound;
}
