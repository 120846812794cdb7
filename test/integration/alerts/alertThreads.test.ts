/**
 * Alert threads end to end over real HTTP: the bot with its scheduler on real timers, the sandbox
 * as the Reporting Service and the Slack test server. The rule's own `check` has a seconds field,
 * so it is evaluated every two seconds. Time passing for reminders is simulated by moving the
 * incidents' last notification back while the bot is stopped (no test waits an hour).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '../../../src/core/index.js';
import { openStore } from '../../../src/store/index.js';
import { BotHarness } from '../../support/botHarness.js';
import { writeReports } from '../../support/scheduledReports.js';
import type { StoredMessage } from '../../support/slackTestServer.js';

const CHANNEL = 'C0GENERAL1';

/** Spend by platform (two entities in the sandbox: IOS and ANDROID), watched every two seconds. */
function alertReport(above: number): string {
  return `title: Spend watch
description: Spend by platform, watched by an alert rule every two seconds.
query:
  dimensions: [appPlatform]
  metrics: [spend, installs]
  range: yesterday
  timezone: UTC
mode: sync
deliver:
  channels: ["${CHANNEL}"]
alerts:
  - id: spend-high
    name: Spend above budget
    metric: spend
    above: ${above}
    renotify: 1h
    mentions: [here]
    check: { cron: "*/2 * * * * *", timezone: UTC }
`;
}

const text = (m: StoredMessage) => JSON.stringify(m.blocks ?? m.text);

describe('alert threads', () => {
  const harness = new BotHarness();
  let dir: string;
  let reports: string;

  const slack = () => harness.slack;
  const parents = () =>
    slack().messages.filter((m) => m.metadata?.event_type === 'pivotbot_alert' && m.threadTs === undefined);
  const replies = (parent: StoredMessage) => slack().messages.filter((m) => m.threadTs === parent.ts);
  const evaluatedAt = () => harness.bot.store.incidents.getEvaluation('spend-watch', 'spend-high')?.lastEvaluatedAt;

  /** Resolves after `count` more evaluations of the rule have been stored. */
  async function evaluations(count: number): Promise<void> {
    for (let i = 0; i < count; i++) {
      const before = evaluatedAt();
      await slack().waitFor(() => evaluatedAt() !== before, 15_000, 'an evaluation');
    }
  }

  /** Stops the bot, moves every open incident's last notification back `hours`, starts it again. */
  async function hoursPass(hours: number): Promise<void> {
    await harness.bot.stop();
    const store = await openStore({ path: harness.env().PIVOTBOT_STORE as string, logger: silentLogger() });
    try {
      for (const incident of store.incidents.listOpen()) {
        const back = (iso: string | undefined) =>
          new Date(Date.parse(iso ?? incident.openedAt) - hours * 3_600_000).toISOString();
        await store.incidents.save({ ...incident, lastNotifiedAt: back(incident.lastNotifiedAt) });
      }
    } finally {
      await store.close();
    }
    await harness.startBot();
  }

  /** The value of a parent's button, as Slack would send it back. */
  function buttonValue(parent: StoredMessage, actionId: string): unknown {
    const blocks = (slack().messages.find((m) => m.ts === parent.ts)?.blocks ?? []) as Array<{
      elements?: Array<{ action_id?: string; value?: string }>;
    }>;
    for (const block of blocks) {
      const button = block.elements?.find((e) => e.action_id === actionId);
      if (button?.value) return JSON.parse(button.value);
    }
    throw new Error(`no ${actionId} button on ${parent.ts}`);
  }

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pivotbot-alerts-'));
    reports = await writeReports(dir, { 'spend-watch': alertReport(0) });
    await harness.start({ env: { PIVOTBOT_REPORTS_DIR: reports } });
  }, 60_000);

  afterAll(async () => {
    await harness.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('opens one thread per breaching entity, with metadata and buttons, and records each parent', async () => {
    const recorded = () => harness.bot.store.incidents.listOpen().filter((i) => i.threadTs !== undefined).length;
    await slack().waitFor(() => parents().length >= 2 && recorded() >= 2, 20_000, 'two alert parents, recorded');
    const posted = parents();
    expect(posted.map((m) => m.metadata?.event_payload.entity).sort()).toEqual([
      'appPlatform=ANDROID',
      'appPlatform=IOS',
    ]);
    for (const parent of posted) {
      expect(parent.metadata?.event_payload).toMatchObject({
        report: 'spend-watch',
        rule: 'spend-high',
        state: 'open',
      });
      expect(text(parent)).toContain('Spend above budget');
      expect(text(parent)).toContain('alert_ack');
      expect(text(parent)).toContain('alert_snooze_4h');
      expect(text(parent)).toContain('<!here>');
      // A newly opened threshold incident has one value: its chart shows the recent days (one extra pivot).
      expect(text(parent)).toMatch(/"type":"image".*"slack_file"/);
    }
    const open = harness.bot.store.incidents.listOpen();
    expect(open.every((i) => i.chartFileId !== undefined)).toBe(true);
    expect(open.map((i) => i.threadTs).sort()).toEqual(posted.map((m) => m.ts).sort());
    expect(open.every((i) => i.channel === CHANNEL)).toBe(true);
  }, 40_000);

  it('posts no new parent and no reply on the next evaluations while nothing changed', async () => {
    await evaluations(2);
    expect(parents()).toHaveLength(2);
    for (const parent of parents()) expect(replies(parent)).toHaveLength(0);
    const run = harness.bot.store.runs.listByReport('spend-watch', 5)[0];
    expect(run?.idempotencyKey).toMatch(/^alert:spend-watch:spend-high:\d{4}-/);
  }, 40_000);

  it('reminds in both threads once the renotify interval has passed', async () => {
    await hoursPass(2);
    await slack().waitFor(
      () => parents().every((p) => replies(p).some((r) => r.text.includes('still breached'))),
      20_000,
      'a reminder in each thread',
    );
    expect(parents()).toHaveLength(2);
  }, 60_000);

  it('Acknowledge and Snooze edit the parent in place and stop the reminders', async () => {
    const [ios, android] = ['appPlatform=IOS', 'appPlatform=ANDROID'].map(
      (entity) => parents().find((p) => p.metadata?.event_payload.entity === entity) as StoredMessage,
    ) as [StoredMessage, StoredMessage];
    const updates = () => slack().callsTo('chat.update');
    const before = updates().length;
    await harness.click('alert_ack', buttonValue(ios, 'alert_ack'), { messageTs: ios.ts, channel: CHANNEL });
    await harness.click('alert_snooze_4h', buttonValue(android, 'alert_snooze_4h'), {
      messageTs: android.ts,
      channel: CHANNEL,
    });
    await slack().waitFor(() => updates().length >= before + 2, 10_000, 'both parents edited');
    expect(text(slack().messages.find((m) => m.ts === ios.ts) as StoredMessage)).toContain(
      // The test's clicker id (U_ALICE) is not a Slack id shape, so it is shown as plain text.
      'acknowledged by U_ALICE',
    );
    expect(text(slack().messages.find((m) => m.ts === android.ts) as StoredMessage)).toContain('snoozed until');
    const stored = harness.bot.store.incidents.listOpen();
    expect(stored.find((i) => i.entityKey === 'appPlatform=IOS')?.acknowledgedBy).toBe('U_ALICE');
    expect(stored.find((i) => i.entityKey === 'appPlatform=ANDROID')?.snoozedUntil).toBeDefined();

    const counts = [replies(ios).length, replies(android).length];
    await hoursPass(2);
    await evaluations(3);
    expect([replies(ios).length, replies(android).length]).toEqual(counts);
  }, 60_000);

  it('resolves both when the threshold in the file is raised: parents edited, a reply in each thread', async () => {
    await writeFile(join(reports, 'spend-watch.yaml'), alertReport(1e12));
    await slack().waitFor(
      () => parents().every((p) => replies(p).some((r) => r.text.includes('resolved'))),
      20_000,
      'a resolution reply in each thread',
    );
    for (const parent of parents()) {
      const now = slack().messages.find((m) => m.ts === parent.ts) as StoredMessage;
      expect(text(now)).toContain('Resolved');
      expect(text(now)).not.toContain('alert_ack');
      expect(now.metadata?.event_payload.state).toBe('resolved');
    }
    expect(harness.bot.store.incidents.listOpen()).toHaveLength(0);
    expect(parents()).toHaveLength(2);

    const { hook } = await harness.command('alerts');
    const answer = await harness.waitForHook(hook);
    expect(answer).toContain('spend-high');
    expect(answer).toContain('last ran');
    expect(answer).not.toContain('not evaluated yet');
  }, 40_000);

  it('reopens the same threads within 24 h of resolving; the snoozed one quietly, by an edit only', async () => {
    const [ios, android] = ['appPlatform=IOS', 'appPlatform=ANDROID'].map(
      (entity) => parents().find((p) => p.metadata?.event_payload.entity === entity) as StoredMessage,
    ) as [StoredMessage, StoredMessage];
    const reopened = (p: StoredMessage) => replies(p).filter((r) => r.text.includes('reopened')).length;
    await writeFile(join(reports, 'spend-watch.yaml'), alertReport(0));
    await slack().waitFor(() => reopened(ios) === 1, 20_000, 'a reopening reply in the IOS thread');
    await slack().waitFor(
      () => slack().messages.find((m) => m.ts === android.ts)?.metadata?.event_payload.state === 'open',
      10_000,
      'the ANDROID parent edited back to open',
    );
    await evaluations(2);
    // Snoozed for 4 h before it resolved: the reopening is not told until the snooze ends.
    expect(reopened(android)).toBe(0);
    expect(reopened(ios)).toBe(1);
    expect(parents()).toHaveLength(2);
    for (const parent of [ios, android]) {
      const now = slack().messages.find((m) => m.ts === parent.ts) as StoredMessage;
      expect(now.metadata?.event_payload.state).toBe('open');
      expect(text(now)).toContain('reopened');
      expect(text(now)).toContain('alert_ack');
    }
    const open = harness.bot.store.incidents.listOpen();
    expect(open.map((i) => i.threadTs).sort()).toEqual(
      parents()
        .map((m) => m.ts)
        .sort(),
    );
    // The reopening clears the acknowledgement; the snooze stands.
    expect(open.every((i) => i.reopenCount === 1 && i.acknowledgedBy === undefined)).toBe(true);
  }, 40_000);
});
