import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { type RunningSandbox, startSandbox } from '../../../src/sandbox/index.js';
import { postSigned, slashCommandBody } from '../../support/slackRequests.js';
import { SlackTestServer } from '../../support/slackTestServer.js';

/** `pivotbot start` as a user runs it: the built CLI in its own process (npm test builds first). */
describe('pivotbot start', () => {
  let slack: SlackTestServer;
  let sandbox: RunningSandbox;
  let dir: string;
  beforeAll(async () => {
    slack = await new SlackTestServer().start();
    sandbox = await startSandbox({ port: 0, scale: 'small' });
    dir = await mkdtemp(join(tmpdir(), 'pivotbot-start-'));
  });
  afterAll(async () => {
    await sandbox.stop();
    await slack.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const start = (env: NodeJS.ProcessEnv): ChildProcess =>
    spawn(process.execPath, ['bin/pivotbot.js', 'start'], {
      env: { PATH: process.env.PATH, LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });

  it('serves /healthz and commands, and exits 0 on SIGTERM', async () => {
    const child = start({
      SLACK_BOT_TOKEN: 'xoxb-start-test',
      SLACK_SIGNING_SECRET: 'start-test-secret',
      SLACK_API_URL: slack.apiUrl,
      PORT: '0',
      REPORTING_AUTH_URL: sandbox.authUrl,
      REPORTING_GRAPHQL_URL: sandbox.graphqlUrl,
      REPORTING_CLIENT_ID: sandbox.clientId,
      REPORTING_CLIENT_SECRET: sandbox.clientSecret,
      PIVOTBOT_STORE: join(dir, 'store.json'),
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    let port = 0;
    for await (const line of createInterface({ input: child.stdout as NodeJS.ReadableStream })) {
      const match = /listening on port (\d+)/.exec(line);
      if (match) {
        port = Number(match[1]);
        break;
      }
    }
    expect(port).toBeGreaterThan(0);
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    // The built CLI receives Slack in its own thread, as production does.
    expect(await health.json()).toMatchObject({ ok: true, receiver: 'thread' });
    const body = slashCommandBody({ text: 'help', responseUrl: slack.responseUrl('start-help') });
    expect(
      (await postSigned(`http://127.0.0.1:${port}/slack/events`, body, { signingSecret: 'start-test-secret' })).status,
    ).toBe(200);
    await slack.waitFor(() => slack.hooks.some((h) => h.path === '/hooks/start-help'), 10_000, 'the help answer');
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('stops with one message naming the missing variable, and never prints a secret', async () => {
    const child = start({ SLACK_SIGNING_SECRET: 'do-not-print-me', PIVOTBOT_STORE: join(dir, 'other.json') });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toContain('SLACK_BOT_TOKEN: missing');
    expect(stderr).not.toContain('do-not-print-me');
  });
});
