/**
 * `pivotbot export <name>`: a saved query ("Schedule this") in the store, printed as a report
 * definition, accepted by `pivotbot validate` in a reports folder, and run by `pivotbot run`.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../../src/cli/main.js';
import { silentLogger } from '../../../src/core/index.js';
import { openStore } from '../../../src/store/index.js';

let dir: string;
let storePath: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cli-export-'));
  storePath = join(dir, 'store', 'pivotbot.json');
  const store = await openStore({ path: storePath, logger: silentLogger() });
  await store.subscriptions.add({
    report: 'saved-brazil-campaigns',
    channel: 'C0MARKET01',
    query: 'top 5 campaigns by spend with installs last 7 days where country = Brazil',
    cron: '30 8 * * 1,2,3,4,5',
    timezone: 'Europe/Berlin',
    createdBy: 'U0ADMIN1',
  });
  await store.subscriptions.add({ report: 'daily-kpi', channel: 'C0MARKET01', createdBy: 'U0ADMIN1' });
  await store.close();
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function pivotbot(env: NodeJS.ProcessEnv, ...args: string[]) {
  let out = '';
  let err = '';
  const code = await main(['node', 'pivotbot', ...args], {
    out: (s) => {
      out += s;
    },
    err: (s) => {
      err += s;
    },
    env: { PIVOTBOT_REPORTS_DIR: 'reports', PIVOTBOT_TIMEZONE: 'UTC', PIVOTBOT_STORE: storePath, ...env },
  });
  return { code, out, err };
}

describe('pivotbot export', () => {
  it('prints a saved query as a report that validates and runs', async () => {
    const exported = await pivotbot({}, 'export', 'brazil-campaigns');
    expect(exported.err).toBe('');
    expect(exported.code).toBe(0);
    expect(exported.out).toContain('cron: 30 8 * * 1,2,3,4,5');
    expect(exported.out).toContain('C0MARKET01');

    const reports = join(dir, 'reports');
    await mkdir(reports, { recursive: true });
    await writeFile(join(reports, 'brazil-campaigns.yaml'), exported.out);
    const valid = await pivotbot({}, 'validate', reports);
    expect(valid.out).toContain('1 report(s) valid');
    expect(valid.code).toBe(0);

    const outDir = join(dir, 'out');
    const run = await pivotbot({ PIVOTBOT_REPORTS_DIR: reports }, 'run', 'brazil-campaigns', '--out', outDir);
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    const csv = await readFile(join(outDir, 'brazil-campaigns.csv'), 'utf8');
    expect(csv.split('\n')[0]).toMatch(/^campaign,spend,installs/);
  }, 60_000);

  it('says which saved queries exist when the name is wrong, and exits 1', async () => {
    const { code, err } = await pivotbot({}, 'export', 'brazil-campaign');
    expect(code).toBe(1);
    expect(err).toContain('Did you mean');
    expect(err).toContain('brazil-campaigns');
  });

  it('says there are none in an empty store', async () => {
    const { code, err } = await pivotbot({ PIVOTBOT_STORE: join(dir, 'none.json') }, 'export', 'x');
    expect(code).toBe(1);
    expect(err).toContain('no saved queries');
  });
});
