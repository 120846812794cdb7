/**
 * bench/scheduler: 200 digests due the same instant (20 report files × 10 channels) on the
 * `medium` sandbox, the Slack test server enforcing Slack's per-method and per-channel limits
 * with 429s. Four processes, as in production: the sandbox (`pivotbot sandbox`), Slack
 * (`slackProcess.js`), the bot (`botProcess.js`, with its chart process) and this one, which sends
 * `/pivot` commands through the burst. Slack's one-minute windows are shortened by `--factor=N`
 * (default 10: 6 s windows, the same counts per window, on both sides), so the burst takes
 * seconds instead of minutes; `--factor=1` runs Slack's real windows.
 *
 * Prints: slot → last digest posted and → last upload, against the least time the rate limits
 * allow for the calls made (`paceLowerBoundMs`; goal within 1.2×), the 429s received, the bot's
 * peak RSS (goal ≤ 400 MB), bot and chart process together (RSS summed, goal ≤ 256 MiB, and their
 * PSS) and the ack p50/p99 of the commands sent during the burst (goal p99 ≤ 100 ms).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BOT_MALLOC_ENV, BOT_NODE_FLAGS } from '../../src/cli/botProcess.js';
import { paceLowerBoundMs } from '../../src/slackapi/index.js';

/** Slack's rate-limit window (src/slackapi/rateLimits.ts). */
const SLACK_WINDOW_MS = 60_000;

import { signedHeaders, slashCommandBody } from '../../test/support/slackRequests.js';
import { spawnUntil } from '../support/spawnUntil.js';
import { fmt, median, quantile } from '../support/stats.js';

const SECRET = 'bench-signing-secret';
const REPORTS = 20;
const CHANNELS = Array.from({ length: 10 }, (_, i) => `C0DIGEST${String(i).padStart(2, '0')}`);
const TYPICAL = 'spend installs installsCpi by countryCode yesterday';
/** What the users type during the burst: light commands (answered privately), and one query in forty (posted to #general). */
const COMMANDS = [...Array.from({ length: 39 }, (_, i) => ['help', 'list', 'schedule', 'help ranges'][i % 4]), TYPICAL];
/** Queries posted during the burst at most: a fixed load, whatever the burst's length (the window factor). */
const MAX_QUERIES = 20;
/** Commands sent per second during the burst. */
const COMMAND_RATE = 20;
/** The slot is this long after the bot's files are written, so the bot is up before it. */
const LEAD_MS = 45_000;

interface Ready {
  authUrl: string;
  graphqlUrl: string;
  clientId: string;
  clientSecret: string;
}

interface Memory {
  rss: number;
  heapTotal: number;
  heapUsed: number;
  external: number;
}

interface StoredRuns {
  runs: Array<{ status: string; trigger: string }>;
}

interface SlackSummary {
  digests: number;
  slots: string[];
  lastDigestMs?: number;
  lastUploadMs?: number;
  calls: Record<string, number>;
  maxPostsPerChannel: number;
  rateLimited: Record<string, number>;
  duplicates: number;
}

const here = dirname(fileURLToPath(import.meta.url));
const agent = new Agent({ keepAlive: true, maxSockets: 64 });

/** A signed POST on a kept-alive socket (see bench/slack); resolves with the status. */
function postSignedLean(url: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        agent,
        headers: { ...signedHeaders(body, { signingSecret: SECRET }), 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Report `i`: a typical digest (headline, bar chart, top rows, CSV in the thread), due at `slot`. */
function reportYaml(i: number, slot: Date): string {
  const dimension = ['countryCode', 'appPlatform', 'campaignType', 'countryCode'][i % 4];
  const metric = ['spend', 'installs', 'clicks', 'impressions'][i % 4];
  const cron = `${slot.getUTCSeconds()} ${slot.getUTCMinutes()} ${slot.getUTCHours()} * * *`;
  return `title: Bench digest ${i}
query:
  dimensions: [${dimension}]
  metrics: [impressions, clicks, spend, installs]
  range: yesterday
present:
  headline: [spend, installs]
  compare: previous_period
  # Explanations are measured by bench/explain; here each digest is the same two posts as before.
  explain: false
  sort: -${metric}
  top: 10
  chart: { type: bar, x: ${dimension}, series: [${metric}] }
mode: sync
schedule:
  cron: "${cron}"
  timezone: UTC
deliver:
  channels: [${CHANNELS.map((c) => `"${c}"`).join(', ')}]
`;
}

/** The bot's node flags: BOT_NODE_FLAGS, or those BENCH_BOT_NODE_FLAGS says (space-separated) to compare. */
function botNodeFlags(): readonly string[] {
  const given = process.env.BENCH_BOT_NODE_FLAGS;
  return given === undefined ? BOT_NODE_FLAGS : given.split(/\s+/).filter(Boolean);
}

const stop = async (child: ChildProcess) => {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
};

export async function run(args: readonly string[]): Promise<void> {
  const scale = args.includes('--small') ? 'small' : 'medium';
  const factorFlag = args.find((a) => a.startsWith('--factor='));
  const factor = factorFlag ? Number(factorFlag.slice('--factor='.length)) : 10;
  const windowMs = Math.round(SLACK_WINDOW_MS / factor);
  const bin = join(here, '..', '..', '..', 'bin', 'pivotbot.js');
  // BENCH_SANDBOX=<its ready line> uses a sandbox already running (repeated runs skip generating the data).
  const sandbox = process.env.BENCH_SANDBOX
    ? { child: undefined, value: JSON.parse(process.env.BENCH_SANDBOX) as Ready, seconds: 0 }
    : await spawnUntil<Ready>([bin, 'sandbox', '--scale', scale, '--port', '0'], process.env, (l) =>
        l.includes('"ready":true'),
      );
  console.log(`sandbox (${process.env.BENCH_SANDBOX ? 'given' : scale}) ready in ${fmt(sandbox.seconds)} s`);
  const children: ChildProcess[] = sandbox.child ? [sandbox.child] : [];
  const dir = await mkdtemp(join(tmpdir(), 'pivotbot-bench-sched-'));
  try {
    const slackProcess = await spawnUntil<{ baseUrl: string; apiUrl: string; control: string }>(
      [join(here, 'slackProcess.js')],
      { ...process.env, BENCH_WINDOW_MS: String(windowMs), BENCH_CHANNELS: CHANNELS.join(',') },
      (l) => l.includes('"control"'),
    );
    children.unshift(slackProcess.child);
    const slack = slackProcess.value;
    const summary = async (digests: number, timeoutMs: number): Promise<SlackSummary> =>
      (await (await fetch(`${slack.control}/wait?digests=${digests}&timeoutMs=${timeoutMs}`)).json()) as SlackSummary;

    const slot = new Date(Math.ceil((Date.now() + LEAD_MS) / 1000) * 1000);
    const reportsDir = join(dir, 'reports');
    await mkdir(reportsDir, { recursive: true });
    for (let i = 0; i < REPORTS; i++) await writeFile(join(reportsDir, `bench-${i}.yaml`), reportYaml(i, slot));

    const storePath = join(dir, 'store.json');
    const botProcess = await spawnUntil<{ port: number }>(
      // As `pivotbot start` runs it: with the bot's V8 flags (BENCH_BOT_NODE_FLAGS="…" tries others; "" none).
      [...botNodeFlags(), join(here, 'botProcess.js')],
      {
        // As `pivotbot start` runs: with the bot's malloc settings (BENCH_BOT_MALLOC=0 leaves them out).
        ...(process.env.BENCH_BOT_MALLOC === '0' ? {} : BOT_MALLOC_ENV),
        ...process.env,
        SLACK_BOT_TOKEN: 'xoxb-bench',
        SLACK_SIGNING_SECRET: SECRET,
        SLACK_API_URL: slack.apiUrl,
        PORT: '0',
        REPORTING_AUTH_URL: sandbox.value.authUrl,
        REPORTING_GRAPHQL_URL: sandbox.value.graphqlUrl,
        REPORTING_CLIENT_ID: sandbox.value.clientId,
        REPORTING_CLIENT_SECRET: sandbox.value.clientSecret,
        PIVOTBOT_STORE: storePath,
        PIVOTBOT_REPORTS_DIR: reportsDir,
        PIVOTBOT_TIMEZONE: 'UTC',
        WORK_DIR: join(dir, 'work'),
        BENCH_WINDOW_MS: String(windowMs),
      },
      (l) => l.includes('"port"'),
    );
    children.unshift(botProcess.child);
    console.log(
      `bot (node ${botNodeFlags().join(' ') || 'without flags'}${process.env.BENCH_BOT_MALLOC === '0' ? ', no malloc settings' : ', malloc settings'}) ready in ${fmt(botProcess.seconds)} s; slot at ${slot.toISOString()}`,
    );
    const url = `http://127.0.0.1:${botProcess.value.port}/slack/events`;
    let hook = 0;
    const send = (text: string) =>
      postSignedLean(
        url,
        slashCommandBody({ text, userId: 'U0BENCH01', responseUrl: `${slack.baseUrl}/hooks/s${++hook}` }),
      );

    // Warm-up, as a bot that has been running: token, JIT, chart process.
    await send(TYPICAL);
    const warm = await summary(0, 0);
    const deadline = Date.now() + 30_000;
    while (
      (await summary(0, 0)).calls['chat.postMessage'] === warm.calls['chat.postMessage'] &&
      Date.now() < deadline
    ) {
      await new Promise((r) => setTimeout(r, 200));
    }
    const wait = slot.getTime() - Date.now() - 1_000;
    if (wait < 0) throw new Error(`the bot was ready ${fmt(-wait / 1000)} s too late for the slot; raise LEAD_MS`);
    await new Promise((r) => setTimeout(r, wait));
    const before = await summary(0, 0);
    const ask = <T>(message: string) =>
      new Promise<T>((resolve) => {
        botProcess.child.once('message', (m) => resolve(m as T));
        botProcess.child.send(message);
      });
    const atSlot = await ask<Memory>('mark');

    // Commands through the burst, COMMAND_RATE a second, until every digest is out.
    const acks: number[] = [];
    let queries = 0;
    const nextCommand = (i: number): string => {
      const text = COMMANDS[i % COMMANDS.length] as string;
      if (text !== TYPICAL) return text;
      return ++queries <= MAX_QUERIES ? text : 'help';
    };
    let sending = true;
    const pending: Array<Promise<void>> = [];
    const sender = (async () => {
      for (let i = 0; sending; i++) {
        const start = performance.now();
        pending.push(
          send(nextCommand(i)).then((status) => {
            if (status !== 200) throw new Error(`ack answered ${status}`);
            acks.push(performance.now() - start);
          }),
        );
        await new Promise((r) => setTimeout(r, 1000 / COMMAND_RATE));
      }
    })();
    const expected = REPORTS * CHANNELS.length;
    // Done when every slot's run is recorded (after its post and its uploads).
    const runsDone = async () => {
      const text = await readFile(storePath, 'utf8').catch(() => '{"runs":[]}');
      const runs = (JSON.parse(text) as StoredRuns).runs;
      return runs.filter((r) => r.trigger !== 'manual' && r.status !== 'running').length;
    };
    const doneBy = Date.now() + 20 * windowMs + 180_000;
    while ((await runsDone()) < expected && Date.now() < doneBy) await new Promise((r) => setTimeout(r, 100));
    const after = await summary(expected, 0);
    sending = false;
    await sender;
    await Promise.all(pending);
    const bot = await ask<{
      peak: Memory;
      /** The chart process (the bot's children) at its peak, and the bot with its children. */
      childPeak: { children: number; total: number; pss: number };
      natives: string[];
      status: Record<string, string>;
      loop: { p50: number; p99: number; max: number };
    }>('read');
    await stop(botProcess.child);

    const delta: Record<string, number> = {};
    for (const [method, n] of Object.entries(after.calls)) {
      const made = n - (before.calls[method] ?? 0);
      if (made > 0) delta[method] = made;
    }
    const bound = paceLowerBoundMs(delta, { windowMs }, { 'chat.postMessage': after.maxPostsPerChannel });
    const toLastDigest = (after.lastDigestMs ?? Number.NaN) - slot.getTime();
    const toLastUpload = (after.lastUploadMs ?? Number.NaN) - slot.getTime();
    const limited429 = Object.values(after.rateLimited).reduce((a, b) => a + b, 0);
    const store = JSON.parse(await readFile(storePath, 'utf8')) as StoredRuns;
    const outcomes: Record<string, number> = {};
    for (const r of store.runs.filter((r) => r.trigger !== 'manual'))
      outcomes[r.status] = (outcomes[r.status] ?? 0) + 1;

    console.log(
      `${after.digests} digests (${REPORTS} reports × ${CHANNELS.length} channels) due ${slot.toISOString()}, Slack windows ${windowMs} ms (factor ${factor}); runs: ${JSON.stringify(outcomes)}, duplicates ${after.duplicates}`,
    );
    console.log(`  Web API calls in the burst: ${JSON.stringify(delta)}`);
    console.log(
      `  slot → last digest posted ${fmt(toLastDigest / 1000, 2)} s; → last upload done ${fmt(toLastUpload / 1000, 2)} s; rate-limit lower bound ${fmt(bound / 1000, 2)} s → ${fmt(toLastUpload / bound, 3)}× (goal ≤ 1.2×)`,
    );
    console.log(`  429s received (all retried after Retry-After): ${limited429} ${JSON.stringify(after.rateLimited)}`);
    console.log(
      `  bot RSS ${fmt(atSlot.rss)} MiB at the slot, peak ${fmt(bot.peak.rss)} MiB (goal ≤ 400 MB); its child processes (the chart process) peak ${fmt(bot.childPeak.children)} MiB, bot and children together peak ${fmt(bot.childPeak.total)} MiB (goal ≤ 256 MiB; PSS, shared pages counted once, ${fmt(bot.childPeak.pss)} MiB); peaks: heap total ${fmt(bot.peak.heapTotal)} MiB, heap used ${fmt(bot.peak.heapUsed)} MiB, external ${fmt(bot.peak.external)} MiB; native addons loaded: ${bot.natives.join(', ') || 'none'}; at the end ${JSON.stringify(bot.status)}`,
    );
    console.log(
      `  /pivot ack during the burst (${acks.length} commands at ${COMMAND_RATE}/s): p50 ${fmt(median(acks))} ms, p99 ${fmt(quantile(acks, 0.99))} ms, max ${fmt(Math.max(...acks))} ms (goal p99 ≤ 100 ms); bot event-loop delay p99 ${fmt(bot.loop.p99)} ms`,
    );
  } finally {
    for (const child of children) await stop(child);
    await rm(dir, { recursive: true, force: true });
  }
}
