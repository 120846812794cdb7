/**
 * A chart shown in a message is a file uploaded just before it, and Slack refuses an image it has
 * not finished processing (`invalid_blocks`). Over real HTTP against the Slack test server, which
 * can take its time with files as Slack does.
 */
import { silentLogger } from '../../../src/core/index.js';
import { postWithImage } from '../../../src/delivery/index.js';
import type { SlackMessage } from '../../../src/render/index.js';
import { SlackDeliveryError, slackGatewayFor } from '../../../src/slackapi/index.js';
import { SlackTestServer } from '../../support/slackTestServer.js';

const CHANNEL = 'C0GENERAL1';

describe('posting a message that shows a just-uploaded chart', () => {
  let slack: SlackTestServer;

  beforeEach(async () => {
    slack = await new SlackTestServer().start();
  });

  afterEach(async () => {
    await slack.stop();
  });

  async function uploadAndPost(delaysMs: readonly number[]) {
    const gateway = slackGatewayFor({ botToken: 'xoxb-test', apiUrl: slack.apiUrl }, silentLogger());
    const fileId = await gateway.uploadPrivate({ filename: 'chart.png', data: Buffer.from('png') });
    const withImage: SlackMessage = {
      text: 'digest',
      blocks: [{ type: 'image', slack_file: { id: fileId }, alt_text: 'chart' }],
    };
    const withoutImage: SlackMessage = { text: 'digest', blocks: [] };
    return postWithImage(gateway, CHANNEL, { withImage, withoutImage }, {}, delaysMs);
  }

  const refusals = () => slack.callsTo('chat.postMessage').filter((c) => c.error === 'invalid_blocks');

  it('waits for Slack to finish with the file, then shows it', async () => {
    slack.fileProcessingMs = 300;
    const sent = await uploadAndPost([500, 500]);
    expect(sent.imageShown).toBe(true);
    expect(refusals()).toHaveLength(1);
    expect(JSON.stringify(slack.messages[0]?.blocks)).toContain('"type":"image"');
  });

  it('posts without the image once the waits are spent, and says why', async () => {
    slack.fileProcessingMs = 60_000;
    const sent = await uploadAndPost([20, 20]);
    expect(sent.imageShown).toBe(false);
    expect(sent.refused).toBeInstanceOf(SlackDeliveryError);
    expect(sent.refused?.slackError).toBe('invalid_blocks');
    expect(refusals()).toHaveLength(3);
    expect(slack.messages).toHaveLength(1);
    expect(JSON.stringify(slack.messages[0]?.blocks)).not.toContain('image');
  });

  it('throws any other error as it is', async () => {
    slack.fail('chat.postMessage', { error: 'not_in_channel' });
    const error = await uploadAndPost([20]).catch((e: unknown) => e);
    expect((error as SlackDeliveryError).slackError).toBe('not_in_channel');
    expect(slack.messages).toHaveLength(0);
  });
});
