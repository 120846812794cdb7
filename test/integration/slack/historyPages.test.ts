/**
 * Reading history back page by page: a retry looks for its earlier post among everything said in
 * the channel since, which in a busy channel is more than one page.
 */
import { silentLogger } from '../../../src/core/index.js';
import type { SlackMessage } from '../../../src/render/index.js';
import { slackGatewayFor } from '../../../src/slackapi/index.js';
import { SlackTestServer } from '../../support/slackTestServer.js';

const CHANNEL = 'C0GENERAL1';
const message = (text: string): SlackMessage => ({ text, blocks: [] });

describe('history pages', () => {
  let slack: SlackTestServer;

  beforeEach(async () => {
    slack = await new SlackTestServer().start();
  });

  afterEach(async () => {
    await slack.stop();
  });

  // Slack's limits with a 1-s window instead of a minute (as botHarness), so 31 posts in one channel
  // are not paced at one a second; what is tested is the paging.
  const gatewayFor = () =>
    slackGatewayFor({ botToken: 'xoxb-test', apiUrl: slack.apiUrl }, silentLogger(), {
      rateLimits: { windowMs: 1000 },
    });
  const isDigest = (m: { metadata?: { event_type: string } }) => m.metadata?.event_type === 'pivotbot_digest';

  it('follows the cursor until the page holding the message, and no further', async () => {
    const gateway = gatewayFor();
    const older = await gateway.post(CHANNEL, message('before'));
    const digest = await gateway.post(CHANNEL, message('digest'), {
      metadata: { event_type: 'pivotbot_digest', event_payload: {} },
    });
    slack.chatter(CHANNEL, 250);
    const oneTs = (Number(older.ts) - 1).toFixed(6);

    const first = await gateway.history(CHANNEL, { oldest: oneTs, limit: 100, includeAllMetadata: true });
    expect(first).toHaveLength(100);
    expect(first.some(isDigest)).toBe(false);

    const calls = slack.callsTo('conversations.history').length;
    const walked = await gateway.history(CHANNEL, {
      oldest: oneTs,
      limit: 100,
      includeAllMetadata: true,
      pages: 10,
      until: isDigest,
    });
    expect(walked.find(isDigest)?.ts).toBe(digest.ts);
    // 250 newer messages, then the digest: the third page holds it, and the walk stops there.
    expect(slack.callsTo('conversations.history').length - calls).toBe(3);
    expect(walked).toHaveLength(252);
  });

  it('stops at the last page when nothing matches, and at `pages`', async () => {
    const gateway = gatewayFor();
    slack.chatter(CHANNEL, 120);
    const all = await gateway.history(CHANNEL, { limit: 50, pages: 10, until: isDigest });
    expect(all).toHaveLength(120);
    expect(slack.callsTo('conversations.history')).toHaveLength(3);
    const two = await gateway.history(CHANNEL, { limit: 50, pages: 2 });
    expect(two).toHaveLength(100);
  });

  it('reads a long thread page by page', async () => {
    const gateway = gatewayFor();
    const parent = await gateway.post(CHANNEL, message('parent'));
    for (let i = 0; i < 30; i++) await gateway.post(CHANNEL, message(`reply ${i}`), { threadTs: parent.ts });
    const thread = await gateway.replies(CHANNEL, parent.ts, {
      limit: 10,
      pages: 10,
      until: (m) => m.text === 'reply 25',
    });
    expect(thread.map((m) => m.text)).toContain('reply 25');
    expect(thread).toHaveLength(30);
    expect(slack.callsTo('conversations.replies')).toHaveLength(3);
  });
});
