/**
 * A post whose request reached Slack but whose answer did not come back is never sent again by the
 * Web API client: it may have landed, and a second request would post it twice (two alert parents
 * for one incident when a replica frozen mid-post past the client's timeout woke up: its timed-out
 * request was re-sent after another replica had taken its slot over). The post fails instead, and
 * the caller's next attempt checks the channel's history. Reads, and a post Slack answered with a
 * 5xx, are still retried. Over real HTTP against the Slack test server, which holds the answer.
 */
import { silentLogger } from '../../../src/core/index.js';
import { SLACK_RETRY, SlackDeliveryError, slackGatewayFor } from '../../../src/slackapi/index.js';
import { SlackTestServer } from '../../support/slackTestServer.js';

const CHANNEL = 'C0GENERAL1';
const MESSAGE = { text: 'Spend is above 0', blocks: [] };

describe('a Web API request whose answer never came', () => {
  let slack: SlackTestServer;

  beforeEach(async () => {
    slack = await new SlackTestServer().start();
  });

  afterEach(async () => {
    await slack.stop();
  });

  // The held answer never comes, so the request always times out: the timeout's length decides nothing.
  const gateway = () =>
    slackGatewayFor({ botToken: 'xoxb-test', apiUrl: slack.apiUrl }, silentLogger(), {
      secrets: [],
      timeoutMs: 2_000,
      retry: { ...SLACK_RETRY, minTimeout: 10, maxTimeout: 10 },
    });

  it('is not posted again: the post fails, and the channel holds it once', async () => {
    const held = slack.hold('chat.postMessage');
    const fence = new AbortController();
    const sent = gateway()
      .post(CHANNEL, MESSAGE, { signal: fence.signal, metadata: { event_type: 'pivotbot_alert', event_payload: {} } })
      .catch((error: unknown) => error);
    await held.reached;
    // The step's fence, as a resumed replica's: its hold on the slot lapsed while it was frozen.
    fence.abort(new Error('the heartbeat of this scheduled step lapsed'));
    const outcome = await sent;
    held.release();
    expect(outcome).toBeInstanceOf(SlackDeliveryError);
    expect((outcome as SlackDeliveryError).slackError).toBe('request_failed');
    expect(slack.callsTo('chat.postMessage')).toHaveLength(1);
    expect(slack.messages.filter((m) => m.channel === CHANNEL)).toHaveLength(1);
  });

  it('is read again when it was a read', async () => {
    const held = slack.hold('conversations.history');
    const read = await gateway().history(CHANNEL);
    held.release();
    expect(Array.isArray(read)).toBe(true);
    expect(slack.callsTo('conversations.history')).toHaveLength(2);
  });

  it('is posted again after Slack answered a 5xx (it did not post)', async () => {
    slack.fail('chat.postMessage', { status: 503 });
    const posted = await gateway().post(CHANNEL, MESSAGE);
    expect(posted.ts).not.toBe('');
    expect(slack.callsTo('chat.postMessage')).toHaveLength(2);
    expect(slack.messages.filter((m) => m.channel === CHANNEL)).toHaveLength(1);
  });
});
