/**
 * One digest, every door: the scheduled digest, `/pivot run` and `pivotbot run --out` build the
 * same message for the same report and instant, with the "because" lines and the pacing line
 * (docs/reports.md's budget example, compared with the day before, against the sandbox with a planted cause).
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../../src/cli/main.js';
import { silentLogger } from '../../../src/core/index.js';
import { type DigestDeps, deliverDigest, runAndDeliver } from '../../../src/delivery/index.js';
import type { SlackMessage } from '../../../src/render/index.js';
import { ReportingClient } from '../../../src/reporting/index.js';
import { findReport, loadReports } from '../../../src/reports/index.js';
import { type RunningSandbox, startSandbox } from '../../../src/sandbox/index.js';
import type { ScheduleSpec } from '../../../src/scheduler/index.js';
import type { MessageMetadata } from '../../../src/slackapi/index.js';
import { createMemoryStore } from '../../../src/store/index.js';

/**
 * The latest 12:00 UTC: São Paulo's "yesterday" (the report's) is then the sandbox's UTC
 * "yesterday" (the plant's); between 00:00 and 03:00 UTC they are different days.
 */
const NOW = new Date(Math.floor((Date.now() - 12 * 3_600_000) / 86_400_000) * 86_400_000 + 12 * 3_600_000);
const MONTH = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit' })
  .format(NOW)
  .slice(0, 7);

/** docs/reports.md's budget example, delivered and scheduled. */
const WORD_GARDEN = `title: Word Garden
query:
  metrics: [spend, installs, installsCpi]
  filter: { appId: 101 }
  range: yesterday
  timezone: America/Sao_Paulo
present: { compare: previous_period }
mode: sync
schedule: { at: "09:00" }
deliver: { channels: [C0DIGEST1], csv: false }
budgets:
  months:
    "${MONTH}": 12000
`;

describe('one digest, every door', () => {
  let sandbox: RunningSandbox;
  let dir: string;
  let reportsDir: string;

  beforeAll(async () => {
    sandbox = await startSandbox({
      port: 0,
      scale: 'small',
      now: NOW,
      plants: [{ where: { countryCode: 'US' }, metric: 'installs', factor: 0.05, days: 'yesterday' }],
    });
    dir = await mkdtemp(join(tmpdir(), 'pivotbot-one-digest-'));
    reportsDir = join(dir, 'reports');
    await import('node:fs/promises').then((fs) => fs.mkdir(reportsDir));
    await writeFile(join(reportsDir, 'word-garden.yaml'), WORD_GARDEN);
  }, 120_000);
  afterAll(async () => {
    await sandbox?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  /** Delivery deps whose Slack records what is posted; no chart is drawn (the three draw the same one). */
  async function deps(posted: SlackMessage[]): Promise<DigestDeps> {
    const metadata = new Map<number, MessageMetadata | undefined>();
    const loaded = await loadReports(reportsDir, { now: NOW, defaultTimeZone: 'UTC' });
    return {
      client: new ReportingClient({ ...sandbox, now: () => NOW }),
      store: createMemoryStore({ clock: () => NOW }),
      logger: silentLogger(),
      clock: () => NOW,
      defaultTimeZone: 'UTC',
      workDir: dir,
      signal: new AbortController().signal,
      charts: { renderView: async () => undefined },
      loadReports: async () => loaded,
      // The scheduled digest is posted first, then its because lines are added by an update of it.
      slack: {
        async post(channel: string, message: SlackMessage, options?: { metadata?: MessageMetadata }) {
          posted.push(message);
          metadata.set(posted.length, options?.metadata);
          return { ts: `1.00000${posted.length}`, channel };
        },
        async update(_channel: string, ts: string, message: SlackMessage) {
          posted[Number(ts.slice(-1)) - 1] = message;
        },
        async history(_channel: string, options: { latest?: string }) {
          const n = Number(options.latest?.slice(-1));
          const message = posted[n - 1];
          const meta = metadata.get(n);
          return message ? [{ ts: `1.00000${n}`, ...message, ...(meta ? { metadata: meta } : {}) }] : [];
        },
        async replies() {
          return [];
        },
        async upload() {},
      },
    } as unknown as DigestDeps;
  }

  it('builds the same blocks, because and pacing lines included', async () => {
    // The scheduled digest.
    const scheduled: SlackMessage[] = [];
    const spec: ScheduleSpec = {
      id: 'report:word-garden:C0DIGEST1:09:00 daily@America/Sao_Paulo',
      report: 'word-garden',
      channel: 'C0DIGEST1',
      source: 'report',
      timezone: 'America/Sao_Paulo',
      at: '09:00',
      catchUp: null,
      retry: { attempts: 1, backoffMs: 0 },
    };
    await deliverDigest(
      { spec, slot: NOW, late: false, attempt: 1, runId: 'r1', waitedMs: 0, signal: new AbortController().signal },
      await deps(scheduled),
    );
    // `/pivot run word-garden`: the target QueryCommands builds for a named report.
    const asked: SlackMessage[] = [];
    const slashDeps = await deps(asked);
    const report = findReport(await slashDeps.loadReports(), 'word-garden');
    await runAndDeliver({ report, explain: true }, { channel: 'C0DIGEST1', user: 'U1' }, slashDeps);
    // `pivotbot run word-garden --out DIR`.
    const out = join(dir, 'out');
    const code = await main(['node', 'pivotbot', 'run', 'word-garden', '--out', out], {
      out: () => undefined,
      err: (s) => void process.stderr.write(s),
      env: {
        PIVOTBOT_REPORTS_DIR: reportsDir,
        PIVOTBOT_TIMEZONE: 'UTC',
        REPORTING_AUTH_URL: sandbox.authUrl,
        REPORTING_GRAPHQL_URL: sandbox.graphqlUrl,
        REPORTING_CLIENT_ID: sandbox.clientId,
        REPORTING_CLIENT_SECRET: sandbox.clientSecret,
      },
      now: () => NOW,
    });
    expect(code).toBe(0);
    const written = JSON.parse(await readFile(join(out, 'word-garden.message.json'), 'utf8')) as SlackMessage;

    const digest = scheduled[0];
    const text = JSON.stringify(digest?.blocks);
    expect(text).toContain(':mag: Installs');
    expect(text).toMatch(/[Pp]ac|plan/);
    expect(asked[0]?.blocks).toEqual(digest?.blocks);
    expect(written.blocks).toEqual(digest?.blocks);
  }, 120_000);
});
