import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { BOT_MALLOC_ENV, BOT_NODE_FLAGS } from '../../../src/cli/botProcess.js';
import { type RunningSandbox, startSandbox } from '../../../src/sandbox/index.js';
import { botEnv } from '../../support/botEnv.js';
import { postSigned, slashCommandBody } from '../../support/slackRequests.js';
import { SlackTestServer } from '../../support/slackTestServer.js';

/** The processes whose parent is `pid`, from /proc (Linux). */
function childProcesses(pid: number): Array<{ pid: number; command: string }> {
  const found: Array<{ pid: number; command: string }> = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The fourth field, after the command in parentheses, is the parent's pid.
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent === pid) {
        found.push({
          pid: Number(entry),
          command: readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' '),
        });
      }
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}

function isRunning(pid: number): boolean {
  try {
    const state = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // A zombie (Z) has exited and waits to be reaped.
    return !/\) Z /.test(state);
  } catch {
    return false;
  }
}

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
      env: botEnv({ LOG_LEVEL: 'warn', ...env }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });

  /** Starts the bot for real and resolves once it listens. */
  async function startListening(store: string) {
    const child = start({
      SLACK_BOT_TOKEN: 'xoxb-start-test',
      SLACK_SIGNING_SECRET: 'start-test-secret',
      SLACK_API_URL: slack.apiUrl,
      PORT: '0',
      REPORTING_AUTH_URL: sandbox.authUrl,
      REPORTING_GRAPHQL_URL: sandbox.graphqlUrl,
      REPORTING_CLIENT_ID: sandbox.clientId,
      REPORTING_CLIENT_SECRET: sandbox.clientSecret,
      PIVOTBOT_STORE: join(dir, store),
    });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    let port = 0;
    for await (const line of createInterface({ input: child.stdout as NodeJS.ReadableStream })) {
      const match = /listening on port (\d+)/.exec(line);
      if (match) {
        port = Number(match[1]);
        break;
      }
    }
    expect(port).toBeGreaterThan(0);
    const command = (text: string, hook: string) =>
      postSigned(
        `http://127.0.0.1:${port}/slack/events`,
        slashCommandBody({ text, responseUrl: slack.responseUrl(hook) }),
        { signingSecret: 'start-test-secret' },
      );
    return { child, port, exited, command };
  }

  /** A query whose answer has a chart, so the bot starts its chart process; resolves to that process's pid. */
  async function drawChart(bot: Awaited<ReturnType<typeof startListening>>): Promise<number> {
    const before = slack.callsTo('chat.postMessage').length;
    expect((await bot.command('spend installs by date last 7 days', `chart-${bot.port}`)).status).toBe(200);
    await slack.waitFor(() => slack.callsTo('chat.postMessage').length > before, 20_000, 'the result');
    expect(JSON.stringify(slack.callsTo('chat.postMessage')[before]?.args.blocks)).toContain('"type":"image"');
    const charts = childProcesses(bot.child.pid as number).filter((c) => c.command.includes('chartProcess.js'));
    expect(charts).toHaveLength(1);
    return (charts[0] as { pid: number }).pid;
  }

  it('serves /healthz and commands, and on SIGTERM stops its chart process and exits 0', async () => {
    const bot = await startListening('store.json');
    // Started without flags, the process that serves (the same pid: replaced, not a child) has the
    // bot's node flags and malloc settings.
    const argv = readFileSync(`/proc/${bot.child.pid}/cmdline`, 'utf8').split('\0');
    for (const flag of BOT_NODE_FLAGS) expect(argv).toContain(flag);
    const environ = readFileSync(`/proc/${bot.child.pid}/environ`, 'utf8').split('\0');
    for (const [name, value] of Object.entries(BOT_MALLOC_ENV)) expect(environ).toContain(`${name}=${value}`);
    const health = await fetch(`http://127.0.0.1:${bot.port}/healthz`);
    // The built CLI receives Slack in its own thread, as production does.
    expect(await health.json()).toMatchObject({ ok: true, receiver: 'thread' });
    expect((await bot.command('help', 'start-help')).status).toBe(200);
    await slack.waitFor(() => slack.hooks.some((h) => h.path === '/hooks/start-help'), 10_000, 'the help answer');
    const chartPid = await drawChart(bot);
    bot.child.kill('SIGTERM');
    expect(await bot.exited).toEqual({ code: 0, signal: null });
    expect(isRunning(chartPid)).toBe(false);
  });

  it('leaves no chart process behind when the bot is killed outright', async () => {
    const bot = await startListening('killed.json');
    const chartPid = await drawChart(bot);
    bot.child.kill('SIGKILL');
    expect(await bot.exited).toEqual({ code: null, signal: 'SIGKILL' });
    // The chart process sees its channel to the bot close and exits on its own.
    await slack.waitFor(() => !isRunning(chartPid), 10_000, 'the chart process to exit');
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
