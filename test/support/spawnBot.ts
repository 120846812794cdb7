/**
 * `pivotbot start` as its own process (the build `npm test` makes first), logging at debug level
 * on stdout, for tests that kill it at chosen points of its work.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { RunningSandbox } from '../../src/sandbox/index.js';
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
    env: {
      PATH: process.env.PATH,
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
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.stderr?.resume();
  return { child, lines: createInterface({ input: child.stdout as NodeJS.ReadableStream }), exited };
}

/**
 * Runs a bot until it logs the message `point` (a pino `msg`), then SIGKILLs it; `random` kills it
 * at a random moment instead. Resolves to whether the point was reached.
 */
export async function runUntilLogged(start: () => SpawnedBot, point: string, deadlineMs: number): Promise<boolean> {
  const bot = start();
  const timer = setTimeout(
    () => bot.child.kill('SIGKILL'),
    point === 'random' ? 300 + Math.random() * 1_700 : deadlineMs,
  );
  let hit = false;
  try {
    for await (const line of bot.lines) {
      if (point !== 'random' && line.includes(`"msg":"${point}"`)) {
        bot.child.kill('SIGKILL');
        hit = true;
        break;
      }
    }
  } finally {
    clearTimeout(timer);
    bot.child.kill('SIGKILL');
    await bot.exited;
  }
  return hit;
}

/**
 * Runs a bot started with `PIVOTBOT_FAILPOINT` until it exits (the failpoint ends it with code 137),
 * SIGKILLing it if it has not within `deadlineMs`. Resolves to its exit code (null when killed).
 */
export async function runUntilExit(start: () => SpawnedBot, deadlineMs: number): Promise<number | null> {
  const bot = start();
  bot.child.stdout?.resume();
  const timer = setTimeout(() => bot.child.kill('SIGKILL'), deadlineMs);
  try {
    await bot.exited;
  } finally {
    clearTimeout(timer);
  }
  return bot.child.exitCode;
}
