import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { type RunningSandbox, startSandbox } from '../../../src/sandbox/index.js';
import { botEnv } from '../../support/botEnv.js';
import { SlackTestServer } from '../../support/slackTestServer.js';

/**
 * Issue 35, item 3: a bot whose log pipe's reading end went away (a supervisor or `| tee` that
 * exited) once spun forever at 100 % CPU on SIGTERM: every log line failed with EPIPE, the error
 * came back as an uncaught exception, whose fatal log line failed again. The built `pivotbot start`
 * runs here with stdout and stderr on pipes whose reading ends this test closes; the bot must keep
 * answering and stop on SIGTERM (the test waits for the exit event: no clock).
 */
describe('pivotbot start with its stdout and stderr closed', () => {
  let slack: SlackTestServer;
  let sandbox: RunningSandbox;
  let dir: string;
  beforeAll(async () => {
    slack = await new SlackTestServer().start();
    sandbox = await startSandbox({ port: 0, scale: 'small' });
    dir = await mkdtemp(join(tmpdir(), 'pivotbot-closed-stdio-'));
  });
  afterAll(async () => {
    await sandbox.stop();
    await slack.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps answering, and exits on SIGTERM', async () => {
    const child = spawn(process.execPath, ['bin/pivotbot.js', 'start'], {
      env: botEnv({
        // Every request and step is logged: the bot writes to the closed pipe all the time.
        LOG_LEVEL: 'debug',
        SLACK_BOT_TOKEN: 'xoxb-closed-stdio-test',
        SLACK_SIGNING_SECRET: 'closed-stdio-secret',
        SLACK_API_URL: slack.apiUrl,
        PORT: '0',
        REPORTING_AUTH_URL: sandbox.authUrl,
        REPORTING_GRAPHQL_URL: sandbox.graphqlUrl,
        REPORTING_CLIENT_ID: sandbox.clientId,
        REPORTING_CLIENT_SECRET: sandbox.clientSecret,
        PIVOTBOT_STORE: join(dir, 'store.json'),
      }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    try {
      child.stderr?.resume();
      let port = 0;
      for await (const line of createInterface({ input: child.stdout as NodeJS.ReadableStream })) {
        const match = /listening on port (\d+)/.exec(line);
        if (match) {
          port = Number(match[1]);
          break;
        }
      }
      expect(port).toBeGreaterThan(0);

      // The reading ends go away: the bot's next writes fail with EPIPE.
      child.stdout?.destroy();
      child.stderr?.destroy();
      for (let i = 0; i < 3; i++) {
        const res = await fetch(`http://127.0.0.1:${port}/healthz`);
        expect(res.status).toBe(200);
      }

      child.kill('SIGTERM');
      // Bounded by the test's timeout only: a bot that spins never gets here.
      expect(await exited).toEqual({ code: 0, signal: null });
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  });
});
