/**
 * Report files name channels (`#ua-daily`). Slack takes a name only in chat.postMessage; the
 * history, replies, update and upload calls that restart safety and threads depend on take ids.
 * The gateway turns names into ids, over real HTTP against the Slack test server (which refuses
 * names where Slack does).
 */
import { silentLogger } from '../../../src/core/index.js';
import type { SlackMessage } from '../../../src/render/index.js';
import { SlackDeliveryError, slackGatewayFor } from '../../../src/slackapi/index.js';
import { SlackTestServer } from '../../support/slackTestServer.js';

const message = (text: string): SlackMessage => ({ text, blocks: [] });

describe('channels given by name', () => {
  let slack: SlackTestServer;

  beforeEach(async () => {
    slack = await new SlackTestServer().start();
    // More channels than one conversations.list page holds, the one looked for on a later page.
    for (let i = 0; i < 1_200; i++) slack.knownChannels.set(`C0FILL${String(i).padStart(4, '0')}`, `fill-${i}`);
    slack.knownChannels.set('C0UADAILY1', 'ua-daily');
    slack.memberOf.add('C0UADAILY1');
  });

  afterEach(async () => {
    await slack.stop();
  });

  const gatewayFor = () => slackGatewayFor({ botToken: 'xoxb-test', apiUrl: slack.apiUrl }, silentLogger());

  it('reads a named channel’s history by its id, found through conversations.list pages, and looks it up once', async () => {
    const gateway = gatewayFor();
    const earlier = await gatewayFor().post('#ua-daily', message('digest'), {
      metadata: { event_type: 'pivotbot_digest', event_payload: { report: 'daily-kpi' } },
    });
    expect(earlier.channel).toBe('C0UADAILY1');

    const [first, second] = await Promise.all([
      gateway.history('#ua-daily', { includeAllMetadata: true }),
      gateway.history('#ua-daily', { includeAllMetadata: true }),
    ]);
    for (const history of [first, second]) {
      expect(history.map((m) => m.ts)).toEqual([earlier.ts]);
      expect(history[0]?.metadata?.event_type).toBe('pivotbot_digest');
    }
    expect(slack.callsTo('conversations.history').map((c) => c.args.channel)).toEqual(['C0UADAILY1', 'C0UADAILY1']);
    // 1,203 channels at 1,000 a page: two pages, walked once for both calls.
    expect(slack.callsTo('conversations.list')).toHaveLength(2);
    expect(slack.callsTo('conversations.list')[1]?.args.cursor).toBe('1000');

    await gateway.replies('#ua-daily', earlier.ts);
    await gateway.update('#ua-daily', earlier.ts, message('digest, edited'));
    await gateway.upload('#ua-daily', [{ filename: 'daily.csv', data: Buffer.from('a,b\n1,2\n') }], {
      threadTs: earlier.ts,
    });
    expect(slack.callsTo('conversations.list')).toHaveLength(2);
    expect(slack.messages.find((m) => m.ts === earlier.ts)?.text).toBe('digest, edited');
    expect(slack.callsTo('files.completeUploadExternal')[0]?.args.channel_id).toBe('C0UADAILY1');
  });

  it('learns a name from a post without listing channels', async () => {
    const gateway = gatewayFor();
    const posted = await gateway.post('#ua-daily', message('digest'));
    await gateway.history('#ua-daily');
    await gateway.update('#ua-daily', posted.ts, message('digest, edited'));
    expect(slack.callsTo('conversations.list')).toHaveLength(0);
    expect(slack.callsTo('conversations.history')[0]?.args.channel).toBe('C0UADAILY1');
  });

  it('paces posts to a channel by name and by id as one channel', async () => {
    const gateway = slackGatewayFor({ botToken: 'xoxb-test', apiUrl: slack.apiUrl }, silentLogger(), {
      rateLimits: { windowMs: 1000, overrides: { 'chat.postMessage': { perChannel: { perWindow: 2, burst: 1 } } } },
    });
    await gateway.post('#ua-daily', message('learns the id'));
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const started = Date.now();
    await Promise.all([
      gateway.post('#ua-daily', message('by name')),
      gateway.post('C0UADAILY1', message('by id')),
      gateway.post('#ua-daily', message('by name again')),
    ]);
    // One budget of 2 a second (one at once): the three go out 0, 0.5 and 1 s after they begin;
    // with a budget per spelling, the name and the id would go at once and the last at 0.5 s.
    const last = Math.max(...slack.callsTo('chat.postMessage').map((c) => c.at));
    expect(last - started).toBeGreaterThanOrEqual(900);
  });

  it('fails a name no channel has as channel_not_found, with a message for people', async () => {
    const error = await gatewayFor()
      .history('#no-such-channel')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SlackDeliveryError);
    expect((error as SlackDeliveryError).slackError).toBe('channel_not_found');
    expect((error as SlackDeliveryError).userMessage).toMatch(/can't see a channel named #no-such-channel/);
    expect(slack.callsTo('conversations.history')).toHaveLength(0);
  });

  it('says what to do when a post to a name fails (a renamed channel), and keeps other errors as they are', async () => {
    const gateway = gatewayFor();
    const renamed = await gateway.post('#ua-daily-old', message('digest')).catch((e: unknown) => e);
    expect((renamed as SlackDeliveryError).slackError).toBe('channel_not_found');
    expect((renamed as SlackDeliveryError).userMessage).toContain('Write the channel');
    const byId = await gateway.post('C0NOSUCH01', message('digest')).catch((e: unknown) => e);
    expect((byId as SlackDeliveryError).userMessage).toMatch(/can't find that channel/);
  });
});
