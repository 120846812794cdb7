/**
 * A stalled replica never posts twice. Two `pivotbot start` replicas on one PostgreSQL database; the
 * one posting a digest (or an alert's parent) is frozen with SIGSTOP between its request and Slack's
 * answer (the Slack test server holds that answer, so nothing races). Its job heartbeat lapses, the
 * other replica takes the slot over as the next attempt, finds the post in the channel and finishes
 * it. Then the frozen one is resumed (SIGCONT): its step is stopped by the queue's fence before
 * Slack's answer reaches it, it writes nothing for the run, and the queue refuses its outcome. The
 * channel holds one post for the slot.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningSandbox, startSandbox } from '../../../src/sandbox/index.js';
import { freshDatabase, stopTestPostgres } from '../../support/postgres.js';
import { secondsReport, spendWatchReport, writeReports } from '../../support/scheduledReports.js';
import { type HeldAnswer, SlackTestServer } from '../../support/slackTestServer.js';
import {
  eventually,
  HEARTBEAT_SECONDS,
  killReplica,
  type Replica,
  sql,
  startReplica,
  stopReplica,
} from './replicaHarness.js';

afterAll(stopTestPostgres);

const CHANNEL = 'C0GENERAL1';
/** Bounds for events, not for speed: a heartbeat lapse and pg-boss's supervision, with room to spare. */
const HANDOVER_MS = HEARTBEAT_SECONDS * 1_000 + 45_000;

const metadataOf = (
  args: Record<string, unknown>,
): { event_type?: string; event_payload?: Record<string, unknown> } => {
  const raw = args.metadata;
  if (typeof raw === 'string') return JSON.parse(raw) as { event_type?: string };
  return (raw ?? {}) as { event_type?: string };
};

describe('a replica frozen (SIGSTOP) mid-post', () => {
  let slack: SlackTestServer;
  let sandbox: RunningSandbox;
  let dir: string;
  const replicas: Replica[] = [];

  beforeAll(async () => {
    slack = await new SlackTestServer().start();
    sandbox = await startSandbox({ port: 0, scale: 'small' });
    dir = await mkdtemp(join(tmpdir(), 'pivotbot-stalled-'));
  });

  afterEach(async () => {
    for (const replica of replicas.splice(0)) {
      replica.child.kill('SIGCONT');
      await killReplica(replica);
    }
  });

  afterAll(async () => {
    await sandbox?.stop();
    await slack?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const start = (reports: string, store: string): Replica => {
    // Async jobs' leases play no part here: long, so only the job queue's heartbeat decides.
    const replica = startReplica({ slack, sandbox, reports, store, leaseSeconds: 60 });
    replicas.push(replica);
    return replica;
  };

  const saw =
    (replica: Replica, text: string, from = 0) =>
    () =>
      replica.lines.slice(from).some((l) => l.includes(text));

  /** Attempts of `kind` slots `replica` claimed, by run key: its log's claims, the store's rows. */
  async function runsOfClaims(
    replica: Replica,
    kind: 'digest' | 'alert',
    store: string,
    key: (slot: string) => string,
    /** Only the claims logged before this many lines (those made before the replica was resumed). */
    upTo = replica.lines.length,
  ) {
    const slots = replica.lines
      .slice(0, upTo)
      .filter((l) => l.includes(`"msg":"${kind} slot claimed"`) && l.includes('"attempt":1'))
      .map((l) => String((JSON.parse(l) as { slot?: string }).slot));
    const runs = new Map<string, Array<{ attempt: number; status: string }>>();
    for (const slot of slots) {
      runs.set(
        slot,
        await sql<{ attempt: number; status: string }>(
          store,
          `SELECT (body->>'attempt')::int AS attempt, status FROM pivotbot_runs WHERE idempotency_key = $1 ORDER BY 1`,
          [key(slot)],
        ),
      );
    }
    return runs;
  }

  /**
   * `stalled` is the only replica and its post is held: freezes it, starts the other, waits until
   * every slot it had claimed is finished by the other as attempt 2, resumes it, and releases
   * Slack's answer once its fence stopped the step. Returns the other replica, and how many lines
   * the stalled one had logged when it was resumed: its claims up to there are the stalled ones
   * (once resumed, it may claim later slots of its own and finish them as attempt 1).
   */
  async function stallThroughHandover(
    stalled: Replica,
    held: HeldAnswer,
    env: { reports: string; store: string; kind: 'digest' | 'alert'; key: (slot: string) => string },
  ): Promise<{ other: Replica; resumedAt: number }> {
    await held.reached;
    stalled.child.kill('SIGSTOP');
    // What it logged before the freeze is still in the pipe: its claim comes through.
    await eventually(saw(stalled, `"msg":"${env.kind} slot claimed"`), 10_000, 'the stalled replica’s claim');
    const other = start(env.reports, env.store);
    expect(await other.port).toBeGreaterThan(0);
    let runs = new Map<string, Array<{ attempt: number; status: string }>>();
    await eventually(
      async () => {
        runs = await runsOfClaims(stalled, env.kind, env.store, env.key);
        return [...runs.values()].every((rows) => rows.some((r) => r.attempt === 2 && r.status === 'succeeded'));
      },
      HANDOVER_MS,
      'the other replica finished the stalled slots as attempt 2',
    ).catch((error: unknown) => {
      // What the store holds of the stalled slots, and what the other replica did of them.
      const steps = other.lines.filter(
        (l) => /slot|lock|heartbeat|alert|digest/.test(l) && !l.includes('"component":"bolt"'),
      );
      throw new Error(
        `${(error as Error).message}\nruns: ${JSON.stringify([...runs])}\n${other.name}:\n${steps.slice(-30).join('\n')}`,
      );
    });
    const before = stalled.lines.length;
    stalled.child.kill('SIGCONT');
    // Its own clock tells it at once that its hold on the step lapsed while it was frozen.
    await eventually(
      saw(stalled, 'heartbeat of a scheduled step lapsed', before),
      20_000,
      'the resumed replica saw its heartbeat lapse',
    );
    held.release();
    await eventually(
      saw(stalled, 'outcome of a scheduled step refused', before),
      20_000,
      'the queue refused the late outcome',
    );
    await eventually(
      saw(stalled, 'slot: late step after another replica may have taken it over; not recorded', before),
      20_000,
      'the late step wrote nothing',
    );
    return { other, resumedAt: before };
  }

  it('posts one digest for the slot, and the resumed replica’s late steps are refused', async () => {
    // No chart at all: the case is about the post, and drawing one only costs time.
    const reports = await writeReports(join(dir, 'digest'), {
      'every-five': secondsReport({ title: 'Every five', channels: [CHANNEL], everySeconds: 5, chart: 'none' }),
    });
    const store = await freshDatabase('pivotbot_stalled_digest');
    let heldSlot: string | undefined;
    const held = slack.hold('chat.postMessage', (args) => {
      const metadata = metadataOf(args);
      if (metadata.event_type !== 'pivotbot_digest' || args.thread_ts !== undefined) return false;
      heldSlot = String(metadata.event_payload?.slot);
      return true;
    });
    const key = (slot: string) => `digest:every-five:${CHANNEL}:${slot}`;
    const stalled = start(reports, store);
    const { other, resumedAt } = await stallThroughHandover(stalled, held, { reports, store, kind: 'digest', key });
    await stopReplica(other);
    await killReplica(stalled);

    const slot = heldSlot as string;
    const posts = slack.messages.filter(
      (m) => m.metadata?.event_type === 'pivotbot_digest' && !m.threadTs && m.metadata.event_payload.slot === slot,
    );
    expect(posts).toHaveLength(1);
    // Its thread got its CSV once: from the replica that took over.
    expect(slack.fileShares.filter((f) => f.threadTs === posts[0]?.ts)).toHaveLength(1);
    expect((await runsOfClaims(stalled, 'digest', store, key, resumedAt)).get(slot)).toEqual([
      { attempt: 1, status: 'failed' },
      { attempt: 2, status: 'succeeded' },
    ]);
    expect(other.lines.some((l) => l.includes('digest already posted by an earlier attempt'))).toBe(true);
  }, 180_000);

  it('posts one parent per incident, and the resumed replica’s late steps are refused', async () => {
    const reports = await writeReports(join(dir, 'alert'), {
      'spend-watch': spendWatchReport({ channel: CHANNEL, above: 0 }),
    });
    const store = await freshDatabase('pivotbot_stalled_alert');
    const parents = () =>
      slack.messages.filter((m) => m.metadata?.event_type === 'pivotbot_alert' && m.threadTs === undefined);
    const before = parents().length;
    const held = slack.hold(
      'chat.postMessage',
      (args) => metadataOf(args).event_type === 'pivotbot_alert' && args.thread_ts === undefined,
    );
    const key = (slot: string) => `alert:spend-watch:spend-high:${slot}`;
    const stalled = start(reports, store);
    const { other, resumedAt } = await stallThroughHandover(stalled, held, { reports, store, kind: 'alert', key });
    const incidents = async () =>
      (await sql<{ n: number }>(store, 'SELECT count(*)::int AS n FROM pivotbot_incidents'))[0]?.n ?? 0;
    await eventually(
      async () => {
        const count = await incidents();
        return count >= 2 && parents().length - before >= count;
      },
      30_000,
      'every incident with its parent',
    );
    await stopReplica(other);
    await killReplica(stalled);

    const perEntity = new Map<string, number>();
    for (const m of parents().slice(before)) {
      const entity = String(m.metadata?.event_payload.entity);
      perEntity.set(entity, (perEntity.get(entity) ?? 0) + 1);
    }
    expect([...perEntity.values()].every((n) => n === 1)).toBe(true);
    expect(perEntity.size).toBe(await incidents());
    for (const rows of (await runsOfClaims(stalled, 'alert', store, key, resumedAt)).values()) {
      expect(rows).toEqual([
        { attempt: 1, status: 'failed' },
        { attempt: 2, status: 'succeeded' },
      ]);
    }
  }, 180_000);
});
