/**
 * Socket Mode end to end: with SLACK_APP_TOKEN set the bot serves Slack nothing over HTTP (only
 * `/healthz` on PORT, for platforms); it calls
 * apps.connections.open on the Slack test server, connects to the WebSocket it hands out, and
 * acknowledges each envelope there. Both ways of receiving (the bot's thread, a receiver thread).
 */
import { ConfigError } from '../../../src/core/index.js';
import { BotHarness, receiverThreadEntry } from '../../support/botHarness.js';
import { blockActionPayload, slashCommandBody } from '../../support/slackRequests.js';

const APP_TOKEN = 'xapp-1-test-app-token';

describe.each([
  ['received in the bot thread', () => false as const],
  ['received in a receiver thread', receiverThreadEntry],
])('Socket Mode, %s', (_mode, receiverThread) => {
  const harness = new BotHarness();
  beforeAll(async () => {
    await harness.start({ receiverThread: receiverThread(), env: { SLACK_APP_TOKEN: APP_TOKEN } });
  });
  afterAll(async () => {
    await harness.stop();
  });
  const slack = () => harness.slack;
  const command = (text: string, hook: string) =>
    Object.fromEntries(new URLSearchParams(slashCommandBody({ text, responseUrl: slack().responseUrl(hook) })));

  it('connects with the app-level token', () => {
    const opened = slack().callsTo('apps.connections.open');
    expect(opened).toHaveLength(1);
    expect(opened[0]?.token).toBe(APP_TOKEN);
    expect(slack().socketConnections.filter((c) => c.isOpen)).toHaveLength(1);
  });

  // A platform running the bot as its web process expects PORT bound and answering (issue 35).
  it('serves /healthz on PORT, and nothing for Slack there', async () => {
    const port = harness.bot.port as number;
    expect(port).toBeGreaterThan(0);
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ ok: true });
    const events = await fetch(`http://127.0.0.1:${port}/slack/events`, { method: 'POST', body: '{}' });
    expect(events.status).toBe(404);
  });

  it('acknowledges a slash command envelope and answers help privately', async () => {
    const { ack } = await slack().sendEnvelope('slash_commands', command('help', 'sm-help'));
    expect(ack.envelope_id).toMatch(/^env-/);
    const hooks = () => slack().hooks.filter((h) => h.path === '/hooks/sm-help');
    await slack().waitFor(() => hooks().length > 0, 10_000, 'the help answer');
    expect(JSON.stringify(hooks()[0]?.body)).toContain('/pivot list');
  });

  it('runs a query and posts the result in the channel', async () => {
    const before = slack().callsTo('chat.postMessage').length;
    await slack().sendEnvelope('slash_commands', command('spend installs by countryCode yesterday', 'sm-q'));
    await slack().waitFor(() => slack().callsTo('chat.postMessage').length > before, 20_000, 'the result');
    expect(JSON.stringify(slack().callsTo('chat.postMessage')[before]?.args.blocks)).toContain('countryCode');
  });

  it('handles a button (the CSV into the clicked message thread) and App Home', async () => {
    const intoThread = () =>
      slack()
        .callsTo('files.completeUploadExternal')
        .filter((c) => c.args.thread_ts === '1700000000.000123');
    await slack().sendEnvelope(
      'interactive',
      blockActionPayload({
        actionId: 'pivot_csv',
        value: JSON.stringify({ reportId: 'adhoc', query: 'spend by countryCode yesterday', range: 'yesterday' }),
        responseUrl: slack().responseUrl('sm-csv'),
        messageTs: '1700000000.000123',
      }),
    );
    await slack().waitFor(() => intoThread().length > 0, 20_000, 'the CSV upload into the clicked message thread');

    const published = slack().callsTo('views.publish').length;
    await slack().sendEnvelope('events_api', {
      token: 'x',
      team_id: 'T_TEST',
      api_app_id: 'A_PIVOT',
      type: 'event_callback',
      event_id: 'EvSocket1',
      event_time: Math.floor(Date.now() / 1000),
      event: { type: 'app_home_opened', user: 'U_ALICE', channel: 'D1', tab: 'home' },
    });
    await slack().waitFor(() => slack().callsTo('views.publish').length > published, 10_000, 'views.publish');
  });

  it('reconnects when Slack asks it to (refresh_requested) and keeps answering', async () => {
    const opened = slack().callsTo('apps.connections.open').length;
    slack().requestReconnect();
    await slack().waitFor(
      () =>
        slack().callsTo('apps.connections.open').length > opened && slack().socketConnections.at(-1)?.isOpen === true,
      15_000,
      'a new connection',
    );
    const { ack } = await slack().sendEnvelope('slash_commands', command('list', 'sm-list'));
    expect(ack.envelope_id).toBeDefined();
    await slack().waitFor(() => slack().hooks.some((h) => h.path === '/hooks/sm-list'), 10_000, 'the list');
  });

  it('closes the connection when the bot stops', async () => {
    const open = slack().socketConnections.filter((c) => c.isOpen);
    expect(open.length).toBeGreaterThan(0);
    await harness.bot.stop();
    await slack().waitFor(() => open.every((c) => !c.isOpen), 5_000, 'the socket to close');
  });
});

describe('Socket Mode with an app-level token Slack refuses', () => {
  const harness = new BotHarness();
  afterAll(async () => {
    await harness.stop();
  });

  it('stops start-up with a message naming SLACK_APP_TOKEN, without the token', async () => {
    await harness.start({ env: { SLACK_APP_TOKEN: APP_TOKEN } });
    await harness.bot.stop();
    harness.slack.fail('apps.connections.open', { error: 'invalid_auth' });
    const error = await harness.startBot().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain('SLACK_APP_TOKEN');
    expect((error as Error).message).toContain('invalid_auth');
    expect((error as Error).message).not.toContain(APP_TOKEN);
  });
});
