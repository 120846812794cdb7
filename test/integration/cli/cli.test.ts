import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { main } from '../../../src/cli/main.js';
import { SlackTestServer } from '../../support/slackTestServer.js';

const REPORTS = resolve('reports');
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cli-it-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs `pivotbot …` in-process against the embedded sandbox, capturing its output. */
async function pivotbot(...args: string[]) {
  return pivotbotWith({}, ...args);
}

async function pivotbotWith(env: NodeJS.ProcessEnv, ...args: string[]) {
  let out = '';
  let err = '';
  const code = await main(['node', 'pivotbot', ...args], {
    out: (s) => {
      out += s;
    },
    err: (s) => {
      err += s;
    },
    env: { PIVOTBOT_REPORTS_DIR: REPORTS, PIVOTBOT_TIMEZONE: 'UTC', ...env },
  });
  return { code, out, err };
}

describe('pivotbot validate', () => {
  it('passes the shipped reports', async () => {
    const { code, out } = await pivotbot('validate');
    expect(code).toBe(0);
    expect(out).toMatch(/^6 report\(s\) valid in /);
  });

  it('exits 1 and prints every problem of every broken file', async () => {
    const broken = join(dir, 'broken');
    await import('node:fs/promises').then((fs) => fs.mkdir(broken));
    await writeFile(
      join(broken, 'a.yaml'),
      'title: A\nquery:\n  metrics: [spend, instals]\n  dimensions: [contryCode]\n',
    );
    await writeFile(join(broken, 'b.yaml'), 'title: B\nmode: fast\nquery:\n  metrics: [spend]\n');
    await writeFile(join(broken, 'c.yaml'), 'title: C\nquery:\n  metrics: [spend]\n');
    const { code, out } = await pivotbot('validate', broken);
    expect(code).toBe(1);
    const lines = out.split('\n').filter((l) => l.includes('.yaml:'));
    expect(lines).toEqual([
      `${join(broken, 'a.yaml')}:3:20: query.metrics[1]: Unknown metric "instals". Did you mean "installs"?`,
      `${join(broken, 'a.yaml')}:4:16: query.dimensions[0]: Unknown dimension "contryCode". Did you mean "countryCode" or "countryName"?`,
      expect.stringMatching(/b\.yaml:2:7: mode: "fast" is not allowed; use one of sync, async, auto\./),
    ]);
    expect(out).toContain('3 problem(s) in 2 of 3 report(s): a, b');
  });
});

describe('pivotbot validate with a workspace glossary', () => {
  it('checks glossary.yaml like a report: file:line:col and exit 1', async () => {
    const folder = join(dir, 'with-glossary');
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, 'c.yaml'), 'title: C\nquery:\n  metrics: [spend]\n');
    await writeFile(
      join(folder, 'glossary.yaml'),
      'words:\n  purchases:\n    metric: evnts(eventId=1014)\n  signups:\n    metric: events(eventId=1011)\n',
    );
    const { code, out } = await pivotbot('validate', folder);
    expect(code).toBe(1);
    expect(out).toContain(
      `${join(folder, 'glossary.yaml')}:3:13: words.purchases.metric: Unknown metric "evnts". Did you mean "events"`,
    );
    expect(out).not.toContain('signups');
  });
});

describe('pivotbot query', () => {
  it('prints an aligned table with totals', async () => {
    const { code, out } = await pivotbot('query', 'spend installs installsCpi by countryCode yesterday');
    expect(code).toBe(0);
    const lines = out.split('\n');
    expect(lines[0]).toBe('spend, installs, installsCpi by countryCode, yesterday (UTC)');
    expect(lines[2]).toMatch(/^spend installs installsCpi by countryCode yesterday — Yesterday \(/);
    const header = lines.find((l) => l.startsWith('countryCode'));
    expect(header).toMatch(/^countryCode\s+spend\s+installs\s+installsCpi$/);
    const total = lines.find((l) => l.startsWith('Total'));
    expect(total?.length).toBe(header?.length);
  });

  it('prints the error with a caret and exits 1', async () => {
    const { code, err, out } = await pivotbot('query', 'spend instals by countryCode');
    expect(code).toBe(1);
    expect(out).toBe('');
    expect(err).toBe(
      'Unknown metric "instals". Did you mean "installs"?\n  spend instals by countryCode\n        ^^^^^^^\n',
    );
  });

  it("understands the trade's words and says how in the catalog's, first", async () => {
    const { code, out } = await pivotbot('query', 'top 3 countries by cpi last week', '--json');
    expect(code).toBe(0);
    const view = JSON.parse(out);
    expect(view.understood).toBe('installsCpi by countryCode, last week (UTC), top 3 by installsCpi');
    expect(view.columns.map((c: { name: string; kind: string }) => [c.name, c.kind])).toEqual([
      ['countryCode', 'dimension'],
      ['installsCpi', 'metric'],
    ]);
    expect(view.range).toMatchObject({ timezone: 'UTC' });
    expect(view.rows).toHaveLength(3);
  });

  it('writes every row to --csv and prints JSON with --json', async () => {
    const csv = join(dir, 'q.csv');
    const { code, out } = await pivotbot('query', 'spend by countryCode last 7 days top 3', '--csv', csv, '--json');
    expect(code).toBe(0);
    const view = JSON.parse(out);
    expect(view.rows).toHaveLength(3);
    const lines = (await readFile(csv, 'utf8')).trim().split('\r\n');
    expect(lines[0]).toBe('countryCode,spend');
    expect(lines.length - 1).toBe(view.totalRowCount);
  });

  it('runs a named report with a range', async () => {
    const { code, out } = await pivotbot('query', 'run daily-kpi last_7_days');
    expect(code).toBe(0);
    expect(out).toMatch(/^Daily KPIs — Last 7 days \(/);
  });

  it('suggests the name of a report that does not exist', async () => {
    const { code, err } = await pivotbot('query', 'run daily-kpl');
    expect(code).toBe(1);
    expect(err).toMatch(/No report named "daily-kpl". Did you mean "daily-kpi"\?/);
  });
});

describe('pivotbot run', () => {
  it('writes the CSV and the JSON view to --out', async () => {
    const outDir = join(dir, 'out');
    const { code, out } = await pivotbot('run', 'country-breakdown', '--out', outDir);
    expect(code).toBe(0);
    expect(out).toMatch(/country-breakdown: \d+ row\(s\), sync/);
    const view = JSON.parse(await readFile(join(outDir, 'country-breakdown.json'), 'utf8'));
    expect(view.reportId).toBe('country-breakdown');
    expect(await readFile(join(outDir, 'country-breakdown.csv'), 'utf8')).toMatch(
      /^countryCode,appPlatform,impressions/,
    );
    const message = JSON.parse(await readFile(join(outDir, 'country-breakdown.message.json'), 'utf8'));
    expect(message.blocks[0]).toMatchObject({ type: 'header' });
    expect((await readFile(join(outDir, 'country-breakdown.png'))).subarray(1, 4).toString()).toBe('PNG');
  });

  it('posts the digest to Slack with --post, the CSV in its thread', async () => {
    const slack = await new SlackTestServer().start();
    try {
      const env = { SLACK_BOT_TOKEN: 'xoxb-cli-test', SLACK_API_URL: slack.apiUrl };
      const { code, out } = await pivotbotWith(
        env,
        'run',
        'daily-kpi',
        '--out',
        join(dir, 'post'),
        '--post',
        '--channel',
        '#general',
      );
      expect(code).toBe(0);
      const [post] = slack.callsTo('chat.postMessage');
      expect(post?.args.channel).toBe('#general');
      expect(JSON.stringify(post?.args.blocks)).toContain('Daily KPIs');
      // The first upload is the chart, shared nowhere and shown in the message; then the CSV.
      const upload = slack.callsTo('files.completeUploadExternal').find((c) => c.args.channel_id !== undefined);
      expect(upload?.args).toMatchObject({ channel_id: 'C0GENERAL1', thread_ts: slack.messages[0]?.ts });
      expect(out).toContain(`posted to #general (ts ${slack.messages[0]?.ts})`);
    } finally {
      await slack.stop();
    }
  });

  it('refuses --post without a Slack token, naming the variable', async () => {
    const { code, err } = await pivotbot('run', 'daily-kpi', '--post', '--channel', 'C0123ABCD');
    expect(code).toBe(1);
    expect(err).toContain('SLACK_BOT_TOKEN: missing');
  });

  it('fails on an unknown report', async () => {
    const { code, err } = await pivotbot('run', 'nope');
    expect(code).toBe(1);
    expect(err).toMatch(/No report named "nope"/);
  });
});

describe('pivotbot validate on a missing folder', () => {
  it('says which folder it cannot read and exits 1', async () => {
    const { code, err } = await pivotbot('validate', join(dir, 'nowhere'));
    expect(code).toBe(1);
    expect(err).toMatch(/Cannot read the reports folder .*nowhere/);
  });
});
