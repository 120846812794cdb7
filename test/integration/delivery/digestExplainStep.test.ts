/**
 * A scheduled digest is posted first and explained as its own step: the Slack test server and the
 * sandbox (installs planted down in the US yesterday, so installs and CPI move), the digest slot's
 * attempts called as the scheduler calls them. The order of events is read from what the gateway
 * and the Reporting client were asked, never from timing.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '../../../src/core/index.js';
import { type DigestDeps, deliverDigest, postDigestFailure } from '../../../src/delivery/index.js';
import { type PivotRequest, ReportingClient } from '../../../src/reporting/index.js';
import { loadReports } from '../../../src/reports/index.js';
import { type RunningSandbox, startSandbox } from '../../../src/sandbox/index.js';
import { explainRunKey, type ScheduleSpec, type SlotRun } from '../../../src/scheduler/index.js';
import { slackGatewayFor } from '../../../src/slackapi/index.js';
import { createMemoryStore, type Store } from '../../../src/store/index.js';
import { SlackTestServer } from '../../support/slackTestServer.js';

const NOW = new Date();
const CHANNEL = 'C0GENERAL1';
const REPORT = `title: Moving installs
query:
  metrics: [spend, installs, installsCpi]
  range: yesterday
  timezone: UTC
present: { compare: previous_period }
mode: sync
schedule: { at: "09:00" }
deliver: { channels: [${CHANNEL}], csv: false }
`;
const spec: ScheduleSpec = {
  id: `report:moving:${CHANNEL}:09:00 daily@UTC`,
  report: 'moving',
  channel: CHANNEL,
  source: 'report',
  timezone: 'UTC',
  at: '09:00',
  catchUp: null,
  retry: { attempts: 3, backoffMs: 0 },
};

/** The report's own queries ask its three metrics; an explanation asks one metric's parts. */
const isExplanationQuery = (request: PivotRequest) => request.metrics.length !== 3;

describe("a digest's explanation step", () => {
  let sandbox: RunningSandbox;
  let slack: SlackTestServer;
  let dir: string;

  beforeAll(async () => {
    sandbox = await startSandbox({
      port: 0,
      scale: 'small',
      now: NOW,
      plants: [{ where: { countryCode: 'US' }, metric: 'installs', factor: 0.05, days: 'yesterday' }],
    });
    slack = await new SlackTestServer().start();
    dir = await mkdtemp(join(tmpdir(), 'pivotbot-explain-step-'));
    await import('node:fs/promises').then((fs) => fs.mkdir(join(dir, 'reports')));
    await writeFile(join(dir, 'reports', 'moving.yaml'), REPORT);
  }, 120_000);
  afterAll(async () => {
    await sandbox?.stop();
    await slack?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  /** Deps whose gateway and client note each call in `events`; explanation queries fail while `failing.on`. */
  async function deps(store: Store, events: string[], failing: { on: boolean }): Promise<DigestDeps> {
    const loaded = await loadReports(join(dir, 'reports'), { now: NOW, defaultTimeZone: 'UTC' });
    const gateway = slackGatewayFor({ botToken: 'xoxb-test', apiUrl: slack.apiUrl }, silentLogger());
    const client = new ReportingClient({ ...sandbox, now: () => NOW });
    const pivot = client.pivot.bind(client);
    client.pivot = async (request, options) => {
      const explanation = isExplanationQuery(request);
      events.push(explanation ? 'explanation query' : 'report query');
      if (explanation && failing.on) throw new Error('sandbox fault on the explanation queries');
      return pivot(request, options);
    };
    const slackDeps = Object.create(gateway) as typeof gateway;
    slackDeps.post = async (channel, message, options) => {
      const posted = await gateway.post(channel, message, options);
      events.push(options?.metadata?.event_type === 'pivotbot_digest' ? 'digest posted' : 'posted');
      return posted;
    };
    return {
      client,
      store,
      logger: silentLogger(),
      clock: () => NOW,
      defaultTimeZone: 'UTC',
      workDir: dir,
      signal: new AbortController().signal,
      charts: { renderView: async () => undefined },
      loadReports: async () => loaded,
      slack: slackDeps,
    } as unknown as DigestDeps;
  }

  const attempt = (slot: Date, n: number): SlotRun => ({
    spec,
    slot,
    late: false,
    attempt: n,
    runId: `r${n}`,
    waitedMs: 0,
    signal: new AbortController().signal,
  });
  const digestsOf = (slot: Date) =>
    slack.messages.filter(
      (m) => m.metadata?.event_type === 'pivotbot_digest' && m.metadata.event_payload.slot === slot.toISOString(),
    );
  const rankingsOf = (slot: Date) =>
    slack.messages.filter(
      (m) =>
        m.metadata?.event_type === 'pivotbot_digest_explanation' &&
        m.metadata.event_payload.slot === slot.toISOString(),
    );
  const updatesOf = (ts: string) => slack.callsTo('chat.update').filter((c) => c.args.ts === ts);

  it('posts the digest before any explanation query, then adds its because lines by an update', async () => {
    const slot = new Date(NOW.getTime() - 60_000);
    const events: string[] = [];
    const store = createMemoryStore({ clock: () => NOW });
    const result = await deliverDigest(attempt(slot, 1), await deps(store, events, { on: false }));

    const posted = events.indexOf('digest posted');
    expect(posted).toBeGreaterThan(0);
    expect(events.slice(0, posted)).not.toContain('explanation query');
    expect(events.slice(posted)).toContain('explanation query');
    const [digest] = digestsOf(slot);
    expect(digestsOf(slot)).toHaveLength(1);
    expect(result).toEqual({ messageTs: digest?.ts });
    expect(updatesOf(digest?.ts ?? '')).toHaveLength(1);
    expect(JSON.stringify(digest?.blocks)).toContain(':mag: Installs');
    expect(digest?.metadata?.event_payload).toMatchObject({ report: 'moving', explained: true });
    expect(rankingsOf(slot).map((m) => m.threadTs)).toEqual([digest?.ts]);
    expect(store.runs.findByIdempotencyKey(explainRunKey('moving', CHANNEL, slot))).toMatchObject({
      status: 'succeeded',
      messageTs: digest?.ts,
    });
  }, 120_000);

  it('retries a failed explanation on its own: one digest, one update, one ranking', async () => {
    const slot = new Date(NOW.getTime() - 120_000);
    const events: string[] = [];
    const failing = { on: true };
    const store = createMemoryStore({ clock: () => NOW });
    const d = await deps(store, events, failing);

    await expect(deliverDigest(attempt(slot, 1), d)).rejects.toThrow('sandbox fault');
    const [digest] = digestsOf(slot);
    expect(digestsOf(slot)).toHaveLength(1);
    expect(updatesOf(digest?.ts ?? '')).toHaveLength(0);
    const step = store.runs.findByIdempotencyKey(explainRunKey('moving', CHANNEL, slot));
    expect(step).toMatchObject({ status: 'failed', messageTs: digest?.ts });
    // Attempts spent on the explanation alone: no notice says the digest failed.
    const before = slack.messages.length;
    await postDigestFailure({ spec, slot, error: new Error('sandbox fault'), runId: 'r1' }, d);
    expect(slack.messages).toHaveLength(before);

    // The scheduler's retry of the slot: the digest is found, only the step runs again.
    failing.on = false;
    await expect(deliverDigest(attempt(slot, 2), d)).resolves.toEqual({ messageTs: digest?.ts });
    // And a retry after it landed changes nothing.
    await expect(deliverDigest(attempt(slot, 3), d)).resolves.toEqual({ messageTs: digest?.ts });

    expect(digestsOf(slot)).toHaveLength(1);
    expect(updatesOf(digest?.ts ?? '')).toHaveLength(1);
    expect(rankingsOf(slot)).toHaveLength(1);
    expect(JSON.stringify(digestsOf(slot)[0]?.blocks)).toContain(':mag: Installs');
    expect(store.runs.findByIdempotencyKey(explainRunKey('moving', CHANNEL, slot))).toMatchObject({
      status: 'succeeded',
      messageTs: digest?.ts,
      attempt: 2,
    });
  }, 120_000);

  it('does not update twice or post the ranking twice when the step record was lost after they landed', async () => {
    const slot = new Date(NOW.getTime() - 180_000);
    const store = createMemoryStore({ clock: () => NOW });
    const d = await deps(store, [], { on: false });
    await deliverDigest(attempt(slot, 1), d);
    const [digest] = digestsOf(slot);
    // A second process with an empty store (the step's record lost): Slack says what landed.
    const other = await deps(createMemoryStore({ clock: () => NOW }), [], { on: false });
    await expect(deliverDigest(attempt(slot, 2), other)).resolves.toEqual({ messageTs: digest?.ts });
    expect(digestsOf(slot)).toHaveLength(1);
    expect(updatesOf(digest?.ts ?? '')).toHaveLength(1);
    expect(rankingsOf(slot)).toHaveLength(1);
  }, 120_000);
});
