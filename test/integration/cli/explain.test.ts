/**
 * `pivotbot explain --leaves FILE.csv`, the built command in its own process, over real CSV files
 * in a temp folder (run `npm run build --silent` first: it runs dist/).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { botEnv } from '../../support/botEnv.js';
import { leafCsv, syntheticLeaves, UA_DIMENSIONS } from '../../support/leafTables.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cli-explain-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function pivotbot(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['bin/pivotbot.js', ...args], { env: botEnv() }, (error, out, err) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, out, err });
    });
  });
}

async function csvFile(name: string, text: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
}

describe('pivotbot explain --leaves', () => {
  it('prints the contract JSON with the planted combination first', async () => {
    const table = syntheticLeaves({
      dimensions: UA_DIMENSIONS,
      kind: 'additive',
      seed: 11,
      noise: 0.03,
      plants: [{ where: { countryCode: 'BR', source: 'Vungle' }, factor: 0.4 }],
    });
    const file = await csvFile('installs.csv', leafCsv(table));
    const { code, out, err } = await pivotbot('explain', '--leaves', file, '--metric', 'installs', '--json');
    expect(err).toBe('');
    expect(code).toBe(0);
    const json = JSON.parse(out);
    expect(Object.keys(json)).toEqual([
      'metric',
      'current',
      'baseline',
      'change',
      'diffuse',
      'queries',
      'partial',
      'drivers',
      'explored',
      'notes',
    ]);
    expect(json).toMatchObject({ metric: 'installs', diffuse: false, partial: false });
    expect(json.change).toBeCloseTo(json.current - json.baseline, 9);
    expect(json.queries).toBeLessThanOrEqual(24);
    expect(json.drivers[0].where).toEqual({ countryCode: 'BR', source: 'Vungle' });
    // The contract's fields first (DESIGN.md); `standsOut` says whether the driver is beyond noise.
    expect(Object.keys(json.drivers[0])).toEqual([
      'where',
      'current',
      'baseline',
      'contribution',
      'share',
      'standsOut',
    ]);
  });

  it('prints a readable ranking with mix and rate for a ratio, and honours --dimensions and --scale', async () => {
    const table = syntheticLeaves({
      dimensions: UA_DIMENSIONS,
      kind: 'ratio',
      seed: 5,
      noise: 0.02,
      plants: [{ where: { platform: 'ios' }, factor: 0.6, on: 'den' }],
    });
    const file = await csvFile('cpi.csv', leafCsv(table));
    const args = ['explain', '--leaves', file, '--metric', 'installsCpi', '--dimensions', 'platform,source'];
    const { code, out } = await pivotbot(...args);
    expect(code).toBe(0);
    const lines = out.split('\n');
    expect(lines[0]).toMatch(
      /^installsCpi \+\d+\.\d % \(\$[\d.]+ → \$[\d.]+\): ios's CPI rose \$[\d.]+ → \$[\d.]+ \(\+\$[\d.]+, \d+ % of the change\)$/,
    );
    expect(lines[2]).toMatch(
      /^ {2}1\. platform=ios \+\$[\d.]+ \(\d+ % of the change\): ios's CPI rose \$[\d.]+ → \$[\d.]+$/,
    );
    expect(out).toContain('of 2 dimensions explored');
    const scaled = JSON.parse((await pivotbot(...args, '--scale', '1000', '--json')).out);
    const plain = JSON.parse((await pivotbot(...args, '--json')).out);
    expect(scaled.change).toBeCloseTo(plain.change * 1000, 6);
    expect(Object.keys(plain.drivers[0])).toEqual([
      'where',
      'current',
      'baseline',
      'contribution',
      'share',
      'mix',
      'rate',
      'standsOut',
      'volumeShare',
      'numerator',
      'elsewhere',
    ]);
  });

  it('says partial when the budget runs out', async () => {
    const file = await csvFile(
      'small.csv',
      leafCsv(syntheticLeaves({ dimensions: UA_DIMENSIONS, kind: 'additive', seed: 1, noise: 0.05 })),
    );
    const json = JSON.parse((await pivotbot('explain', '--leaves', file, '--budget', '3', '--json')).out);
    expect(json).toMatchObject({ queries: 3, partial: true, explored: { dimensions: 3, of: 4 } });
    expect(json.notes).toContain('partial: explored 3 of 4 dimensions (budget 3 queries)');
  });

  it('names the bad row of a malformed CSV and exits 1 without a stack trace', async () => {
    const file = await csvFile('bad.csv', 'countryCode,current,baseline\nBR,10,20\nUS,ten,20\n');
    const { code, out, err } = await pivotbot('explain', '--leaves', file);
    expect(code).toBe(1);
    expect(out).toBe('');
    expect(err).toBe(`${file}: row 3, column current: "ten" is not a decimal number.\n`);
  });

  it('says a missing file, a bad budget and a missing --leaves in one line each', async () => {
    const missing = await pivotbot('explain', '--leaves', join(dir, 'nope.csv'));
    expect([missing.code, missing.err]).toEqual([
      1,
      `pivotbot explain: cannot read ${join(dir, 'nope.csv')}: no such file.\n`,
    ]);
    const budget = await pivotbot('explain', '--leaves', join(dir, 'bad.csv'), '--budget', '0');
    expect([budget.code, budget.err]).toEqual([1, 'pivotbot explain: --budget "0" must be a whole number 1-10000.\n']);
    const none = await pivotbot('explain');
    expect([none.code, none.err]).toEqual([
      1,
      'pivotbot explain: give a query ("installs yesterday vs same day last week") or --leaves FILE.csv.\n',
    ]);
  });
});

describe('pivotbot explain "<query>" (the embedded sandbox as the Reporting Service)', () => {
  it('prints the contract JSON for the query’s metric, within the query budget', async () => {
    const { code, out, err } = await pivotbot(
      'explain',
      'installs yesterday vs same day last week',
      '--json',
      '--budget',
      '10',
    );
    expect(err).not.toContain('Error');
    expect(code).toBe(0);
    const json = JSON.parse(out) as Record<string, unknown> & { drivers: Array<Record<string, unknown>> };
    for (const key of ['metric', 'current', 'baseline', 'change', 'diffuse', 'queries', 'partial', 'drivers']) {
      expect(json).toHaveProperty(key);
    }
    expect(json.metric).toBe('installs');
    expect(json.change).toBeCloseTo(Number(json.current) - Number(json.baseline), 6);
    expect(Number(json.queries)).toBeLessThanOrEqual(10);
    // Each driver's share is its contribution over the whole change.
    for (const d of json.drivers) {
      expect(Number(d.share)).toBeCloseTo(Number(d.contribution) / Number(json.change), 6);
    }
  }, 120_000);

  it('says which metric cannot be explained and exits 1', async () => {
    const { code, err } = await pivotbot('explain', 'uniqueClicks yesterday');
    expect(code).toBe(1);
    expect(err).toContain('uniqueClicks');
  }, 120_000);
});
