/**
 * bench/slack: acknowledgement latency of /pivot (500 signed commands, 50 at a time, while 4 heavy (`--heavy=N`)
 * reports keep running), and command-to-result time of a typical ad-hoc query, on the `medium`
 * sandbox. With `--modal`, query-builder round trips (a field changed → block_actions → the bot's
 * views.update arriving at Slack) are timed during that same load, which then lasts until they are
 * done. With `--events`, follow-ups in threads: the same burst runs three times, as commands only,
 * then with a fifth of it arriving as thread replies under the bot's answers and another fifth as
 * mentions (`event_callback`s), then as commands only again, for the ack figures side by side;
 * each reply is timed from its event being sent to the refined answer reaching Slack. With `--receivers[=N]`, the ack
 * bench runs 2N times (N = 2 by default) against one sandbox and one Slack, alternating a bot that receives in its
 * worker thread and one that receives inline on its own thread, and prints their figures side by side. Four processes, as in production: the
 * sandbox (`pivotbot sandbox`), the bot (`botProcess.js`), Slack (`slackProcess.js`, the test
 * server), and this one, which plays the users.
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
/**
 * --events: the threads' parents are answers to PARENT in their own channel (as a team's reports
 * channel), the replies rotate over FOLLOW_UPS (phrasings of the follow-ups corpus, each refining
 * PARENT), and mentions ask in another channel. Each thread gets one reply, so its first post by
 * the bot is that reply's answer.
 */
const THREADS_CHANNEL = 'C0THREADS1';
const MENTIONS_CHANNEL = 'C0MARKET01';
const PARENT = 'cpi by country yesterday';
const FOLLOW_UPS = [
  'only iOS',
  'by source instead',
  'last 30 days',
  'campaign 1001',
  'installs too',
  'spend and installs',
  'US and BR only',
];
/** Follow-ups timed one at a time, without load, before the burst. */
const SOLO_FOLLOW_UPS = 10;
/** The burst's thread replies with events in the mix: a third of its 300 queries (and as many mentions). */
const BURST_REPLIES = 100;
/**
 * --events: Slack's per-minute limits over this many ms (BENCH_SLACK_WINDOW_MS overrides). Every
 * follow-up reads its thread (conversations.replies, Tier 3: 50 a window, bursts of 9), and the
 * burst's 100 replies come within a second: at 1000 ms they would be paced over 2 s, which is
 * the limit's time, not the bot's; at 100 ms they are not.
 */
const EVENTS_WINDOW_MS = '100';

/** Where the bot receives Slack (`--receivers`): its worker thread, or inline on the bot's thread. */
type Receiver = 'thread' | 'inline';

/** One bot's ack figures (ms), for the side-by-side table of `--receivers`. */
interface AckFigures {
  p50: number;
  p99: number;
  max: number;
  botP50: number;
  botP99: number;
  loopP99: number;
  heavyRuns: number;
}

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
function postSignedLean(
  url: string,
  body: string,
  secret: string,
  fresh = false,
  contentType?: string,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        // A fresh connection for the modal's changes: a kept-alive socket the server closed while
        // idle would fail with ECONNRESET.
        agent: fresh ? false : agent,
        headers: {
          ...signedHeaders(body, { signingSecret: secret, ...(contentType ? { contentType } : {}) }),
          'content-length': Buffer.byteLength(body),
        },
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
  const events = args.includes('--events');
  // --receivers[=N]: N pairs (default 2) of a bot receiving in its thread and one receiving inline.
  const receiversFlag = args.find((a) => a === '--receivers' || a.startsWith('--receivers='));
  const receivers = receiversFlag !== undefined;
  const pairs = receiversFlag?.includes('=') ? Number(receiversFlag.slice('--receivers='.length)) : 2;
  if (modal && events) throw new Error('bench/slack: --modal and --events are separate runs');
  if (receivers && (modal || events)) throw new Error('bench/slack: --receivers runs the ack bench alone');
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
  const withBot = async (receiver: Receiver | undefined, k: number): Promise<AckFigures | undefined> => {
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
        PIVOTBOT_STORE: join(dir, `store-${k}.json`),
        PIVOTBOT_REPORTS_DIR: 'reports',
        // 500 commands arrive within seconds and the heavy users wait for their posts: every run
        // must wait its turn instead of being answered "busy" (the default queue holds 100).
        PIVOTBOT_MAX_QUEUED: '1000',
        WORK_DIR: join(dir, `work-${k}`),
        ...(receiver ? { BENCH_RECEIVER_THREAD: receiver === 'thread' ? '1' : '0' } : {}),
        ...(modal || events
          ? { BENCH_SLACK_WINDOW_MS: process.env.BENCH_SLACK_WINDOW_MS ?? (events ? EVENTS_WINDOW_MS : '1000') }
          : {}),
      },
      (l) => l.includes('"port"'),
    );
    const bot = { port: botProcess.value.port };
    const url = `http://127.0.0.1:${bot.port}/slack/events`;
    let hook = 0;
    const send = (text: string, user = 'U0BENCH01', channelId?: string) => {
      const body = slashCommandBody({
        text,
        userId: user,
        responseUrl: `${slack.baseUrl}/hooks/b${++hook}`,
        ...(channelId ? { channelId } : {}),
      });
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

    /** A person's message stored at Slack, and the event Slack sends the bot for it. */
    const say = async (m: { channel: string; user: string; text: string; threadTs?: string; mention?: boolean }) =>
      (await (await fetch(`${slack.control}/say`, { method: 'POST', body: JSON.stringify(m) })).json()) as {
        ts: string;
      } & Record<string, unknown>;
    let eventId = 0;
    /** A signed `event_callback`, as Slack delivers it over HTTP. */
    const sendEvent = (event: Record<string, unknown>) =>
      postSignedLean(
        url,
        JSON.stringify({
          token: 'x',
          team_id: 'T_TEST',
          api_app_id: 'A_PIVOT',
          type: 'event_callback',
          event_id: `EvBENCH${++eventId}`,
          event_time: Math.floor(Date.now() / 1000),
          event,
        }),
        SECRET,
        false,
        'application/json',
      );
    /** The bot's first answer in a thread, as Slack received it: its arrival (ms), and the bot's posts there before it. */
    const firstPost = async (channel: string, threadTs: string, timeoutMs = 120_000) =>
      (await (
        await fetch(`${slack.control}/reply?channel=${channel}&threadTs=${threadTs}&timeoutMs=${timeoutMs}`)
      ).json()) as { at?: number; before?: number };
    const loopDelayOfBot = () => {
      const read = new Promise<{ p50: number; p99: number; max: number }>((resolve) =>
        botProcess.child.once('message', (m) => resolve(m as { p50: number; p99: number; max: number })),
      );
      botProcess.child.send('read');
      return read;
    };
    /** Users who each keep a heavy report running until `stop()`, which resolves with what they ran. */
    const heavyLoad = () => {
      let runs = 0;
      let late = 0;
      let stopped = false;
      const users = Array.from({ length: heavyUsers }, async (_, k) => {
        let done = await waitForPosts(`U0HEAVY${k}`, -1, 0).catch(() => 0);
        while (!stopped) {
          await send(HEAVY, `U0HEAVY${k}`);
          const posted = await waitForPosts(`U0HEAVY${k}`, done, 120_000).catch(() => undefined);
          if (posted === undefined) {
            late++;
            return;
          }
          done = posted;
          runs++;
        }
      });
      return {
        stop: async () => {
          stopped = true;
          await Promise.all(users);
          return { runs, late };
        },
      };
    };

    /**
     * --events. Parents first (answers to PARENT in THREADS_CHANNEL), then follow-ups one at a time
     * without load, then under the ack benchmark's load the same burst three times: 500 commands
     * (A1), 500 requests of which a third of the 300 queries are thread replies and a third mentions
     * (B: the same runs and the same light commands, two thirds of the runs arriving as events), and
     * 500 commands again (A2).
     */
    const followUpsBench = async () => {
      const parentsNeeded = SOLO_FOLLOW_UPS + BURST_REPLIES;
      const parentsStart = performance.now();
      let parents: string[] = [];
      while (parents.length < parentsNeeded) {
        const have = parents.length;
        const n = Math.min(10, parentsNeeded - have);
        await Promise.all(Array.from({ length: n }, () => send(PARENT, 'U0PARENT1', THREADS_CHANNEL)));
        const answer = (await (
          await fetch(`${slack.control}/answers?channel=${THREADS_CHANNEL}&above=${have + n - 1}&timeoutMs=60000`)
        ).json()) as { ts: string[] };
        if (answer.ts.length < have + n) throw new Error(`only ${answer.ts.length} of ${have + n} parents answered`);
        parents = answer.ts;
      }
      console.log(
        `${parents.length} parents ("${PARENT}" answered in their channel) in ${fmt((performance.now() - parentsStart) / 1000)} s`,
      );
      const replyIn = async (threadTs: string, k: number) =>
        say({
          channel: THREADS_CHANNEL,
          user: 'U0ASKER1',
          text: FOLLOW_UPS[k % FOLLOW_UPS.length] as string,
          threadTs,
        });

      // A follow-up alone: reply → the refined answer at Slack.
      const solo: number[] = [];
      let soloNoticed = 0;
      for (let i = 0; i < SOLO_FOLLOW_UPS; i++) {
        const thread = parents[i] as string;
        const event = await replyIn(thread, i);
        const sent = Date.now();
        const status = await sendEvent(event);
        if (status !== 200) throw new Error(`a thread reply's event was answered ${status}`);
        const post = await firstPost(THREADS_CHANNEL, thread, 60_000);
        if (post.at === undefined) throw new Error(`no answer to "${FOLLOW_UPS[i % FOLLOW_UPS.length]}" within 60 s`);
        solo.push(post.at - sent);
        if ((post.before ?? 0) > 0) soloNoticed++;
      }
      console.log(`follow-up → refined answer at Slack, one at a time without load (${solo.length} replies):`);
      console.log(
        `  median ${fmt(median(solo))} ms, p95 ${fmt(quantile(solo, 0.95))} ms, max ${fmt(Math.max(...solo))} ms (${soloNoticed} told "queued" first)`,
      );

      const heavy = heavyLoad();
      await new Promise((r) => setTimeout(r, 200));
      const texts = [
        TYPICAL,
        'help',
        'list',
        'clicks ctr by appPlatform last 7 days',
        'spend by campaign yesterday top 5 by spend',
      ];
      type Kind = 'command' | 'reply' | 'mention';
      const threads = parents.slice(SOLO_FOLLOW_UPS);
      let replies = 0;
      /** One burst, 10 batches of 50 at once; `kindOf` says which of a batch's queries come as events. */
      const burst = async (kindOf: (query: number) => Kind) => {
        const acks: Record<Kind, number[]> = { command: [], reply: [], mention: [] };
        const trips: Array<Promise<{ kind: Kind; trip?: number; before?: number }>> = [];
        let commandQueries = 0;
        for (let batch = 0; batch < 10; batch++) {
          // The batch's events are stored at Slack first, so that only the 50 requests are timed.
          const items = await Promise.all(
            Array.from({ length: 50 }, async (_, j) => {
              const text = texts[(batch * 50 + j) % texts.length] as string;
              // The n-th query of the burst (3 in each 5: texts 0, 3 and 4), rotating over the kinds.
              const n = batch * 50 + j;
              const slot = [0, undefined, undefined, 1, 2][n % texts.length];
              const query = slot === undefined ? undefined : slot + Math.floor(n / texts.length);
              const kind: Kind = query === undefined ? 'command' : kindOf(query);
              if (kind === 'command') {
                if (query !== undefined) commandQueries++;
                return { kind, text };
              }
              if (kind === 'reply') {
                const thread = threads[replies] as string;
                return { kind, thread, channel: THREADS_CHANNEL, event: await replyIn(thread, replies++) };
              }
              const event = await say({
                channel: MENTIONS_CHANNEL,
                user: 'U0ASKER2',
                text: `<@U_BOT> ${text}`,
                mention: true,
              });
              return { kind, thread: event.ts, channel: MENTIONS_CHANNEL, event };
            }),
          );
          await Promise.all(
            items.map(async (item) => {
              const start = performance.now();
              const sent = Date.now();
              const status = item.kind === 'command' ? await send(item.text) : await sendEvent(item.event);
              acks[item.kind].push(performance.now() - start);
              if (status !== 200) throw new Error(`ack answered ${status}`);
              if (item.kind !== 'command')
                trips.push(
                  firstPost(item.channel, item.thread).then((post) => ({
                    kind: item.kind,
                    ...(post.at !== undefined ? { trip: post.at - sent, before: post.before ?? 0 } : {}),
                  })),
                );
            }),
          );
        }
        return { acks, trips, commandQueries };
      };
      const ackLine = (label: string, acks: number[]) =>
        `  ${label} (${acks.length}): p50 ${fmt(median(acks))} ms, p99 ${fmt(quantile(acks, 0.99))} ms, max ${fmt(Math.max(...acks))} ms`;

      const all = (acks: Record<Kind, number[]>) => [...acks.command, ...acks.reply, ...acks.mention];
      /** Posts of the burst's commands at Slack so far. */
      const commandPosts = () => waitForPosts('U0BENCH01', -1, 0).catch(() => 0);
      /** Waits (at most 2 min) until a burst's command queries are posted; whether they were. */
      const drain = async (before: number, queries: number) =>
        (await waitForPosts('U0BENCH01', before + queries - 1, 120_000).catch(() => undefined)) !== undefined;
      /** A burst measured with the bot's event-loop delay, then drained, so the next one does not queue behind it. */
      const phase = async (kindOf: (query: number) => Kind) => {
        const before = await commandPosts();
        botProcess.child.send('reset');
        const result = await burst(kindOf);
        const loop = await loopDelayOfBot();
        // The seconds from the burst's last ack until all its runs were posted (answers to events included).
        const end = performance.now();
        const trips = await Promise.all(result.trips);
        const drained = (await drain(before, result.commandQueries)) ? (performance.now() - end) / 1000 : undefined;
        return { ...result, loop, trips, drained };
      };

      // A, B, A again: commands only, then a third of the queries as thread replies and a third as
      // mentions, then commands only (whatever drifts during the run shows between the two A's).
      const a1 = await phase(() => 'command');
      const b = await phase((query) => (['command', 'reply', 'mention'] as const)[query % 3] as Kind);
      const a2 = await phase(() => 'command');
      const heavyDone = await heavy.stop();

      console.log(
        `ack latency, three bursts of 500 requests at 50 concurrent while ${heavyUsers} heavy reports ran (${heavyDone.runs} heavy runs finished${heavyDone.late > 0 ? `, ${heavyDone.late} not posted within 2 min` : ''}), Slack's limits per ${process.env.BENCH_SLACK_WINDOW_MS ?? EVENTS_WINDOW_MS} ms instead of per minute; each burst's runs posted before the next:`,
      );
      const phaseLines = (label: string, p: Awaited<ReturnType<typeof phase>>) => {
        console.log(
          `${label} (then ${p.drained === undefined ? 'NOT drained within 120 s' : `its runs posted within ${fmt(p.drained)} s`}):`,
        );
        console.log(ackLine('all', all(p.acks)));
        if (p.acks.reply.length > 0) {
          console.log(ackLine('commands', p.acks.command));
          console.log(ackLine('thread replies', p.acks.reply));
          console.log(ackLine('mentions', p.acks.mention));
        }
        console.log(
          `  the bot's event-loop delay: p50 ${fmt(p.loop.p50)} ms, p99 ${fmt(p.loop.p99)} ms, max ${fmt(p.loop.max)} ms`,
        );
      };
      phaseLines('A1, commands only (300 queries, 200 help/list)', a1);
      phaseLines(
        `B, events in the mix (the same 300 queries: ${b.acks.command.length - 200} as commands, ${b.acks.reply.length} as thread replies, ${b.acks.mention.length} as mentions; 200 help/list)`,
        b,
      );
      phaseLines('A2, commands only again', a2);
      const p99 = (p: { acks: Record<Kind, number[]> }) => quantile(all(p.acks), 0.99);
      const p50 = (p: { acks: Record<Kind, number[]> }) => median(all(p.acks));
      const mean = (x: number, y: number) => (x + y) / 2;
      console.log(
        `ack with events / without (B / mean of A1 and A2): p50 ${fmt(p50(b) / mean(p50(a1), p50(a2)), 2)}, p99 ${fmt(p99(b) / mean(p99(a1), p99(a2)), 2)} (p99 ${fmt(p99(b))} / ${fmt(p99(a1))} and ${fmt(p99(a2))} ms; target p99 ≤ 100 ms)`,
      );
      for (const kind of ['reply', 'mention'] as const) {
        const of = b.trips.filter((t) => t.kind === kind);
        const times = of.flatMap((t) => (t.trip !== undefined ? [t.trip] : []));
        const noticed = of.filter((t) => (t.before ?? 0) > 0).length;
        console.log(
          kind === 'reply'
            ? `follow-up → refined answer at Slack, during B (${of.length} replies, one per thread):`
            : `mention → its answer at Slack, during B (${of.length} mentions):`,
        );
        console.log(
          `  p50 ${fmt(median(times))} ms, p99 ${fmt(quantile(times, 0.99))} ms, max ${fmt(Math.max(...times))} ms (${of.length - times.length} not answered within 2 min; ${noticed} told "queued" first)`,
        );
      }
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

      if (events) {
        await followUpsBench();
        return undefined;
      }

      // Four heavy reports kept running while 500 commands arrive, 50 at a time.
      let heavyRuns = 0;
      let heavyLate = 0;
      let stopHeavy = false;
      const heavy = Array.from({ length: heavyUsers }, async (_, k) => {
        // Posts of an earlier bot (--receivers) are already counted at Slack.
        let done = await waitForPosts(`U0HEAVY${k}`, -1, 0).catch(() => 0);
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
      return {
        p50: median(acks),
        p99: quantile(acks, 0.99),
        max: Math.max(...acks),
        botP50: health.acks.p50Ms,
        botP99: health.acks.p99Ms,
        loopP99: botLoop.p99,
        heavyRuns,
      };
    } finally {
      botProcess.child.kill('SIGTERM');
      await new Promise((r) => botProcess.child.once('exit', r));
    }
  };

  const figures: Array<AckFigures & { receiver: Receiver }> = [];
  try {
    // --receivers: the same bench with the receiver in its thread and inline, alternating.
    const order: Array<Receiver | undefined> = receivers
      ? Array.from({ length: pairs }, () => ['thread', 'inline'] as const).flat()
      : [undefined];
    for (const [k, receiver] of order.entries()) {
      if (receiver)
        console.log(
          `\n--- bot ${k + 1} of ${order.length}: the receiver ${receiver === 'thread' ? 'in its worker thread' : 'inline, on the bot thread'}`,
        );
      const found = await withBot(receiver, k);
      if (receiver && found) figures.push({ receiver, ...found });
    }
    if (receivers) {
      console.log(
        "\nack latency by receiver (the bench's round trip; the bot's side from /healthz; the bot thread's loop delay):",
      );
      console.log(
        '| run | receiver | ack p50 | ack p99 | ack max | bot side p50 / p99 | loop delay p99 | heavy runs |',
      );
      console.log('|---|---|---|---|---|---|---|---|');
      for (const [k, f] of figures.entries()) {
        console.log(
          `| ${k + 1} | ${f.receiver} | ${fmt(f.p50)} ms | ${fmt(f.p99)} ms | ${fmt(f.max)} ms | ${fmt(f.botP50)} / ${fmt(f.botP99)} ms | ${fmt(f.loopP99)} ms | ${f.heavyRuns} |`,
        );
      }
    }
  } finally {
    slackProcess.child.kill('SIGTERM');
    sandbox.child.kill('SIGTERM');
    await rm(dir, { recursive: true, force: true });
  }
}
