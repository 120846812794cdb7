/**
 * `pivotbot start` as its own process (the build `npm test` makes first), logging at debug level
 * on stdout, for tests that crash it at chosen points of its work.
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

/** A bot started with (or without) extra environment, as `runUntilFailpoint` starts it. */
export type StartBot = (env?: Record<string, string>) => SpawnedBot;

/**
 * Runs a bot with `PIVOTBOT_FAILPOINT=<point>:exit`, which makes it exit (code 137) at that point of
 * its work (see `src/core/failpoint.ts`), and waits for it to exit. Resolves to whether it stopped
 * there; a bot that has not reached the point within `boundMs` (generous: a busy machine is slow,
 * not wrong) is SIGKILLed and counts as not.
 */
export async function runUntilFailpoint(start: StartBot, point: string, boundMs = 60_000): Promise<boolean> {
  const bot = start({ PIVOTBOT_FAILPOINT: `${point}:exit` });
  bot.child.stdout?.resume();
  const code = new Promise<number | null>((resolve) => bot.child.once('exit', (exitCode) => resolve(exitCode)));
  const timer = setTimeout(() => bot.child.kill('SIGKILL'), boundMs);
  try {
    return (await code) === 137;
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
