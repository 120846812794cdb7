/**
 * A crash between a digest's post and its explanation. `pivotbot start` as its own process posts
 * a digest whose KPIs moved (installs planted down in the US yesterday) and ends at the failpoint
 * `digest-posted`, before the explanation step. The restarted bot retries the slot, finds the
 * digest, and runs only the explanation step: the slot keeps one digest, updated once with its
 * because lines, and one ranking in its thread.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningSandbox, startSandbox } from '../../../src/sandbox/index.js';
import { secondsReport, writeReports } from '../../support/scheduledReports.js';
import { SlackTestServer, type StoredMessage } from '../../support/slackTestServer.js';
import { runToFailpoint, type SpawnedBot, spawnBot } from '../../support/spawnBot.js';

const CHANNEL = 'C0GENERAL1';

interface StoredRun {
  idempotencyKey: string;
  scheduledFor?: string;
  status: string;
  messageTs?: string;
}

describe('a digest explained after a crash between its post and its explanation', () => {
  let slack: SlackTestServer;
  let sandbox: RunningSandbox;
  let dir: string;
  let reports: string;

  beforeAll(async () => {
    slack = await new SlackTestServer().start();
    sandbox = await startSandbox({
      port: 0,
      scale: 'small',
      plants: [{ where: { countryCode: 'US' }, metric: 'installs', factor: 0.05, days: 'yesterday' }],
    });
    dir = await mkdtemp(join(tmpdir(), 'pivotbot-explain-crash-'));
    reports = await writeReports(dir, {
      explained: secondsReport({
        title: 'Explained',
        channels: [CHANNEL],
        everySeconds: 5,
        chart: false,
        explain: true,
      }),
    });
  }, 120_000);

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
  const rankingsOf = (slot: string): StoredMessage[] =>
    slack.messages.filter(
      (m) => m.metadata?.event_type === 'pivotbot_digest_explanation' && m.metadata.event_payload.slot === slot,
    );
  const runs = (): StoredRun[] => {
    try {
      const file = readFileSync(join(dir, 'store', 'pivotbot.json'), 'utf8');
      return (JSON.parse(file) as { runs?: StoredRun[] }).runs ?? [];
    } catch {
      return [];
    }
  };

  it('keeps one digest and adds its because lines once', async () => {
    expect(await runToFailpoint(start, 'digest-posted')).toEqual({ hit: true });
    const posted = slack.messages.filter((m) => m.metadata?.event_type === 'pivotbot_digest' && !m.threadTs);
    expect(posted).toHaveLength(1);
    const [digest] = posted as [StoredMessage];
    const slot = String(digest.metadata?.event_payload.slot);
    // Posted without its explanation, which had not started.
    expect(JSON.stringify(digest.blocks)).not.toContain(':mag:');
    expect(slack.callsTo('chat.update')).toHaveLength(0);
    expect(runs().filter((r) => r.idempotencyKey.startsWith('digest-explain:'))).toEqual([]);

    const bot = start();
    bot.child.stdout?.resume();
    try {
      await slack.waitFor(
        () =>
          runs().some(
            (r) => r.scheduledFor === slot && r.idempotencyKey.startsWith('digest:') && r.status === 'succeeded',
          ),
        90_000,
        `the run of slot ${slot} recorded as succeeded`,
      );
    } finally {
      bot.child.kill('SIGTERM');
      await bot.exited;
    }

    expect(digestsOf(slot).map((m) => m.ts)).toEqual([digest.ts]);
    expect(slack.callsTo('chat.update').filter((c) => c.args.ts === digest.ts)).toHaveLength(1);
    expect(JSON.stringify(digestsOf(slot)[0]?.blocks)).toContain(':mag:');
    expect(digestsOf(slot)[0]?.metadata?.event_payload.explained).toBe(true);
    expect(rankingsOf(slot).map((m) => m.threadTs)).toEqual([digest.ts]);
    const step = runs().filter((r) => r.idempotencyKey.startsWith('digest-explain:') && r.scheduledFor === slot);
    expect(step.map((r) => [r.status, r.messageTs])).toEqual([['succeeded', digest.ts]]);
  }, 240_000);
});
