import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../../src/cli/main.js';
import { silentLogger } from '../../../src/core/index.js';
import { openStore } from '../../../src/store/index.js';

let dir: string;
let reportsDir: string;
let storePath: string;

const REPORT = (extra: string) => `title: T\nquery:\n  metrics: [spend]\n  range: yesterday\n${extra}`;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cli-schedule-'));
  reportsDir = join(dir, 'reports');
  await mkdir(reportsDir);
  await writeFile(
    join(reportsDir, 'ny-digest.yaml'),
    REPORT('schedule:\n  cron: "30 2 * * *"\n  timezone: America/New_York\ndeliver:\n  channels: ["#ua"]\n'),
  );
  await writeFile(
    join(reportsDir, 'berlin-weekly.yaml'),
    REPORT(
      'schedule:\n  at: "09:00"\n  days: [mon]\n  timezone: Europe/Berlin\ndeliver:\n  channels: ["#growth", C0123ABCD]\n',
    ),
  );
  await writeFile(join(reportsDir, 'unscheduled.yaml'), REPORT(''));
  storePath = join(dir, 'state.json');
  // A store written by the bot, with one subscription of its own time and one to an unscheduled report.
  const store = await openStore({ path: storePath, logger: silentLogger() });
  await store.subscriptions.add({
    report: 'ny-digest',
    channel: 'C999',
    at: '07:00',
    timezone: 'Asia/Kolkata',
    createdBy: 'U1',
  });
  await store.subscriptions.add({ report: 'unscheduled', channel: 'C777', createdBy: 'U1' });
  await store.close();
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function pivotbot(...args: string[]) {
  let out = '';
  let err = '';
  const code = await main(['node', 'pivotbot', 'schedule', ...args], {
    out: (s) => {
      out += s;
    },
    err: (s) => {
      err += s;
    },
    env: { PIVOTBOT_REPORTS_DIR: reportsDir, PIVOTBOT_STORE: storePath, PIVOTBOT_TIMEZONE: 'UTC' },
  });
  return { code, out, err };
}

describe('pivotbot schedule', () => {
  it('--json lists every schedule, reports and subscriptions, with the DST rule applied', async () => {
    const { code, out, err } = await pivotbot('--from', '2026-03-07T12:00:00Z', '--count', '2', '--json');
    expect(code).toBe(0);
    const subscription = JSON.parse(out).find((s: { source: string }) => s.source === 'subscription');
    expect(JSON.parse(out)).toEqual([
      {
        report: 'berlin-weekly',
        channel: '#growth',
        source: 'report',
        timezone: 'Europe/Berlin',
        fires: ['2026-03-09T08:00:00.000Z', '2026-03-16T08:00:00.000Z'],
      },
      {
        report: 'berlin-weekly',
        channel: 'C0123ABCD',
        source: 'report',
        timezone: 'Europe/Berlin',
        fires: ['2026-03-09T08:00:00.000Z', '2026-03-16T08:00:00.000Z'],
      },
      {
        report: 'ny-digest',
        channel: '#ua',
        source: 'report',
        timezone: 'America/New_York',
        // 02:30 does not exist on 8 March (02:00 → 03:00): it fires at 03:30 EDT.
        fires: ['2026-03-08T07:30:00.000Z', '2026-03-09T06:30:00.000Z'],
      },
      subscription,
    ]);
    expect(subscription).toEqual({
      report: 'ny-digest',
      channel: 'C999',
      source: 'subscription',
      timezone: 'Asia/Kolkata',
      fires: ['2026-03-08T01:30:00.000Z', '2026-03-09T01:30:00.000Z'],
    });
    expect(err).toContain('not scheduled: unscheduled → C777 (subscription): report "unscheduled" has no schedule');
  });

  it('prints each fire in its zone and in UTC, for one report, 5 by default, --from inclusive', async () => {
    const { code, out } = await pivotbot('ny-digest', '--from', '2026-11-01T07:30:00Z');
    expect(code).toBe(0);
    expect(out.split('\n').slice(0, 3)).toEqual([
      'ny-digest → #ua (report): cron "30 2 * * *", America/New_York',
      '  Sun 2026-11-01 02:30:00-05:00   2026-11-01T07:30:00.000Z',
      '  Mon 2026-11-02 02:30:00-05:00   2026-11-02T07:30:00.000Z',
    ]);
    const fires = out
      .split('\n\n')[0]
      ?.split('\n')
      .filter((l) => l.startsWith('  '));
    expect(fires).toHaveLength(5);
    expect(out).toContain('ny-digest → C999 (subscription sub_');
  });

  it('answers an unknown report with a suggestion and exit 1', async () => {
    const { code, err } = await pivotbot('ny-digets');
    expect(code).toBe(1);
    expect(err).toContain('No report named "ny-digets". Did you mean "ny-digest"?');
  });

  it.each([
    [['--from', '2026-03-08 00:00'], /--from "2026-03-08 00:00" is not an ISO instant; write it with Z or an offset/],
    [['--count', '0'], /--count "0" must be a whole number 1-1000/],
  ])('refuses %j with a clear message', async (args, message) => {
    const { code, err } = await pivotbot(...args);
    expect(code).toBe(1);
    expect(err).toMatch(message);
  });

  it('reads the subscriptions while the bot holds the store lock, and writes nothing', async () => {
    const bot = await openStore({ path: storePath, logger: silentLogger() });
    try {
      const { code, out } = await pivotbot('--json', '--count', '1');
      expect(code).toBe(0);
      expect(JSON.parse(out).filter((s: { source: string }) => s.source === 'subscription')).toHaveLength(1);
    } finally {
      await bot.close();
    }
  });

  it('runs without a store file: report schedules only', async () => {
    let out = '';
    const code = await main(['node', 'pivotbot', 'schedule', '--json', '--count', '1'], {
      out: (s) => {
        out += s;
      },
      err: () => {},
      env: { PIVOTBOT_REPORTS_DIR: reportsDir, PIVOTBOT_STORE: join(dir, 'absent.json'), PIVOTBOT_TIMEZONE: 'UTC' },
    });
    expect(code).toBe(0);
    expect(JSON.parse(out).map((s: { source: string }) => s.source)).toEqual(['report', 'report', 'report']);
  });
});
