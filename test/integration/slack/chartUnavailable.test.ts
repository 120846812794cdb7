/**
 * A chart that cannot be drawn degrades a digest, it does not fail it and is not silently left
 * out: the message goes to Slack with its numbers and says "Chart unavailable".
 */
import { silentLogger } from '../../../src/core/index.js';
import { postView } from '../../../src/delivery/index.js';
import { buildChartConfig, type ViewChartRenderer } from '../../../src/render/index.js';
import { slackGatewayFor } from '../../../src/slackapi/index.js';
import { timeSeriesView } from '../../support/renderFixtures.js';
import { SlackTestServer } from '../../support/slackTestServer.js';

describe('a digest whose chart cannot be drawn', () => {
  let slack: SlackTestServer;
  beforeAll(async () => {
    slack = await new SlackTestServer().start();
  });
  afterAll(async () => {
    await slack.stop();
  });

  it('is posted with its numbers and a visible "Chart unavailable" line', async () => {
    const view = timeSeriesView();
    expect(buildChartConfig(view)).not.toBeNull();
    const broken: ViewChartRenderer = {
      renderView: () => Promise.reject(new Error('the chart process exited (SIGSEGV)')),
    };
    const gateway = slackGatewayFor({ botToken: 'xoxb-test', apiUrl: slack.apiUrl }, silentLogger());
    const posted = await postView(
      view,
      { metadata: { event_type: 'pivotbot_digest', event_payload: { report: view.reportId } } },
      { channel: 'C0GENERAL1', user: 'pivotbot-scheduler' },
      { slack: gateway, charts: broken, logger: silentLogger() },
    );
    const message = slack.messages.find((m) => m.ts === posted.ts);
    const blocks = JSON.stringify(message?.blocks);
    expect(blocks).toContain('Chart unavailable');
    expect(blocks).not.toContain('"type":"image"');
    expect(blocks).toContain('"type":"header"');
    expect(message?.metadata?.event_type).toBe('pivotbot_digest');
    // Nothing was uploaded in the chart's place.
    expect(slack.callsTo('files.getUploadURLExternal').filter((c) => String(c.args.filename).endsWith('.png'))).toEqual(
      [],
    );
    gateway.close();
  });
});
