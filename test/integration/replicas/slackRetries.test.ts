/**
 * Slack's retry of a request landing on another replica: two bots in this process on one
 * PostgreSQL database receive the same slash command (same trigger id, the second with
 * X-Slack-Retry-Num as Slack sends it); the database tells the second it is a repeat, so the user
 * is answered once. A different trigger id is answered by whichever replica gets it.
 */
import type { RunningBot } from '../../../src/cli/startBot.js';
import { BotHarness, SIGNING_SECRET } from '../../support/botHarness.js';
import { freshDatabase, stopTestPostgres } from '../../support/postgres.js';
import { postSigned } from '../../support/slackRequests.js';
import { sleep } from './replicaHarness.js';

afterAll(stopTestPostgres);

describe('a Slack retry delivered to another replica', () => {
  const harness = new BotHarness();
  let other: RunningBot | undefined;

  beforeAll(async () => {
    const url = await freshDatabase('pivotbot_slack_retries');
    await harness.start({ env: { PIVOTBOT_STORE: url } });
    other = await harness.startReplica();
  });
  afterAll(async () => {
    await other?.stop();
    await harness.stop();
  });

  /** Answers posted to a response URL path (`/hooks/…`, as `command` returns it). */
  const answersTo = (hook: string) => harness.slack.hooks.filter((h) => h.path === hook).length;

  it('is answered once across the two', async () => {
    const { hook, body } = await harness.command('help', { triggerId: 'T-retry-across' });
    const retried = await postSigned(`http://127.0.0.1:${other?.port}/slack/events`, body, {
      signingSecret: SIGNING_SECRET,
      retryNum: 1,
    });
    expect(retried.status).toBe(200);
    await harness.slack.waitFor(() => answersTo(hook) > 0, 10_000, 'the answer');
    await sleep(1_500);
    expect(answersTo(hook)).toBe(1);
  });

  it('answers a new request on whichever replica receives it', async () => {
    const { hook } = await harness.command('help', { triggerId: 'T-first' });
    const { body } = await harness.command('help', { triggerId: 'T-second' });
    const second = new URL(new URLSearchParams(body).get('response_url') as string).pathname;
    await postSigned(`http://127.0.0.1:${other?.port}/slack/events`, body.replace('T-second', 'T-third'), {
      signingSecret: SIGNING_SECRET,
    });
    await harness.slack.waitFor(() => answersTo(hook) > 0 && answersTo(second) >= 2, 10_000, 'both answers');
    // T-second (first replica) and T-third (second replica) share the response URL: two answers.
    expect(answersTo(second)).toBe(2);
  });
});
