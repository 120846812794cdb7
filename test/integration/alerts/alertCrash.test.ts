/**
 * No second parent and no lost or doubled reply across crashes: `pivotbot start` as its own
 * process, evaluating a rule that breaches for two entities every two seconds, SIGKILLed right
 * after the evaluation is stored (nothing posted yet) and right after each parent is posted (not
 * yet recorded), then started again on the same store. The channel's history (the parents'
 * metadata) tells each restart which parents went out: every incident ends with exactly one
 * parent, recorded in the store. Then the rule's threshold is raised in its file, which resolves
 * both: killed after that evaluation is stored (the replies only owed) and again right after the
 * first reply is posted (not yet recorded), each thread still ends with exactly one reply.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningSandbox, startSandbox } from '../../../src/sandbox/index.js';
import { spendWatchReport, writeReports } from '../../support/scheduledReports.js';
import { SlackTestServer, type StoredMessage } from '../../support/slackTestServer.js';
import { runUntilLogged, type SpawnedBot, spawnBot } from '../../support/spawnBot.js';

const CHANNEL = 'C0GENERAL1';

const report = (above: number) => spendWatchReport({ channel: CHANNEL, above });

/** Where each run is killed: the log line the bot writes at that point. */
const KILLS = ['alert evaluation stored', 'alert parent posted', 'alert parent posted'] as const;

describe('alert parents across SIGKILLs', () => {
  let slack: SlackTestServer;
  let sandbox: RunningSandbox;
  let dir: string;
  let reports: string;

  beforeAll(async () => {
    slack = await new SlackTestServer().start();
    sandbox = await startSandbox({ port: 0, scale: 'small' });
    dir = await mkdtemp(join(tmpdir(), 'pivotbot-alert-crash-'));
    reports = await writeReports(dir, { 'spend-watch': report(0) });
  });

  afterAll(async () => {
    await sandbox?.stop();
    await slack?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const start = (): SpawnedBot => spawnBot({ slack, sandbox, reportsDir: reports, dir });
  const runUntil = (point: string, deadlineMs: number) => runUntilLogged(start, point, deadlineMs);

  const parents = (): StoredMessage[] =>
    slack.messages.filter((m) => m.metadata?.event_type === 'pivotbot_alert' && m.threadTs === undefined);

  it('posts one parent per incident, whichever point of posting the bot dies at', async () => {
    const hits: boolean[] = [];
    for (const point of KILLS) hits.push(await runUntil(point, 15_000));
    // Killed after storing with nothing posted, then after each of the two parents.
    expect(hits).toEqual([true, true, true]);
    expect(parents()).toHaveLength(2);

    // A last run, let go on: it finds the second parent in the history, posts nothing more.
    const last = start();
    last.child.stdout?.resume();
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    last.child.kill('SIGTERM');
    await last.exited;

    const entities = parents().map((m) => String(m.metadata?.event_payload.entity));
    expect(entities.sort()).toEqual(['appPlatform=ANDROID', 'appPlatform=IOS']);
    const store = JSON.parse(await readFile(join(dir, 'store', 'pivotbot.json'), 'utf8')) as {
      incidents: Array<{ entityKey: string; state: string; threadTs?: string }>;
    };
    const open = store.incidents.filter((i) => i.state === 'open');
    expect(open).toHaveLength(2);
    const byEntity = new Map(parents().map((m) => [String(m.metadata?.event_payload.entity), m.ts]));
    for (const incident of open) expect(incident.threadTs).toBe(byEntity.get(incident.entityKey));
  }, 120_000);

  it('posts each owed reply exactly once, killed after the evaluation is stored and after a reply is posted', async () => {
    expect(parents()).toHaveLength(2);
    // No platform spends a billion: the next evaluation resolves both incidents.
    await writeFile(join(reports, 'spend-watch.yaml'), report(1_000_000_000));
    const hits: boolean[] = [];
    for (const point of ['alert evaluation stored', 'alert reply posted']) hits.push(await runUntil(point, 15_000));
    expect(hits).toEqual([true, true]);
    const repliesOf = (parent: StoredMessage) => slack.messages.filter((m) => m.threadTs === parent.ts);
    // Killed with one reply out and not recorded; the other thread has none yet.
    expect(
      parents()
        .map((p) => repliesOf(p).length)
        .sort(),
    ).toEqual([0, 1]);

    const last = start();
    last.child.stdout?.resume();
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    last.child.kill('SIGTERM');
    await last.exited;

    for (const parent of parents()) {
      const replies = repliesOf(parent);
      expect(replies).toHaveLength(1);
      expect(replies[0]?.metadata?.event_payload).toMatchObject({
        state: 'resolved',
        notice: expect.stringMatching(/^resolved@/),
      });
      expect(parent.metadata?.event_payload.state).toBe('resolved');
    }
    const store = JSON.parse(await readFile(join(dir, 'store', 'pivotbot.json'), 'utf8')) as {
      incidents: Array<{ state: string; owedReplies?: unknown[]; owedEdit?: boolean }>;
    };
    expect(store.incidents.map((i) => i.state)).toEqual(['resolved', 'resolved']);
    expect(store.incidents.filter((i) => i.owedReplies !== undefined || i.owedEdit !== undefined)).toEqual([]);
  }, 120_000);
});
