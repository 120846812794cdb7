/**
 * `pivotbot start` (the built CLI) with `PIVOTBOT_STORE` set to a PostgreSQL URL: it serves, and a
 * second bot on the same database serves beside it as a replica (test/integration/replicas has what
 * they guarantee together).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { type RunningSandbox, startSandbox } from '../../../src/sandbox/index.js';
import { botEnv } from '../../support/botEnv.js';
import { freshDatabase, stopTestPostgres } from '../../support/postgres.js';
import { SlackTestServer } from '../../support/slackTestServer.js';

afterAll(stopTestPostgres);

describe('pivotbot start on a PostgreSQL store', () => {
  let slack: SlackTestServer;
  let sandbox: RunningSandbox;
  const children: ChildProcess[] = [];
  beforeAll(async () => {
    slack = await new SlackTestServer().start();
    sandbox = await startSandbox({ port: 0, scale: 'small' });
  });
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await sandbox.stop();
    await slack.stop();
  });

  function start(store: string) {
    const child = spawn(process.execPath, ['bin/pivotbot.js', 'start'], {
      env: botEnv({
        LOG_LEVEL: 'warn',
        SLACK_BOT_TOKEN: 'xoxb-pg-start-test',
        SLACK_SIGNING_SECRET: 'pg-start-test-secret',
        SLACK_API_URL: slack.apiUrl,
        PORT: '0',
        REPORTING_AUTH_URL: sandbox.authUrl,
        REPORTING_GRAPHQL_URL: sandbox.graphqlUrl,
        REPORTING_CLIENT_ID: sandbox.clientId,
        REPORTING_CLIENT_SECRET: sandbox.clientSecret,
        PIVOTBOT_STORE: store,
      }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let output = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    const listening = (async () => {
      for await (const line of createInterface({ input: child.stdout as NodeJS.ReadableStream })) {
        output += `${line}\n`;
        const match = /listening on port (\d+)/.exec(line);
        if (match) return Number(match[1]);
      }
      return 0;
    })();
    return { child, exited, listening, output: () => output };
  }

  it('serves with its state in PostgreSQL, and a second bot on the same database serves beside it', async () => {
    const url = await freshDatabase('pivotbot_start');
    const first = start(url);
    const port = await first.listening;
    expect(port).toBeGreaterThan(0);
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({
      ok: true,
      store: { kind: 'postgres', reachable: true, schemaVersion: 2 },
    });

    // Replicas share the database (claims and leases decide who runs what): no lock refuses the second.
    const second = start(url);
    const secondPort = await second.listening;
    expect(secondPort).toBeGreaterThan(0);
    // start.ts installs its SIGTERM handler just after printing the line: ask /healthz first.
    expect((await fetch(`http://127.0.0.1:${secondPort}/healthz`)).status).toBe(200);
    expect(second.output()).not.toContain('pivotbot-test@');
    expect(second.output()).not.toContain('STORE_LOCKED');

    for (const bot of [first, second]) {
      bot.child.kill('SIGTERM');
      expect(await bot.exited).toEqual({ code: 0, signal: null });
    }
  });
});
