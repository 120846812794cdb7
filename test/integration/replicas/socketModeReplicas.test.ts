/**
 * Socket Mode across replicas: two bots on one PostgreSQL database, each with its own Socket Mode
 * connection to the Slack test server (as each replica opens its own and Slack spreads events over
 * them). A command sent over either connection is answered by the bot behind it; Slack's
 * redelivery of the same command (same trigger id) over the other connection is answered once.
 */
import type { RunningBot } from '../../../src/cli/startBot.js';
import { BotHarness } from '../../support/botHarness.js';
import { freshDatabase, stopTestPostgres } from '../../support/postgres.js';
import { slashCommandBody } from '../../support/slackRequests.js';
import { sleep } from './replicaHarness.js';

const APP_TOKEN = 'xapp-1-replica-app-token';

afterAll(stopTestPostgres);

describe('Socket Mode with two replicas', () => {
  const harness = new BotHarness();
  let other: RunningBot | undefined;

  beforeAll(async () => {
    const url = await freshDatabase('pivotbot_socket_replicas');
    await harness.start({ env: { PIVOTBOT_STORE: url, SLACK_APP_TOKEN: APP_TOKEN } });
    other = await harness.startReplica();
  });
  afterAll(async () => {
    await other?.stop();
    await harness.stop();
  });

  const slack = () => harness.slack;
  const command = (text: string, hook: string, triggerId: string) =>
    Object.fromEntries(
      new URLSearchParams(slashCommandBody({ text, responseUrl: slack().responseUrl(hook), triggerId })),
    );
  const answersTo = (hook: string) => slack().hooks.filter((h) => h.path === `/hooks/${hook}`).length;

  it('opens one connection per replica', () => {
    expect(slack().callsTo('apps.connections.open')).toHaveLength(2);
    expect(slack().socketConnections.filter((c) => c.isOpen)).toHaveLength(2);
  });

  it('answers a command over either connection', async () => {
    await slack().sendEnvelope('slash_commands', command('help', 'sock-a', 'T-sock-a'), 5_000, { connection: 0 });
    await slack().sendEnvelope('slash_commands', command('help', 'sock-b', 'T-sock-b'), 5_000, { connection: 1 });
    await slack().waitFor(() => answersTo('sock-a') > 0 && answersTo('sock-b') > 0, 10_000, 'both answers');
    expect([answersTo('sock-a'), answersTo('sock-b')]).toEqual([1, 1]);
  });

  it('answers once when Slack redelivers a command over the other connection', async () => {
    const payload = command('help', 'sock-retry', 'T-sock-retry');
    await slack().sendEnvelope('slash_commands', payload, 5_000, { connection: 0 });
    const { ack } = await slack().sendEnvelope('slash_commands', payload, 5_000, { connection: 1, retryAttempt: 1 });
    expect(ack.envelope_id).toMatch(/^env-/);
    await slack().waitFor(() => answersTo('sock-retry') > 0, 10_000, 'the answer');
    await sleep(1_500);
    expect(answersTo('sock-retry')).toBe(1);
  });
});
