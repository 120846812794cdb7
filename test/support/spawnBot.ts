/**
 * `pivotbot start` as its own process (the build `npm test` makes first), logging at debug level
 * on stdout, for tests that crash it at chosen points of its work.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { botEnv } from './botEnv.js';
import type { SlackTestServer } from './slackTestServer.js';

export interface SpawnedBot {
  child: ChildProcess;
  /** Its stdout, line by line (pino JSON). */
  lines: AsyncIterable<string>;
  exited: Promise<void>;
}

/** Starts the bot on the Slack test server and the sandbox, with reports and store under `dir`. */
export function spawnBot(options: {
  slack: SlackTestServer;
  sandbox: RunningSandbox;
  reportsDir: string;
  dir: string;
  env?: Record<string, string>;
}): SpawnedBot {
  const { slack, sandbox } = options;
  const child = spawn(process.execPath, ['bin/pivotbot.js', 'start'], {
    env: botEnv({
      LOG_LEVEL: 'debug',
      SLACK_BOT_TOKEN: 'xoxb-crash-test',
      SLACK_SIGNING_SECRET: 'crash-test-secret',
      SLACK_API_URL: slack.apiUrl,
      PORT: '0',
      REPORTING_AUTH_URL: sandbox.authUrl,
      REPORTING_GRAPHQL_URL: sandbox.graphqlUrl,
      REPORTING_CLIENT_ID: sandbox.clientId,
      REPORTING_CLIENT_SECRET: sandbox.clientSecret,
      PIVOTBOT_REPORTS_DIR: options.reportsDir,
      PIVOTBOT_STORE: join(options.dir, 'store', 'pivotbot.json'),
      ...options.env,
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.stderr?.resume();
  return { child, lines: createInterface({ input: child.stdout as NodeJS.ReadableStream }), exited };
}

/** A bot started with (or without) extra environment, as `runToFailpoint` starts it. */
export type StartBot = (env?: Record<string, string>) => SpawnedBot;

/** How a run with a failpoint ended: at the point, or not (with its exit and last log lines). */
export type FailpointRun = { hit: true } | { hit: false; why: string };

/**
 * Runs a bot with `PIVOTBOT_FAILPOINT=<point>:exit`, which makes it SIGKILL itself at that point of
 * its work (see `src/core/failpoint.ts`), and waits for it to end. A bot that has not reached the
 * point within `boundMs` (generous: a busy machine is slow, not wrong) is SIGKILLed; a run that
 * missed the point says how it ended, with the last lines it logged.
 */
export async function runToFailpoint(start: StartBot, point: string, boundMs = 60_000): Promise<FailpointRun> {
  const startedAt = Date.now();
  const bot = start({ PIVOTBOT_FAILPOINT: `${point}:exit` });
  const tail: string[] = [];
  const keep = (stream: string) => (chunk: Buffer) => {
    for (const line of String(chunk).split('\n')) if (line.trim()) tail.push(`${stream}: ${line.slice(0, 300)}`);
    tail.splice(0, Math.max(0, tail.length - 25));
  };
  bot.child.stdout?.on('data', keep('out'));
  bot.child.stderr?.on('data', keep('err'));
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    bot.child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    bot.child.kill('SIGKILL');
  }, boundMs);
  try {
    const { code, signal } = await ended;
    if (signal === 'SIGKILL' && !timedOut) return { hit: true };
    const how = timedOut ? `not reached within ${boundMs} ms` : `exited with ${code ?? signal}`;
    return { hit: false, why: `${point}: ${how} after ${Date.now() - startedAt} ms; last lines:\n${tail.join('\n')}` };
  } finally {
    clearTimeout(timer);
    bot.child.kill('SIGKILL');
    await bot.exited;
  }
}

/** Runs a bot and SIGKILLs it at a random moment in its first two seconds. */
export async function runAndKillAtRandom(start: StartBot): Promise<void> {
  const bot = start();
  bot.child.stdout?.resume();
  const timer = setTimeout(() => bot.child.kill('SIGKILL'), 300 + Math.random() * 1_700);
  try {
    await bot.exited;
  } finally {
    clearTimeout(timer);
  }
}
