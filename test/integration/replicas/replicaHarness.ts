/**
 * Several `pivotbot start` processes (the built CLI) on one PostgreSQL database, with the Slack
 * test server and the sandbox: each replica's log lines are kept, so a test can act when one of
 * them reaches a point of a delivery (and SIGKILL it there).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import pg from 'pg';
import type { RunningSandbox } from '../../../src/sandbox/index.js';
import { botEnv } from '../../support/botEnv.js';
import type { SlackTestServer, StoredMessage } from '../../support/slackTestServer.js';

export const SIGNING_SECRET = 'replica-test-secret';

export interface Replica {
  name: string;
  child: ChildProcess;
  /** The HTTP port, once listening. */
  port: Promise<number>;
  exited: Promise<void>;
  /** Every stdout line so far (JSON log lines). */
  lines: string[];
  /** Called with each new line (set by a test that waits for a point). */
  onLine?: (line: string) => void;
}

export interface ReplicaEnv {
  slack: SlackTestServer;
  sandbox: RunningSandbox;
  reports: string;
  store: string;
  leaseSeconds: number;
  /** `PIVOTBOT_HEARTBEAT_SECONDS`: how long a scheduled step stays with a replica that stopped renewing it (default 10, pg-boss's least). */
  heartbeatSeconds?: number;
}

/** The job heartbeat of the replicas' scheduled steps: a dead replica's slot is handed over within 1.2 of it. */
export const HEARTBEAT_SECONDS = 10;

let counter = 0;

export function startReplica(env: ReplicaEnv): Replica {
  const name = `replica-${++counter}`;
  const child = spawn(process.execPath, ['bin/pivotbot.js', 'start'], {
    env: botEnv({
      LOG_LEVEL: 'debug',
      SLACK_BOT_TOKEN: 'xoxb-replica-test',
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: env.slack.apiUrl,
      PORT: '0',
      REPORTING_AUTH_URL: env.sandbox.authUrl,
      REPORTING_GRAPHQL_URL: env.sandbox.graphqlUrl,
      REPORTING_CLIENT_ID: env.sandbox.clientId,
      REPORTING_CLIENT_SECRET: env.sandbox.clientSecret,
      PIVOTBOT_REPORTS_DIR: env.reports,
      PIVOTBOT_STORE: env.store,
      PIVOTBOT_LEASE_SECONDS: String(env.leaseSeconds),
      PIVOTBOT_HEARTBEAT_SECONDS: String(env.heartbeatSeconds ?? HEARTBEAT_SECONDS),
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const replica: Replica = { name, child, exited, lines: [], port: Promise.resolve(0) };
  // What a replica says on stderr (a crash's stack) is kept with its log lines.
  child.stderr?.on('data', (chunk: Buffer) => replica.lines.push(...chunk.toString().split('\n').filter(Boolean)));
  let listening: (port: number) => void = () => undefined;
  replica.port = new Promise<number>((resolve) => {
    listening = resolve;
  });
  void exited.then(() => listening(0));
  const input = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  input.on('line', (line) => {
    replica.lines.push(line);
    const match = /listening on port (\d+)/.exec(line);
    if (match) listening(Number(match[1]));
    replica.onLine?.(line);
  });
  return replica;
}

/** Stops a replica as a platform would (SIGTERM), and waits for it to exit. */
export async function stopReplica(replica: Replica): Promise<void> {
  if (replica.child.exitCode === null && replica.child.signalCode === null) replica.child.kill('SIGTERM');
  await replica.exited;
}

export async function killReplica(replica: Replica): Promise<void> {
  replica.child.kill('SIGKILL');
  await replica.exited;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it holds; fails after `timeoutMs`. */
export async function eventually(
  check: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(50);
  }
}

/** Top-level digest posts (not thread replies), keyed `report@slot`, with how many times each was posted. */
export function digestCounts(slack: SlackTestServer): Map<string, number> {
  const posted = new Map<string, number>();
  for (const m of slack.messages.filter(isDigest)) {
    const key = `${String(m.metadata?.event_payload.report)}@${String(m.metadata?.event_payload.slot)}`;
    posted.set(key, (posted.get(key) ?? 0) + 1);
  }
  return posted;
}

const isDigest = (m: StoredMessage): boolean => m.metadata?.event_type === 'pivotbot_digest' && !m.threadTs;

export async function sql<T extends pg.QueryResultRow>(
  url: string,
  text: string,
  params: unknown[] = [],
): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text, params)).rows;
  } finally {
    await client.end();
  }
}

/**
 * The slots between each report's first and last posted one that were neither posted nor
 * recorded skipped in the store (each slot `everyMs` apart): what a replica lost.
 */
export async function lostSlots(
  url: string,
  posted: Map<string, number>,
  everyMs: Record<string, number>,
): Promise<string[]> {
  const skipped = new Set(
    (await sql<{ key: string }>(url, "SELECT idempotency_key AS key FROM pivotbot_runs WHERE status = 'skipped'")).map(
      (r) => r.key,
    ),
  );
  const lost: string[] = [];
  for (const [report, step] of Object.entries(everyMs)) {
    const times = [...posted.keys()]
      .filter((k) => k.startsWith(`${report}@`))
      .map((k) => Date.parse(k.slice(report.length + 1)))
      .sort((a, b) => a - b);
    if (times.length === 0) {
      lost.push(`${report}: nothing posted`);
      continue;
    }
    for (let t = times[0] as number; t <= (times.at(-1) as number); t += step) {
      const slot = new Date(t).toISOString();
      const wasSkipped = [...skipped].some((key) => key.startsWith(`digest:${report}:`) && key.endsWith(slot));
      if (!posted.has(`${report}@${slot}`) && !wasSkipped) lost.push(`${report}@${slot}`);
    }
  }
  return lost;
}
