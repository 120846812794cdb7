import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { type RunningSandbox, startSandbox } from '../../../src/sandbox/index.js';
import { botEnv } from '../../support/botEnv.js';
import { SlackTestServer } from '../../support/slackTestServer.js';

/**
 * The process-wide failure policy of the built `pivotbot start`, in its own process. A module
 * preloaded with `--import` stands in for a bug in the bot: SIGHUP makes it reject a promise nobody
 * awaits, SIGUSR2 makes it throw from an event handler (an uncaught exception).
 */
const FAULTS = `
process.on('SIGHUP', () => { void Promise.reject(new Error('a rejection nobody awaits')); });
process.on('SIGUSR2', () => { throw new RangeError('a bug while holding xoxb-guards-test'); });
`;

describe('pivotbot start: unhandled rejections and uncaught exceptions', () => {
  let slack: SlackTestServer;
  let sandbox: RunningSandbox;
  let dir: string;
  beforeAll(async () => {
    slack = await new SlackTestServer().start();
    sandbox = await startSandbox({ port: 0, scale: 'small' });
    dir = await mkdtemp(join(tmpdir(), 'pivotbot-guards-'));
    await writeFile(join(dir, 'faults.mjs'), FAULTS);
  });
  afterAll(async () => {
    await sandbox.stop();
    await slack.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('logs a rejection and keeps serving; logs an exception as fatal (scrubbed), stops and exits 1', async () => {
    const child = spawn(process.execPath, ['--import', join(dir, 'faults.mjs'), 'bin/pivotbot.js', 'start'], {
      env: botEnv({
        LOG_LEVEL: 'warn',
        SLACK_BOT_TOKEN: 'xoxb-guards-test',
        SLACK_SIGNING_SECRET: 'guards-test-secret',
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
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const logLines: Array<Record<string, unknown>> = [];
    let all = '';
    let port = 0;
    const waiters: Array<() => void> = [];
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      all += `${line}\n`;
      const match = /listening on port (\d+)/.exec(line);
      if (match) port = Number(match[1]);
      if (line.startsWith('{')) logLines.push(JSON.parse(line) as Record<string, unknown>);
      for (const wake of waiters.splice(0)) wake();
    });
    const until = async (what: string, ok: () => boolean) => {
      const deadline = Date.now() + 20_000;
      while (!ok()) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; stdout so far:\n${all}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 200).unref();
        });
      }
    };

    try {
      await until('the bot to listen', () => port > 0);
      child.kill('SIGHUP');
      await until('the rejection to be logged', () => logLines.some((l) => l.level === 50));
      expect(logLines.find((l) => l.level === 50)).toMatchObject({
        msg: 'unhandled promise rejection (the bot keeps running)',
        err: { type: 'Error', message: 'a rejection nobody awaits' },
      });
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);

      child.kill('SIGUSR2');
      expect(await exited).toBe(1);
      const fatal = logLines.find((l) => l.level === 60);
      expect(fatal).toMatchObject({
        msg: 'uncaught exception: stopping the bot, then exiting',
        err: { type: 'RangeError', message: 'a bug while holding [redacted]' },
      });
      expect(all).not.toContain('xoxb-guards-test');
    } finally {
      // A failed expectation must not leave the bot running (and jest waiting on its pipes).
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  });
});
