import { silentLogger } from '../../../src/core/index.js';
import type { SlackMessage } from '../../../src/render/index.js';
import { type GatewayOptions, SlackDeliveryError, slackGatewayFor } from '../../../src/slackapi/index.js';
import { SlackTestServer } from '../../support/slackTestServer.js';

const GENERAL = 'C0GENERAL1';
const message = (text: string): SlackMessage => ({ text, blocks: [] });
/** Short retries of 5xx, so nothing here waits for the production timings. */
const retry = { retries: 1, factor: 1, minTimeout: 10, maxTimeout: 10, maxRetryTime: 1000 };

describe('the Web API gateway against Slack-like rate limits', () => {
  let slack: SlackTestServer;

  beforeEach(async () => {
    slack = await new SlackTestServer().start();
  });

  afterEach(async () => {
    await slack.stop();
  });

  const gatewayFor = (options: GatewayOptions = {}) =>
    slackGatewayFor({ botToken: 'xoxb-test', apiUrl: slack.apiUrl }, silentLogger(), { retry, ...options });

  it('paces a burst of posts to one channel so Slack never has to refuse one', async () => {
    // Gateway: 2 per second per channel; the server allows 3 per second (margin for network jitter).
    slack.enforceRateLimits({ windowMs: 1000, perChannel: 3 });
    const gateway = gatewayFor({
      rateLimits: { windowMs: 1000, overrides: { 'chat.postMessage': { perChannel: { perWindow: 2, burst: 1 } } } },
    });
    const started = Date.now();
    await Promise.all(Array.from({ length: 6 }, (_, i) => gateway.post(GENERAL, message(`m${i}`))));
    const took = Date.now() - started;
    expect(slack.messages.map((m) => m.text).sort()).toEqual(['m0', 'm1', 'm2', 'm3', 'm4', 'm5']);
    expect(slack.rateLimited()).toEqual({});
    expect(took).toBeGreaterThanOrEqual(2400);
    expect(gateway.stats()['chat.postMessage']).toMatchObject({ calls: 6, rateLimited: 0 });
    expect(gateway.stats()['chat.postMessage']?.waitedMs).toBeGreaterThan(0);
  });

  it('honours Retry-After through a 429 storm, loses nothing and counts every 429', async () => {
    // The server is far stricter than Slack's Tier 4 the gateway paces to: 2 calls a second.
    slack.enforceRateLimits({ windowMs: 1000, perMethod: { 'chat.postEphemeral': 2 } });
    const gateway = gatewayFor();
    await Promise.all(Array.from({ length: 8 }, (_, i) => gateway.ephemeral(GENERAL, 'U1', message(`e${i}`))));
    const calls = slack.callsTo('chat.postEphemeral');
    expect(calls.filter((c) => !c.limited)).toHaveLength(8);
    const limited = slack.rateLimited()['chat.postEphemeral'] ?? 0;
    expect(limited).toBeGreaterThan(0);
    expect(gateway.stats()['chat.postEphemeral']).toMatchObject({ calls: 8 + limited, rateLimited: limited });
    // The 8 went out at once (within the burst); after the first 429 the method stays quiet for
    // its Retry-After second before any retry.
    const firstLimited = calls.find((c) => c.limited)?.at ?? 0;
    const retries = calls.slice(8);
    expect(retries.length).toBe(limited);
    for (const call of retries) expect(call.at - firstLimited).toBeGreaterThanOrEqual(950);
  });

  it('sends an interactive post to a busy channel before the scheduled posts queued there', async () => {
    const gateway = gatewayFor({
      rateLimits: { windowMs: 1000, overrides: { 'chat.postMessage': { perChannel: { perWindow: 4, burst: 1 } } } },
    });
    const scheduled = gateway.withLane('scheduled');
    const digests = Array.from({ length: 10 }, (_, i) => scheduled.post(GENERAL, message(`digest ${i}`)));
    // The scheduled posts have started going out, the other nine queued behind the channel's pace.
    await slack.waitFor(() => slack.messages.length > 0, 60_000, 'the first scheduled post');
    await gateway.post(GENERAL, message('answer'));
    await Promise.all(digests);
    const order = slack.messages.map((m) => m.text);
    // Ahead of the queue: at most the post already under way went out before it, not the nine.
    expect(order.indexOf('answer')).toBeLessThanOrEqual(2);
    // The lanes share one budget and one set of counters.
    expect(gateway.stats()['chat.postMessage']?.calls).toBe(11);
  });

  it('stops waiting out a Retry-After as soon as the caller aborts', async () => {
    // A Retry-After of 50 s, longer than the lane would wait before giving up on its own terms:
    // the abort ends it, or the test fails (no retry, no pacing_timeout).
    slack.fail('chat.postEphemeral', { status: 429, retryAfterSeconds: 50 });
    const gateway = gatewayFor({ maxWaitMs: { interactive: 600_000 } });
    const controller = new AbortController();
    const sent = gateway.ephemeral(GENERAL, 'U1', message('x'), { signal: controller.signal });
    await slack.waitFor(() => slack.callsTo('chat.postEphemeral').length === 1, 60_000, 'the first attempt');
    // Back in the queue, waiting out the Retry-After.
    await slack.waitFor(() => gateway.queued === 1, 60_000, 'the call queued again');
    controller.abort();
    const error = await sent.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SlackDeliveryError);
    expect(error).toMatchObject({ slackError: 'aborted', retryable: false });
    expect(gateway.queued).toBe(0);
    expect(slack.callsTo('chat.postEphemeral')).toHaveLength(1);
  });

  it('gives up as rate-limited, retryable, once a call has waited its lane limit', async () => {
    slack.fail('chat.update', { status: 429, retryAfterSeconds: 1, times: 5 });
    const gateway = gatewayFor({ maxWaitMs: { interactive: 1500 } });
    const error = await gateway.update(GENERAL, '1.000001', message('x')).catch((e: unknown) => e);
    expect(error).toMatchObject({ slackError: 'pacing_timeout', retryable: true });
    expect((error as SlackDeliveryError).userMessage).toContain('rate-limiting');
    expect(slack.callsTo('chat.update').length).toBeLessThanOrEqual(3);
  });

  it('gives up on opening a modal after two seconds, not its lane’s minute: the trigger_id would have expired', async () => {
    slack.fail('views.open', { status: 429, retryAfterSeconds: 30 });
    const gateway = gatewayFor();
    const error = await gateway
      .viewsOpen('trigger-1', { type: 'modal', title: { type: 'plain_text', text: 'Modal' }, blocks: [] })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ slackError: 'pacing_timeout' });
    // Within its lane's minute the 30 s Retry-After would have been waited out and the call made again.
    expect(slack.callsTo('views.open')).toHaveLength(1);
  });

  it('posts and updates message metadata, and reads it back from the channel history, newest first', async () => {
    const gateway = gatewayFor();
    const before = String(Date.now() / 1000 - 1);
    const digest = { event_type: 'pivotbot_digest', event_payload: { report: 'daily', slot: '2026-11-23T09:00:00Z' } };
    const first = await gateway.post(GENERAL, message('first'), { metadata: digest });
    await gateway.post(GENERAL, message('reply'), { threadTs: first.ts });
    const second = await gateway.post(GENERAL, message('second'));
    await gateway.update(GENERAL, second.ts, message('second, edited'), {
      metadata: { event_type: 'pivotbot_alert', event_payload: { rule: 'cpi' } },
    });

    const history = await gateway.history(GENERAL, { oldest: before, includeAllMetadata: true });
    expect(history.map((m) => m.text)).toEqual(['second, edited', 'first']);
    expect(history[1]?.metadata).toEqual(digest);
    expect(history[0]?.metadata?.event_type).toBe('pivotbot_alert');
    const plain = await gateway.history(GENERAL, { limit: 1 });
    // Without metadata; with its author, so the bot can tell its own posts from people's.
    expect(plain).toEqual([{ ts: second.ts, text: 'second, edited', user: 'U_BOT', botId: 'B_BOT' }]);
    expect(await gateway.history(GENERAL, { oldest: second.ts })).toEqual([]);
    expect(await gateway.history(GENERAL, { oldest: second.ts, inclusive: true })).toHaveLength(1);
    expect(await gateway.history(GENERAL, { latest: first.ts })).toEqual([]);
    expect(gateway.stats()['conversations.history']?.calls).toBe(5);
  });

  it('uploads files into a thread with each upload call paced and counted', async () => {
    const gateway = gatewayFor();
    const posted = await gateway.post(GENERAL, message('digest'));
    const ids = await gateway.upload(
      GENERAL,
      [
        { filename: 'chart.png', data: Buffer.from('png'), altText: 'a chart' },
        { filename: 'rows.csv', data: Buffer.from('a,b\n1,2\n'), title: 'Rows' },
      ],
      { threadTs: posted.ts },
    );
    expect(ids).toHaveLength(2);
    // The raw bytes of each file, not a multipart form (undici streams a form from a generator that
    // can throw ERR_INVALID_STATE after the body closed, on a busy machine).
    expect(slack.uploads.map((u) => u.bytes)).toEqual([3, 8]);
    const complete = slack.callsTo('files.completeUploadExternal');
    expect(complete).toHaveLength(1);
    expect(complete[0]?.args).toMatchObject({ channel_id: GENERAL, thread_ts: posted.ts });
    expect(gateway.stats()).toMatchObject({
      'files.getUploadURLExternal': { calls: 2, rateLimited: 0 },
      'files.completeUploadExternal': { calls: 1, rateLimited: 0 },
    });
  });
});

describe('the Slack test server in rate-limit mode', () => {
  let slack: SlackTestServer;

  beforeEach(async () => {
    slack = await new SlackTestServer({ rateLimits: { windowMs: 2000, perChannel: 1 } }).start();
  });

  afterEach(async () => {
    await slack.stop();
  });

  const post = (channel: string) =>
    fetch(`${slack.apiUrl}chat.postMessage`, {
      method: 'POST',
      headers: { authorization: 'Bearer xoxb-test', 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ channel, text: 'hi' }),
    });

  it('answers 429 with Retry-After to a second post in the same channel within the window, not in another', async () => {
    expect((await post('C0GENERAL1')).status).toBe(200);
    const refused = await post('C0GENERAL1');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBe(2);
    expect(await refused.json()).toEqual({ ok: false, error: 'ratelimited' });
    expect((await post('C0MARKET01')).status).toBe(200);
    expect(slack.rateLimited()).toEqual({ 'chat.postMessage': 1 });
    expect(slack.messages).toHaveLength(2);
  });

  it('enforces each method tier per window, and stops when switched off', async () => {
    slack.enforceRateLimits({ windowMs: 60_000, perMethod: { 'auth.test': 1 } });
    const call = () =>
      fetch(`${slack.apiUrl}auth.test`, { method: 'POST', headers: { authorization: 'Bearer xoxb-t' } });
    expect((await call()).status).toBe(200);
    const refused = await call();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(59);
    slack.enforceRateLimits(undefined);
    expect((await call()).status).toBe(200);
  });
});
