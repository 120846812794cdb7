/**
 * A scheduled digest explains its moved KPIs: `pivotbot start` as its own process, the sandbox
 * with a planted cause (Android installs cut to a twentieth yesterday), the Slack test server.
 * The digest carries a "because" line naming the planted segment, and its thread the ranking.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Plant, type RunningSandbox, startSandbox } from '../../../src/sandbox/index.js';
import { secondsReport, spendWatchReport, writeReports } from '../../support/scheduledReports.js';
import { SlackTestServer, type StoredMessage } from '../../support/slackTestServer.js';
import { type SpawnedBot, spawnBot } from '../../support/spawnBot.js';

const CHANNEL = 'C0GENERAL1';
const text = (m: StoredMessage | undefined) => JSON.stringify(m?.blocks ?? m?.text ?? '');

/** The Slack test server, a sandbox with `plants`, a temp folder, and the bot started on them; stopped after the file. */
function plantedWorld(plants: Plant[], prefix: string) {
  const world = {} as { slack: SlackTestServer; sandbox: RunningSandbox; dir: string; bot?: SpawnedBot };
  beforeAll(async () => {
    world.slack = await new SlackTestServer().start();
    world.sandbox = await startSandbox({ port: 0, scale: 'small', plants });
    world.dir = await mkdtemp(join(tmpdir(), prefix));
  });
  afterAll(async () => {
    if (world.bot) {
      world.bot.child.kill('SIGTERM');
      await world.bot.exited;
    }
    await world.sandbox?.stop();
    await world.slack?.stop();
    await rm(world.dir, { recursive: true, force: true });
  });
  return world;
}

describe('a digest with a planted cause', () => {
  const world = plantedWorld(
    // Half the installs: the small sandbox's few large deliveries vary twice as much as Poisson's
    // counts, so a cut of the US's 49 installs a day (to 2) is 3.75σ, below its noise bar (4.19σ).
    [{ where: { appPlatform: 'ANDROID' }, metric: 'installs', factor: 0.05, days: 'yesterday' }],
    'pivotbot-digest-explain-',
  );

  it('says why installs moved under the KPIs and posts the ranking in its thread', async () => {
    const { slack, sandbox, dir } = world;
    const reports = await writeReports(dir, {
      'every-five': secondsReport({
        title: 'Every five seconds',
        channels: [CHANNEL],
        everySeconds: 5,
        chart: false,
        explain: true,
      }),
    });
    const bot = spawnBot({ slack, sandbox, reportsDir: reports, dir, env: {} });
    world.bot = bot;
    bot.child.stdout?.resume();
    const digest = () =>
      slack.messages.find((m) => m.metadata?.event_type === 'pivotbot_digest' && m.threadTs === undefined);
    const why = () => {
      const parent = digest();
      return parent
        ? slack.messages.find((m) => m.threadTs === parent.ts && text(m).includes('Why it moved'))
        : undefined;
    };
    await slack.waitFor(() => why() !== undefined, 120_000, "the explanation in the first digest's thread");
    const because = text(digest());
    expect(because).toContain(':mag: Installs');
    expect(because).toContain('App platform ANDROID');
    expect(because).toContain('of the change');
    const ranking = text(why());
    expect(ranking).toContain('App platform ANDROID');
    expect(ranking).toMatch(/\d+ quer(y|ies)/);
  }, 180_000);
});

describe('an alert incident with a planted cause', () => {
  const world = plantedWorld(
    [{ where: { countryCode: 'US' }, metric: 'spend', factor: 4, days: 'yesterday' }],
    'pivotbot-alert-explain-',
  );

  it("explains the breach in the incident's first reply, naming the planted segment", async () => {
    const { slack, sandbox, dir } = world;
    const reports = await writeReports(dir, {
      'spend-watch': spendWatchReport({ channel: CHANNEL, above: 0, explain: true }),
    });
    const bot = spawnBot({ slack, sandbox, reportsDir: reports, dir, env: {} });
    world.bot = bot;
    bot.child.stdout?.resume();
    const parents = () =>
      slack.messages.filter((m) => m.metadata?.event_type === 'pivotbot_alert' && m.threadTs === undefined);
    const explained = () =>
      parents().flatMap((p) => slack.messages.filter((m) => m.threadTs === p.ts && text(m).includes('Why it moved')));
    // Both platforms breach `above: 0`; both moved with the US's spend, so both get an explanation.
    await slack.waitFor(() => explained().length >= 2, 120_000, 'an explanation under each incident');
    for (const reply of explained()) {
      expect(text(reply)).toContain('Country code US');
      expect(text(reply)).toContain('Spend');
    }
    // The explanation is the first reply of each thread.
    for (const parent of parents()) {
      const first = slack.messages.find((m) => m.threadTs === parent.ts);
      expect(text(first)).toContain('Why it moved');
    }
  }, 180_000);
});
