/**
 * Exactly once across crashes: `pivotbot start` as its own process, posting a digest every
 * two seconds, crashed 20 times at every point of a delivery (right after the claim, after the
 * message is posted but before the CSV upload, after the upload but before the run is recorded:
 * failpoints, `PIVOTBOT_FAILPOINT`; and SIGKILLed at random moments), five times at each, and
 * started again on the same store (`PIVOTBOT_TEST_CRASH_KILLS=50` runs the longer soak of earlier
 * versions). Every slot from the first to the last is then
 * in the channel exactly once: the store's run keys stop a second claim, and the channel's history
 * (the digest's metadata) tells a restarted attempt that the post already went out.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningSandbox, startSandbox } from '../../../src/sandbox/index.js';
import { eventually } from '../../support/eventually.js';
import { secondsReport, writeReports } from '../../support/scheduledReports.js';
import { SlackTestServer, type StoredMessage } from '../../support/slackTestServer.js';
import { runAndKillAtRandom, runToFailpoint, type StartBot, spawnBot } from '../../support/spawnBot.js';

const CHANNEL = 'C0GENERAL1';
/**
 * Five crashes at each of the four points (each failpoint reached and counted five times, each
 * restart catching up what the crash before it left); the fifty of earlier versions repeated the
 * same four points, at a bot start (about 3 s) each.
 */
const KILLS = Number(process.env.PIVOTBOT_TEST_CRASH_KILLS ?? 20);
/** Where a run crashes: a failpoint of a delivery, or a SIGKILL at a random moment. */
const POINTS = ['digest-after-claim', 'result-after-post', 'digest-posted', 'random'] as const;

type Point = (typeof POINTS)[number];

describe('scheduled digests across SIGKILLs', () => {
  let slack: SlackTestServer;
  let sandbox: RunningSandbox;
  let dir: string;
  let reports: string;

  beforeAll(async () => {
    slack = await new SlackTestServer().start();
    sandbox = await startSandbox({ port: 0, scale: 'small' });
    dir = await mkdtemp(join(tmpdir(), 'pivotbot-crash-'));
    reports = await writeReports(dir, {
      // No chart of its own; the digest has the default chart, so each start forks a chart process too.
      'every-two': secondsReport({ title: 'Every two seconds', channels: [CHANNEL], everySeconds: 2, chart: false }),
    });
  });

  afterAll(async () => {
    await sandbox?.stop();
    await slack?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const start: StartBot = (env) => spawnBot({ slack, sandbox, reportsDir: reports, dir, ...(env ? { env } : {}) });
  const readRuns = async () =>
    (
      JSON.parse(await readFile(join(dir, 'store', 'pivotbot.json'), 'utf8')) as {
        runs: Array<{ scheduledFor?: string; status: string; error?: { message: string } }>;
      }
    ).runs;

  const digests = (): StoredMessage[] =>
    slack.messages.filter((m) => m.metadata?.event_type === 'pivotbot_digest' && !m.threadTs);

  it('posts every slot exactly once, whatever point of a delivery the bot dies at', async () => {
    const hits: Record<Point, number> = {
      'digest-after-claim': 0,
      'result-after-post': 0,
      'digest-posted': 0,
      random: 0,
    };
    const misses: string[] = [];
    for (let i = 0; i < KILLS; i++) {
      const point = POINTS[i % POINTS.length] as Point;
      if (point === 'random') {
        await runAndKillAtRandom(start);
        continue;
      }
      const run = await runToFailpoint(start, point);
      if (run.hit) hits[point]++;
      else misses.push(`run ${i}: ${run.why}`);
    }
    // A run that missed its point says how it ended and what it logged last.
    expect(misses).toEqual([]);
    // Every named point was reached and crashed at, every time it was asked for.
    for (const point of POINTS.filter((p) => p !== 'random'))
      expect(hits[point]).toBe(Math.ceil((KILLS - POINTS.indexOf(point)) / POINTS.length));

    // A last run that is let finish: it catches up what the crashes left (a lane runs its slots in
    // order, so a slot after its start recorded as delivered means every earlier one is settled),
    // then stops cleanly.
    const lastStarted = Date.now();
    const last = start();
    last.child.stdout?.resume();
    try {
      await eventually('a digest of a slot after the last start recorded as delivered', async () => {
        const runs = await readRuns().catch(() => []);
        return runs.some(
          (r) => r.status === 'succeeded' && r.scheduledFor !== undefined && Date.parse(r.scheduledFor) > lastStarted,
        );
      });
    } finally {
      last.child.kill('SIGTERM');
      await last.exited;
    }

    const posted = new Map<string, number>();
    for (const m of digests()) {
      const slot = String(m.metadata?.event_payload.slot);
      posted.set(slot, (posted.get(slot) ?? 0) + 1);
    }
    expect([...posted].filter(([, n]) => n > 1)).toEqual([]);
    // Every slot from the first to the last was posted, or (when the bot fell more than ten slots
    // behind) recorded as skipped with its reason: none is lost without a trace.
    const skipped = new Set((await readRuns()).filter((r) => r.status === 'skipped').map((r) => r.scheduledFor));
    const times = [...posted.keys()].map((s) => Date.parse(s)).sort((a, b) => a - b);
    const lost: string[] = [];
    for (let t = times[0] as number; t <= (times.at(-1) as number); t += 2_000) {
      const slot = new Date(t).toISOString();
      if (!posted.has(slot) && !skipped.has(slot)) lost.push(slot);
    }
    expect(lost).toEqual([]);
    expect(posted.size).toBeGreaterThan(KILLS / 2);
    // Each digest has its CSV in its thread once, those whose bot died between the post and the
    // upload too (the next attempt finds the post without files and uploads them).
    const uploadsInto = (ts: string) =>
      slack.callsTo('files.completeUploadExternal').filter((c) => c.args.thread_ts === ts).length;
    // A slot the bot fell more than ten slots behind on is recorded skipped instead of run again
    // (catch-up's limit), so a post its killed attempt made keeps no CSV: that is the skip's record.
    const withoutCsv = digests()
      .filter((m) => !skipped.has(String(m.metadata?.event_payload.slot)))
      .filter((m) => uploadsInto(m.ts) !== 1)
      .map((m) => `${String(m.metadata?.event_payload.slot)}: ${uploadsInto(m.ts)} uploads`);
    expect(withoutCsv).toEqual([]);
    // A generous bound for a busy machine (each start took 8–10 s at load 8 on 2 cores), for 50 starts too.
  }, 1_200_000);
});
