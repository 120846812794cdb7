/**
 * A digest whose CSV is already in its thread is still found in the channel's history.
 * `pivotbot start` as its own process posts a digest and its CSV reply, then ends at the failpoint
 * before the run is recorded. Slack now lists the digest with `thread_ts` equal to its own ts (its
 * thread has a reply). The restarted bot retries the slot, recognises the digest as top-level
 * (`isTopLevel`), records it and uploads nothing more: the slot keeps one digest with one CSV.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '../../../src/core/index.js';
import { type RunningSandbox, startSandbox } from '../../../src/sandbox/index.js';
import { slackGatewayFor } from '../../../src/slackapi/index.js';
import { secondsReport, writeReports } from '../../support/scheduledReports.js';
import { SlackTestServer, type StoredMessage } from '../../support/slackTestServer.js';
import { runToFailpoint, type SpawnedBot, spawnBot } from '../../support/spawnBot.js';

const CHANNEL = 'C0GENERAL1';

interface StoredRun {
  scheduledFor?: string;
  status: string;
  messageTs?: string;
}

describe('a digest with its CSV in the thread, across a crash before the run is recorded', () => {
  let slack: SlackTestServer;
  let sandbox: RunningSandbox;
  let dir: string;
  let reports: string;

  beforeAll(async () => {
    slack = await new SlackTestServer().start();
    sandbox = await startSandbox({ port: 0, scale: 'small' });
    dir = await mkdtemp(join(tmpdir(), 'pivotbot-digest-thread-'));
    reports = await writeReports(dir, {
      // No chart: the test is about the post and its thread, not drawing.
      'every-two': secondsReport({ title: 'Every two seconds', channels: [CHANNEL], everySeconds: 2, chart: false }),
    });
  });

  afterAll(async () => {
    await sandbox?.stop();
    await slack?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const start = (env: Record<string, string> = {}): SpawnedBot =>
    spawnBot({ slack, sandbox, reportsDir: reports, dir, env });

  const digestsOf = (slot: string): StoredMessage[] =>
    slack.messages.filter(
      (m) => m.metadata?.event_type === 'pivotbot_digest' && m.metadata.event_payload.slot === slot && !m.threadTs,
    );
  const uploadsInto = (ts: string) =>
    slack.callsTo('files.completeUploadExternal').filter((c) => c.args.thread_ts === ts).length;

  /** The store's runs as the file holds them (none while it is being replaced or not yet written). */
  const runs = (): StoredRun[] => {
    try {
      const file = readFileSync(join(dir, 'store', 'pivotbot.json'), 'utf8');
      return (JSON.parse(file) as { runs?: StoredRun[] }).runs ?? [];
    } catch {
      return [];
    }
  };

  it('records the digest it finds instead of posting the slot again', async () => {
    expect(await runToFailpoint(start, 'digest-posted')).toEqual({ hit: true });
    const posted = slack.messages.filter((m) => m.metadata?.event_type === 'pivotbot_digest' && !m.threadTs);
    expect(posted).toHaveLength(1);
    const [digest] = posted as [StoredMessage];
    const slot = String(digest.metadata?.event_payload.slot);
    expect(uploadsInto(digest.ts)).toBe(1);
    // Posted with its CSV, not recorded: the slot's run is still marked running.
    expect(
      runs()
        .filter((r) => r.scheduledFor === slot)
        .map((r) => r.status),
    ).toEqual(['running']);
    // Its thread has a reply (the CSV): Slack lists the digest with thread_ts equal to its ts.
    const reader = slackGatewayFor({ botToken: 'xoxb-reader', apiUrl: slack.apiUrl }, silentLogger());
    const listed = await reader.history(CHANNEL, { includeAllMetadata: true });
    expect(listed.find((m) => m.ts === digest.ts)?.threadTs).toBe(digest.ts);

    const bot = start();
    bot.child.stdout?.resume();
    try {
      await slack.waitFor(
        () => runs().some((r) => r.scheduledFor === slot && r.status === 'succeeded'),
        60_000,
        `the run of slot ${slot} recorded as succeeded`,
      );
    } finally {
      bot.child.kill('SIGTERM');
      await bot.exited;
    }

    expect(digestsOf(slot).map((m) => m.ts)).toEqual([digest.ts]);
    expect(uploadsInto(digest.ts)).toBe(1);
    const succeeded = runs().filter((r) => r.scheduledFor === slot && r.status === 'succeeded');
    expect(succeeded.map((r) => r.messageTs)).toEqual([digest.ts]);
  }, 180_000);
});
