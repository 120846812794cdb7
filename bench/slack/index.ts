/**
 * bench/slack: acknowledgement latency of /pivot (500 signed commands, 50 at a time, while 4 heavy (`--heavy=N`)
 * reports keep running), and command-to-result time of a typical ad-hoc query, on the `medium`
 * sandbox. With `--modal`, query-builder round trips (a field changed → block_actions → the bot's
 * views.update arriving at Slack) are timed during that same load, which then lasts until they are
 * done. Three processes, as in production: the sandbox (`pivotbot sandbox`), the bot
 * (`botProcess.js`), and this one, which plays Slack (the test server) and the users.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { modalActionBody, postSigned, signedHeaders, slashCommandBody } from '../../test/support/slackRequests.js';
import { spawnUntil } from '../support/spawnUntil.js';
import { fmt, median, quantile } from '../support/stats.js';

const SECRET = 'bench-signing-secret';
const HEAVY = 'impressions clicks spend installs by siteBundle, countryCode last 7 days';
const TYPICAL = 'spend installs installsCpi by countryCode yesterday';
/**
 * --modal: open builders, and field changes one at a time across them. The bot then paces to
 * Slack's limits per second instead of per minute (BENCH_SLACK_WINDOW_MS, default 1000): at the
 * real ones, views.update's Tier 4 (100 a minute, bursts of 17) and chat.postMessage's 1 a second
 * per channel would be what is measured.
 */
const MODAL_VIEWS = 10;
const LIGHT = ['help', 'list'];
const MODAL_CHANGES = 60;
const MODAL_INTERVAL_MS = 20;

interface Ready {
  authUrl: string;
  graphqlUrl: string;
  clientId: string;
  clientSecret: string;
}

const here = dirname(fileURLToPath(import.meta.url));

/**
 * Slack's side of a request, as lean as Node allows (`http.request` on kept-alive sockets): 50
 * requests leave this process at once, and a heavier client (fetch) would spend the first
 * requests' time building the last ones, which the bot would then be charged for.
 */
const agent = new Agent({ keepAlive: true, maxSockets: 64 });
function postSignedLean(url: string, body: string, secret: string, fresh = false): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        // A fresh connection for the modal's changes: a kept-alive socket the server closed while
        // idle would fail with ECONNRESET.
        agent: fresh ? false : agent,
        headers: { ...signedHeaders(body, { signingSecret: secret }), 'content-length': Buffer.byteLength(body) },
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

async function startSandboxProcess(scale: string): Promise<{ child: ChildProcess; ready: Ready; seconds: number }> {
  const bin = join(here, '..', '..', '..', 'bin', 'pivotbot.js');
  const { child, value, seconds } = await spawnUntil<Ready>(
    [bin, 'sandbox', '--scale', scale, '--port', '0'],
    process.env,
    (l) => l.includes('"ready":true'),
  );
  return { child, ready: value, seconds };
}

export async function run(args: readonly string[]): Promise<void> {
  const scale = args.includes('--small') ? 'small' : 'medium';
  const heavyFlag = args.find((a) => a.startsWith('--heavy='));
  const heavyUsers = heavyFlag ? Number(heavyFlag.slice('--heavy='.length)) : 4;
  const modal = args.includes('--modal');
  const sandbox = await startSandboxProcess(scale);
  console.log(`sandbox (${scale}) ready in ${fmt(sandbox.seconds)} s`);
  const slackProcess = await spawnUntil<{ baseUrl: string; apiUrl: string; control: string }>(
    [join(here, 'slackProcess.js')],
    process.env,
    (l) => l.includes('"control"'),
  );
  const slack = slackProcess.value;
  /** Resolves with the number of posted messages containing `grep`, once it exceeds `above`. */
  const waitForPosts = async (grep: string, above: number, timeoutMs = 60_000): Promise<number> => {
    const url = `${slack.control}/wait?grep=${encodeURIComponent(grep)}&above=${above}&timeoutMs=${timeoutMs}`;
    const { count } = (await (await fetch(url)).json()) as { count: number };
    if (count <= above) throw new Error(`no new message containing "${grep}" within ${timeoutMs} ms`);
    return count;
  };
  const dir = await mkdtemp(join(tmpdir(), 'pivotbot-bench-'));
  const botProcess = await spawnUntil<{ port: number }>(
    [
      ...(process.env.BOT_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BOT_PROFILE}`] : []),
      join(here, 'botProcess.js'),
    ],
    {
      ...process.env,
      SLACK_BOT_TOKEN: 'xoxb-bench',
      SLACK_SIGNING_SECRET: SECRET,
      SLACK_API_URL: slack.apiUrl,
      PORT: '0',
      REPORTING_AUTH_URL: sandbox.ready.authUrl,
      REPORTING_GRAPHQL_URL: sandbox.ready.graphqlUrl,
      REPORTING_CLIENT_ID: sandbox.ready.clientId,
      REPORTING_CLIENT_SECRET: sandbox.ready.clientSecret,
      PIVOTBOT_STORE: join(dir, 'store.json'),
      PIVOTBOT_REPORTS_DIR: 'reports',
      // 500 commands arrive within seconds and the heavy users wait for their posts: every run
      // must wait its turn instead of being answered "busy" (the default queue holds 100).
      PIVOTBOT_MAX_QUEUED: '1000',
      WORK_DIR: join(dir, 'work'),
      ...(modal ? { BENCH_SLACK_WINDOW_MS: process.env.BENCH_SLACK_WINDOW_MS ?? '1000' } : {}),
    },
    (l) => l.includes('"port"'),
  );
  const bot = { port: botProcess.value.port };
  const url = `http://127.0.0.1:${bot.port}/slack/events`;
  let hook = 0;
  const send = (text: string, user = 'U0BENCH01') => {
    const body = slashCommandBody({ text, userId: user, responseUrl: `${slack.baseUrl}/hooks/b${++hook}` });
    return process.env.BENCH_FETCH
      ? postSigned(url, body, { signingSecret: SECRET }).then((r) => r.status)
      : postSignedLean(url, body, SECRET);
  };

  interface OpenModal {
    id: string;
    hash: string;
    updates: number;
  }
  const viewState = async (query: string): Promise<{ id: string; hash: string; ats: number[] }> =>
    (await fetch(`${slack.control}/view?${query}&timeoutMs=10000`)).json() as Promise<{
      id: string;
      hash: string;
      ats: number[];
    }>;
  /** `/pivot` alone from MODAL_VIEWS users: the builder opened for each. */
  const openModals = () =>
    Promise.all(
      Array.from({ length: MODAL_VIEWS }, async (_, k): Promise<OpenModal> => {
        const trigger = `bench-modal-${k}-${Date.now()}`;
        const body = slashCommandBody({
          text: '',
          userId: `U0MODAL${k}`,
          triggerId: trigger,
          responseUrl: `${slack.baseUrl}/hooks/m${k}`,
        });
        await postSignedLean(url, body, SECRET, true);
        const view = await viewState(`trigger=${encodeURIComponent(trigger)}&above=-1`);
        if (!view.id) throw new Error('the query builder did not open');
        return { id: view.id, hash: view.hash, updates: 0 };
      }),
    );
  const lost: string[] = [];
  /** MODAL_CHANGES field changes, one every MODAL_INTERVAL_MS, round-robin over the open modals. */
  let stopModal = false;
  const modalRoundTrips = async (views: OpenModal[]): Promise<number[]> => {
    const trips: number[] = [];
    const pending: Array<Promise<void>> = [];
    // Changes are sent while the burst lasts (at most MODAL_CHANGES); those out when it ends are awaited.
    for (let i = 0; i < MODAL_CHANGES && !stopModal; i++) {
      const view = views[i % views.length] as OpenModal;
      pending.push(
        (async () => {
          const sent = Date.now();
          const body = modalActionBody({
            actionId: 'pivot_qm_qm_top',
            blockId: 'qm_top',
            view: {
              id: view.id,
              hash: view.hash,
              callbackId: 'pivot_query_modal',
              privateMetadata: JSON.stringify({ channel: 'C0GENERAL1' }),
              values: {
                qm_metrics: {
                  pivot_qm_metrics: { type: 'multi_static_select', selected_options: [{ value: 'spend' }] },
                },
                qm_top: { pivot_qm_qm_top: { type: 'plain_text_input', value: String(i + 1) } },
              },
            },
          });
          const status = await postSignedLean(url, body, SECRET, true).catch((error: Error) => error.message);
          const after = await viewState(`id=${view.id}&above=${view.updates}`);
          const at = after.ats[view.updates];
          if (status !== 200 || at === undefined) {
            // Counted and said, not thrown: the load around it must still be stopped cleanly.
            lost.push(`${view.id}: block_actions answered ${status}, ${after.ats.length} updates after 10 s`);
            return;
          }
          trips.push(at - sent);
          view.updates = after.ats.length;
          view.hash = after.hash;
        })(),
      );
      await new Promise((r) => setTimeout(r, MODAL_INTERVAL_MS));
      // One change in flight per modal: the next one carries the hash of the last update.
      if (pending.length >= views.length) await pending[pending.length - views.length];
    }
    await Promise.all(pending);
    return trips;
  };

  try {
    // Warm-up: token, JIT, chart renderer.
    const warm = await waitForPosts('', -1, 0).catch(() => 0);
    await send(TYPICAL);
    await waitForPosts('', warm);

    // Command → result message, one at a time.
    const toResult: number[] = [];
    let posted = warm + 1;
    for (let i = 0; i < 20; i++) {
      const start = performance.now();
      await send(TYPICAL);
      posted = await waitForPosts('', posted);
      toResult.push(performance.now() - start);
    }
    console.log(`command → result message, "${TYPICAL}" (20 runs):`);
    console.log(`  median ${fmt(median(toResult))} ms, p95 ${fmt(quantile(toResult, 0.95))} ms`);

    // Four heavy reports kept running while 500 commands arrive, 50 at a time.
    let heavyRuns = 0;
    let heavyLate = 0;
    let stopHeavy = false;
    const heavy = Array.from({ length: heavyUsers }, async (_, k) => {
      let done = 0;
      while (!stopHeavy) {
        await send(HEAVY, `U0HEAVY${k}`);
        // A heavy report not posted within 2 minutes ends that user (said below), not the bench.
        const posted = await waitForPosts(`U0HEAVY${k}`, done, 120_000).catch(() => undefined);
        if (posted === undefined) {
          heavyLate++;
          return;
        }
        done = posted;
        heavyRuns++;
      }
    });
    await new Promise((r) => setTimeout(r, 200));
    // --modal: the round trips run alongside the burst, which repeats until they are done.
    let modalDone = !modal;
    const modalTrips = modal
      ? openModals()
          .then((views) => modalRoundTrips(views))
          .finally(() => {
            modalDone = true;
          })
      : Promise.resolve([] as number[]);
    botProcess.child.send('reset');
    const acks: number[] = [];
    const texts = [
      TYPICAL,
      'help',
      'list',
      'clicks ctr by appPlatform last 7 days',
      'spend by campaign yesterday top 5 by spend',
    ];
    // The burst goes on (at most 10 more batches, of commands that queue no run) while --modal's
    // changes are still out.
    for (let batch = 0; batch < 10 || (!modalDone && batch < 20); batch++) {
      await Promise.all(
        Array.from({ length: 50 }, async (_, j) => {
          const start = performance.now();
          // Past the 500: commands that queue no run (help, list), the same 50 at a time for the
          // receiver while the runs queued so far keep the bot busy.
          const pool = batch < 10 ? texts : LIGHT;
          const status = await send(pool[(batch * 50 + j) % pool.length] as string);
          acks.push(performance.now() - start);
          if (status !== 200) throw new Error(`ack answered ${status}`);
        }),
      );
    }
    const loopDelay = new Promise<{ p50: number; p99: number; max: number }>((resolve) =>
      botProcess.child.once('message', (m) => resolve(m as { p50: number; p99: number; max: number })),
    );
    const health = (await (await fetch(`http://127.0.0.1:${bot.port}/healthz`)).json()) as {
      acks: { count: number; p50Ms: number; p99Ms: number; maxMs: number };
    };
    botProcess.child.send('read');
    const botLoop = await loopDelay;
    stopHeavy = true;
    stopModal = true;
    const trips = await modalTrips.catch((error: Error) => {
      lost.push(error.message);
      return [] as number[];
    });
    await Promise.all(heavy);
    console.log(
      `ack latency, ${acks.length} commands at 50 concurrent while ${heavyUsers} heavy reports ran (${heavyRuns} heavy runs finished${heavyLate > 0 ? `, ${heavyLate} not posted within 2 min` : ''}):`,
    );
    console.log(
      `  p50 ${fmt(median(acks))} ms, p99 ${fmt(quantile(acks, 0.99))} ms, max ${fmt(Math.max(...acks))} ms (target p99 ≤ 100 ms)`,
    );
    console.log(
      `  the bot's side (its /healthz, arrival → ack written, last ${Math.min(1000, health.acks.count)} requests): p50 ${fmt(health.acks.p50Ms)} ms, p99 ${fmt(health.acks.p99Ms)} ms, max ${fmt(health.acks.maxMs)} ms`,
    );
    console.log(
      `  the bot's event-loop delay meanwhile: p50 ${fmt(botLoop.p50)} ms, p99 ${fmt(botLoop.p99)} ms, max ${fmt(botLoop.max)} ms`,
    );
    if (modal) {
      console.log(
        `query-builder round trip (block_actions sent → views.update at Slack), ${trips.length} changes in ${MODAL_VIEWS} open modals, one every ${MODAL_INTERVAL_MS} ms, Slack's limits per ${process.env.BENCH_SLACK_WINDOW_MS ?? '1000'} ms instead of per minute, during that load:`,
      );
      console.log(
        `  p50 ${fmt(median(trips))} ms, p99 ${fmt(quantile(trips, 0.99))} ms, max ${fmt(Math.max(...trips))} ms`,
      );
      if (lost.length > 0)
        console.log(`  ${lost.length} change(s) got no views.update: ${lost.slice(0, 3).join('; ')}`);
    }
  } finally {
    botProcess.child.kill('SIGTERM');
    await new Promise((r) => botProcess.child.once('exit', r));
    slackProcess.child.kill('SIGTERM');
    sandbox.child.kill('SIGTERM');
    await rm(dir, { recursive: true, force: true });
  }
}
