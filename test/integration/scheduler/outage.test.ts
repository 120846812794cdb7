/**
 * A Reporting Service outage end to end: the sandbox answers every GraphQL request 503 while a
 * seconds-cron report with `retry: { attempts: 2, backoff: 1s }` comes due. Each slot gets exactly
 * one failure notice (with a Re-run button) after its two attempts and no digest; once the faults
 * are cleared, the next slot posts a normal digest.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BotHarness } from '../../support/botHarness.js';
import { secondsReport, writeReports } from '../../support/scheduledReports.js';
import type { StoredMessage } from '../../support/slackTestServer.js';

const CHANNEL = 'C0GENERAL1';
const REPORT = 'every-five';

const isDigest = (m: StoredMessage) =>
  m.metadata?.event_type === 'pivotbot_digest' && m.metadata.event_payload.report === REPORT && !m.threadTs;
const isFailureNotice = (m: StoredMessage) => m.text.includes('could not be delivered');
/** The slot a failure notice names (its context line says `slot <ISO>`). */
const noticeSlot = (m: StoredMessage) => /slot (\d{4}-\d\d-\d\dT[\d:.]+Z)/.exec(JSON.stringify(m.blocks))?.[1];

describe('a Reporting Service outage', () => {
  const harness = new BotHarness();
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pivotbot-outage-'));
    const reports = await writeReports(dir, {
      [REPORT]: secondsReport({ title: 'Every five seconds', channels: [CHANNEL], everySeconds: 5 }),
    });
    await harness.start({ env: { PIVOTBOT_REPORTS_DIR: reports }, faults: { http5xxRate: 1 } });
  }, 60_000);

  afterAll(async () => {
    await harness.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('posts one failure notice per slot after the attempts, then a normal digest once it recovers', async () => {
    const slack = harness.slack;
    const notices = () => slack.messages.filter(isFailureNotice);
    await slack.waitFor(() => notices().length >= 2, 30_000, 'two failure notices');
    const failedSlots = notices().map(noticeSlot);
    expect(failedSlots.every((s) => s !== undefined)).toBe(true);
    expect(slack.messages.filter(isDigest)).toEqual([]);

    const recovered = Date.now();
    harness.sandbox.replaceFaults({ http5xxRate: 0 });
    await slack.waitFor(
      () => slack.messages.filter(isDigest).some((m) => Date.parse(String(m.metadata?.event_payload.slot)) > recovered),
      20_000,
      'a digest after the recovery',
    );
    // One schedule's slots run in order: every slot before that digest is settled. A later one
    // still running is finished by the stop (its grace) before counting.
    await harness.bot.stop();

    const all = notices();
    const perSlot = new Map<string, number>();
    for (const m of all) perSlot.set(String(noticeSlot(m)), (perSlot.get(String(noticeSlot(m))) ?? 0) + 1);
    expect([...perSlot.values()].every((n) => n === 1)).toBe(true);
    for (const m of all) {
      expect(m.channel).toBe(CHANNEL);
      expect(m.text).toContain('Every five seconds');
      expect(m.text).toContain('after 2 attempt(s)');
      const actions = JSON.stringify(m.blocks);
      expect(actions).toContain('"action_id":"pivot_rerun"');
      expect(actions).toContain(`\\"reportId\\":\\"${REPORT}\\"`);
      // The failed slot ran twice and is recorded failed; no digest went out for it.
      const run = harness.bot.store.runs.findByIdempotencyKey(`digest:${REPORT}:${CHANNEL}:${noticeSlot(m)}`);
      expect(run).toMatchObject({ status: 'failed', attempt: 2 });
      expect(slack.messages.filter(isDigest).some((d) => d.metadata?.event_payload.slot === noticeSlot(m))).toBe(false);
    }

    const after = slack.messages
      .filter(isDigest)
      .filter((m) => Date.parse(String(m.metadata?.event_payload.slot)) > recovered);
    const first = after[0] as StoredMessage;
    expect(first.metadata?.event_payload.late).toBe(false);
    expect(first.text).not.toMatch(/^Late/);
    expect(JSON.stringify(first.blocks)).toContain('"type":"image"');
    // Every slot is either a digest or a failure notice, never both, never twice.
    const digestSlots = slack.messages.filter(isDigest).map((m) => String(m.metadata?.event_payload.slot));
    expect(new Set(digestSlots).size).toBe(digestSlots.length);
  }, 60_000);
});
