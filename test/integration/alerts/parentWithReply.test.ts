/**
 * A parent that already has a reply is still found in the channel's history. `pivotbot start` as
 * its own process, evaluating a rule that breaches for two entities, ends at the failpoint right
 * after posting the first incident's parent (not yet recorded). Someone replies in that thread, so
 * Slack now lists the parent with `thread_ts` equal to its own ts. The restarted bot reads the
 * history, recognises the parent as top-level (`isTopLevel`) and records it: the incident keeps
 * exactly one parent. Reading "top-level" as "no thread_ts" posts a second one.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '../../../src/core/index.js';
import { type RunningSandbox, startSandbox } from '../../../src/sandbox/index.js';
import { slackGatewayFor } from '../../../src/slackapi/index.js';
import { spendWatchReport, writeReports } from '../../support/scheduledReports.js';
import { SlackTestServer, type StoredMessage } from '../../support/slackTestServer.js';
import { runToFailpoint, type SpawnedBot, spawnBot } from '../../support/spawnBot.js';

const CHANNEL = 'C0GENERAL1';

interface StoredIncident {
  entityKey: string;
  state: string;
  threadTs?: string;
}

describe('an alert parent with a reply, across a crash before it is recorded', () => {
  let slack: SlackTestServer;
  let sandbox: RunningSandbox;
  let dir: string;
  let reports: string;

  beforeAll(async () => {
    slack = await new SlackTestServer().start();
    sandbox = await startSandbox({ port: 0, scale: 'small' });
    dir = await mkdtemp(join(tmpdir(), 'pivotbot-parent-reply-'));
    reports = await writeReports(dir, { 'spend-watch': spendWatchReport({ channel: CHANNEL, above: 0 }) });
  });

  afterAll(async () => {
    await sandbox?.stop();
    await slack?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const start = (env: Record<string, string> = {}): SpawnedBot =>
    spawnBot({ slack, sandbox, reportsDir: reports, dir, env });

  const parents = (): StoredMessage[] =>
    slack.messages.filter((m) => m.metadata?.event_type === 'pivotbot_alert' && m.threadTs === undefined);

  /** The store's incidents as the file holds them (none while it is being replaced or not yet written). */
  const incidents = (): StoredIncident[] => {
    try {
      const file = readFileSync(join(dir, 'store', 'pivotbot.json'), 'utf8');
      return (JSON.parse(file) as { incidents?: StoredIncident[] }).incidents ?? [];
    } catch {
      return [];
    }
  };

  it('records the parent it finds instead of posting a second one', async () => {
    expect(await runToFailpoint(start, 'alert-parent-posted')).toEqual({ hit: true });
    expect(parents()).toHaveLength(1);
    const [first] = parents() as [StoredMessage];
    const entity = String(first.metadata?.event_payload.entity);
    // Posted, not recorded: the store has the incident without its thread.
    expect(incidents().find((i) => i.entityKey === entity)).toMatchObject({ state: 'open' });
    expect(incidents().find((i) => i.entityKey === entity)?.threadTs).toBeUndefined();

    // A reply in its thread: Slack now lists the parent with thread_ts equal to its ts.
    const someone = slackGatewayFor({ botToken: 'xoxb-someone', apiUrl: slack.apiUrl }, silentLogger());
    await someone.post(CHANNEL, { text: 'Looking into it', blocks: [] }, { threadTs: first.ts });
    const listed = await someone.history(CHANNEL, { includeAllMetadata: true });
    expect(listed.find((m) => m.ts === first.ts)?.threadTs).toBe(first.ts);

    const bot = start();
    bot.child.stdout?.resume();
    try {
      // Both incidents end with a recorded parent: the found one, and the other's new post.
      await slack.waitFor(
        () => {
          const open = incidents().filter((i) => i.state === 'open');
          return open.length === 2 && open.every((i) => i.threadTs !== undefined);
        },
        60_000,
        'both incidents recorded with a parent',
      );
    } finally {
      bot.child.kill('SIGTERM');
      await bot.exited;
    }

    const ofEntity = parents().filter((m) => m.metadata?.event_payload.entity === entity);
    expect(ofEntity.map((m) => m.ts)).toEqual([first.ts]);
    expect(incidents().find((i) => i.entityKey === entity)?.threadTs).toBe(first.ts);
    const entities = parents().map((m) => String(m.metadata?.event_payload.entity));
    expect(entities.sort()).toEqual(['appPlatform=ANDROID', 'appPlatform=IOS']);
  }, 180_000);
});
