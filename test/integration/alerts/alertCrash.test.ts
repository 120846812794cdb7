/**
 * No second parent and no lost or doubled reply across crashes: `pivotbot start` as its own
 * process, evaluating a rule that breaches for two entities every two seconds, crashed by a
 * failpoint (`PIVOTBOT_FAILPOINT`) right after the evaluation is stored (nothing posted yet) and
 * right after each parent is posted (not yet recorded), then started again on the same store. The channel's history (the parents'
 * metadata) tells each restart which parents went out: every incident ends with exactly one
 * parent, recorded in the store. Then the rule's threshold is raised in its file, which resolves
 * both: crashed after that evaluation is stored (the replies only owed) and again right after the
 * first reply is posted (not yet recorded), each thread still ends with exactly one reply.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningSandbox, startSandbox } from '../../../src/sandbox/index.js';
import { eventually } from '../../support/eventually.js';
import { spendWatchReport, writeReports } from '../../support/scheduledReports.js';
import { SlackTestServer, type StoredMessage } from '../../support/slackTestServer.js';
import { runToFailpoint, type StartBot, spawnBot } from '../../support/spawnBot.js';

const CHANNEL = 'C0GENERAL1';

const report = (above: number) => spendWatchReport({ channel: CHANNEL, above });

/** Where each run crashes: the failpoint the bot exits at. */
const CRASHES = ['alert-after-evaluation-stored', 'alert-parent-posted', 'alert-parent-posted'] as const;

interface StoredIncidents {
  incidents: Array<{
    entityKey: string;
    state: string;
    threadTs?: string;
    owedReplies?: unknown[];
    owedEdit?: boolean;
  }>;
}

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

  const start: StartBot = (env) => spawnBot({ slack, sandbox, reportsDir: reports, dir, ...(env ? { env } : {}) });
  const readStore = async (): Promise<StoredIncidents> =>
    JSON.parse(await readFile(join(dir, 'store', 'pivotbot.json'), 'utf8')) as StoredIncidents;

  /** A last run, let go on until the store shows `settled`, then stopped with SIGTERM. */
  const runUntilStored = async (what: string, settled: (store: StoredIncidents) => boolean) => {
    const last = start();
    last.child.stdout?.resume();
    try {
      // A read between the bot's writes may fail to parse: it counts as not yet.
      await eventually(what, async () => settled(await readStore().catch(() => ({ incidents: [] }))));
    } finally {
      last.child.kill('SIGTERM');
      await last.exited;
    }
  };

  const parents = (): StoredMessage[] =>
    slack.messages.filter((m) => m.metadata?.event_type === 'pivotbot_alert' && m.threadTs === undefined);

  it('posts one parent per incident, whichever point of posting the bot dies at', async () => {
    const runs = [];
    for (const point of CRASHES) runs.push(await runToFailpoint(start, point));
    // Crashed after storing with nothing posted, then after each of the two parents (a miss says how it ended).
    expect(runs).toEqual([{ hit: true }, { hit: true }, { hit: true }]);
    expect(parents()).toHaveLength(2);

    // A last run, let go on: it finds the second parent in the history, records it, posts nothing more.
    await runUntilStored('both open incidents recorded with their parent', (store) => {
      const open = store.incidents.filter((i) => i.state === 'open');
      return open.length === 2 && open.every((i) => i.threadTs !== undefined);
    });

    const entities = parents().map((m) => String(m.metadata?.event_payload.entity));
    expect(entities.sort()).toEqual(['appPlatform=ANDROID', 'appPlatform=IOS']);
    const store = await readStore();
    const open = store.incidents.filter((i) => i.state === 'open');
    expect(open).toHaveLength(2);
    const byEntity = new Map(parents().map((m) => [String(m.metadata?.event_payload.entity), m.ts]));
    for (const incident of open) expect(incident.threadTs).toBe(byEntity.get(incident.entityKey));
  }, 120_000);

  it('posts each owed reply exactly once, killed after the evaluation is stored and after a reply is posted', async () => {
    expect(parents()).toHaveLength(2);
    // No platform spends a billion: the next evaluation resolves both incidents.
    await writeFile(join(reports, 'spend-watch.yaml'), report(1_000_000_000));
    const runs = [];
    for (const point of ['alert-after-evaluation-stored', 'alert-after-reply-post']) {
      runs.push(await runToFailpoint(start, point));
    }
    expect(runs).toEqual([{ hit: true }, { hit: true }]);
    const repliesOf = (parent: StoredMessage) => slack.messages.filter((m) => m.threadTs === parent.ts);
    // Crashed with one reply out and not recorded; the other thread has none yet.
    expect(
      parents()
        .map((p) => repliesOf(p).length)
        .sort(),
    ).toEqual([0, 1]);

    await runUntilStored(
      'both incidents resolved with nothing owed',
      (store) =>
        store.incidents.length === 2 &&
        store.incidents.every((i) => i.state === 'resolved' && i.owedReplies === undefined && i.owedEdit === undefined),
    );

    for (const parent of parents()) {
      const replies = repliesOf(parent);
      expect(replies).toHaveLength(1);
      expect(replies[0]?.metadata?.event_payload).toMatchObject({
        state: 'resolved',
        notice: expect.stringMatching(/^resolved@/),
      });
      expect(parent.metadata?.event_payload.state).toBe('resolved');
    }
    const store = await readStore();
    expect(store.incidents.map((i) => i.state)).toEqual(['resolved', 'resolved']);
    expect(store.incidents.filter((i) => i.owedReplies !== undefined || i.owedEdit !== undefined)).toEqual([]);
  }, 120_000);
});
