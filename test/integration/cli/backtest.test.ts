/**
 * `pivotbot backtest` in-process against the embedded sandbox, on the shipped reports: the text
 * per rule (the sentence, how it was replayed with its query count, each entity's incidents),
 * `--json`, a rule named wrong, and a backtest the service's limits refuse, in one line.
 */
import { resolve } from 'node:path';
import { main } from '../../../src/cli/main.js';

const REPORTS = resolve('reports');

async function pivotbot(...args: string[]) {
  let out = '';
  let err = '';
  const code = await main(['node', 'pivotbot', ...args], {
    out: (s) => {
      out += s;
    },
    err: (s) => {
      err += s;
    },
    env: { PIVOTBOT_REPORTS_DIR: REPORTS, PIVOTBOT_TIMEZONE: 'UTC' },
  });
  return { code, out, err };
}

describe('pivotbot backtest', () => {
  it('prints each rule of daily-kpi: the sentence, the evaluations and queries, the incidents with values and bounds', async () => {
    const { code, out, err } = await pivotbot('backtest', 'daily-kpi', '--days', '30');
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(out).toMatch(/^daily-kpi \/ cpi-too-high \(CPI above target\): would (have|not have) fired/m);
    expect(out).toMatch(/^ {2}\d+ evaluations at .+; daily data, 1 query$/m);
    expect(out).toMatch(/^daily-kpi \/ cpi-unusual /m);
  }, 120_000);

  it('--json: one object per rule with its queries, evaluations and events', async () => {
    const { code, out } = await pivotbot('backtest', 'daily-kpi', '--rule', 'cpi-unusual', '--days', '14', '--json');
    expect(code).toBe(0);
    const [result, ...more] = JSON.parse(out);
    expect(more).toEqual([]);
    expect(result).toMatchObject({ reportId: 'daily-kpi', ruleId: 'cpi-unusual', days: 14, queries: 1 });
    expect(result.evaluations).toBeGreaterThanOrEqual(9); // its schedule: weekdays
    expect(result.summary).toMatch(/^would (have|not have) fired/);
    expect(Array.isArray(result.events)).toBe(true);
    for (const event of result.events) expect(event).toHaveProperty('condition.kind');
  }, 120_000);

  it('names a rule that is not there, with a suggestion', async () => {
    const { code, err } = await pivotbot('backtest', 'daily-kpi', '--rule', 'cpi-too-hihg');
    expect(code).toBe(1);
    expect(err).toMatch(/No rule "cpi-too-hihg" in daily-kpi\. Did you mean "cpi-too-high"\?/);
  });

  it('refuses a siteBundle rule past its 3 months in one line, exit 1', async () => {
    const { code, err } = await pivotbot('backtest', 'site-bundle-quality', '--days', '100');
    expect(code).toBe(1);
    const lines = err.trim().split('\n');
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      expect(line).toMatch(
        /^pivotbot backtest: site-bundle-quality\/[a-z-]+: cannot backtest: siteBundle is kept for 3 months/,
      );
    }
  }, 120_000);
});
