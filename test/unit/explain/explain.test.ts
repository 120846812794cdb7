import { UserInputError } from '../../../src/core/index.js';
import {
  type Explanation,
  explain,
  formatExplanation,
  type GroupQuery,
  type GroupSource,
  type LeafTable,
  leafCsvSource,
} from '../../../src/explain/index.js';
import { syntheticLeaves, UA_DIMENSIONS } from '../../support/leafTables.js';

/** A CPI table by country: installs (den) and spend (num) = installs × CPI, both periods. */
function cpiByCountry(rows: ReadonlyArray<[string, number, number, number, number]>): LeafTable {
  return {
    kind: 'ratio',
    dimensions: ['countryCode'],
    ignored: [],
    leaves: rows.map(([country, installs0, cpi0, installs1, cpi1]) => ({
      values: [country],
      baseline: { num: installs0 * cpi0, den: installs0 },
      current: { num: installs1 * cpi1, den: installs1 },
    })),
  };
}

const dims = { ...UA_DIMENSIONS };
const cpi = (table: LeafTable) => explain({ metric: 'installsCpi', kind: 'ratio' }, leafCsvSource(table));

function sumOf(explanation: Explanation, key: 'contribution' | 'mix' | 'rate'): number {
  return explanation.drivers.reduce((s, d) => s + (d[key] ?? 0), 0);
}

describe("explain: mix vs rate (Simpson's paradox)", () => {
  it('reports installs moving to an expensive country, every CPI flat, as mix and never as rate', async () => {
    const why = await cpi(
      cpiByCountry([
        ['US', 1000, 2, 600, 2],
        ['BR', 100, 10, 500, 10],
        ['DE', 300, 4, 300, 4],
        ['JP', 300, 6, 300, 6],
      ]),
    );
    expect(why.change).toBeGreaterThan(0);
    expect(why.drivers.map((d) => d.where.countryCode)).toEqual(expect.arrayContaining(['BR', 'US']));
    for (const d of why.drivers) {
      expect(Math.abs(d.rate ?? Number.NaN)).toBeLessThan(1e-12);
      expect(d.mix).toBeCloseTo(d.contribution, 12);
    }
    expect(sumOf(why, 'mix')).toBeCloseTo(why.change, 9);
    expect(why.diffuse).toBe(false);
  });

  it('reports shares flat and one country getting expensive as rate', async () => {
    const why = await cpi(
      cpiByCountry([
        ['US', 1000, 2, 1000, 2],
        ['BR', 200, 10, 200, 15],
        ['DE', 300, 4, 300, 4],
      ]),
    );
    expect(why.drivers).toHaveLength(1);
    const [br] = why.drivers;
    expect(br?.where).toEqual({ countryCode: 'BR' });
    expect(Math.abs(br?.mix ?? Number.NaN)).toBeLessThan(1e-12);
    expect(br?.rate).toBeCloseTo(why.change, 12);
    expect(br?.share).toBeCloseTo(1, 12);
    expect([br?.baseline, br?.current]).toEqual([10, 15]);
  });

  it('gives a country that had no installs in the baseline its whole effect as mix, with a note', async () => {
    const table = cpiByCountry([
      ['US', 1000, 2, 1000, 2],
      ['DE', 300, 4, 300, 4],
    ]);
    const withNew: LeafTable = {
      ...table,
      leaves: [...table.leaves, { values: ['BR'], baseline: { num: 0, den: 0 }, current: { num: 3000, den: 300 } }],
    };
    const why = await cpi(withNew);
    expect(why.drivers[0]?.where).toEqual({ countryCode: 'BR' });
    expect(why.drivers[0]?.rate).toBeCloseTo(0, 12);
    expect(why.drivers[0]?.baseline).toBe(0);
    expect(why.notes).toContain('countryCode=BR has a zero denominator in the baseline: its ratio there is shown as 0');
  });
});

describe('explain: planted causes in a synthetic leaf table', () => {
  it('finds a one-dimension plant first, and it stands out', async () => {
    const table = syntheticLeaves({
      dimensions: dims,
      kind: 'additive',
      seed: 7,
      noise: 0.03,
      plants: [{ where: { countryCode: 'BR' }, factor: 0.5 }],
    });
    const why = await explain({ metric: 'installs', kind: 'additive' }, leafCsvSource(table));
    expect(why.diffuse).toBe(false);
    expect(why.drivers[0]?.where).toEqual({ countryCode: 'BR' });
    expect(why.drivers[0]?.share).toBeGreaterThan(0.7);
    expect(formatExplanation(why).split('\n')[0]).toMatch(
      /^installs −\d+\.\d % \(.*\): countryCode=BR −[\d,]+ \(\d+ % of the change\)$/,
    );
  });

  it('finds a two-dimension plant first, as the combination and not its parents', async () => {
    const table = syntheticLeaves({
      dimensions: dims,
      kind: 'additive',
      seed: 11,
      noise: 0.03,
      plants: [{ where: { countryCode: 'BR', source: 'Vungle' }, factor: 0.4 }],
    });
    const why = await explain({ metric: 'installs', kind: 'additive' }, leafCsvSource(table));
    expect(why.diffuse).toBe(false);
    expect(why.drivers[0]?.where).toEqual({ countryCode: 'BR', source: 'Vungle' });
    // Disjoint drivers: neither BR nor Vungle is listed beside their combination.
    expect(why.drivers.slice(1).some((d) => d.where.countryCode === 'BR' || d.where.source === 'Vungle')).toBe(false);
    expect(why.queries).toBeLessThanOrEqual(24);
  });

  it('keeps a campaign that stands out before a larger country that merely drifted', async () => {
    const campaigns = Array.from({ length: 200 }, (_, i) => `camp${i}`);
    const countries = Array.from({ length: 10 }, (_, i) => `C${i}`);
    const table = syntheticLeaves({
      dimensions: { countryCode: countries, campaign: campaigns },
      kind: 'additive',
      seed: 3,
      noise: 0.01,
      plants: [
        { where: { countryCode: 'C1' }, factor: 0.92 },
        { where: { campaign: 'camp77' }, factor: 0.8 },
      ],
    });
    const source = leafCsvSource(table);
    const change = async (where: Record<string, string>) => {
      const [row] = await source.groups({ dimensions: [], filter: where });
      return (row?.current.num ?? 0) - (row?.baseline.num ?? 0);
    };
    // The drifting country moved the total more than the campaign did.
    expect(await change({ countryCode: 'C1' })).toBeLessThan(await change({ campaign: 'camp77' }));
    const why = await explain({ metric: 'installs', kind: 'additive' }, source);
    expect(why.drivers[0]?.where).toEqual({ campaign: 'camp77' });
  });

  it('finds a plant on installs in a CPI table as rate within iOS', async () => {
    const table = syntheticLeaves({
      dimensions: dims,
      kind: 'ratio',
      seed: 5,
      noise: 0.02,
      plants: [{ where: { platform: 'ios' }, factor: 0.6, on: 'den' }],
    });
    const why = await explain({ metric: 'installsCpi', kind: 'ratio' }, leafCsvSource(table));
    expect(why.change).toBeGreaterThan(0);
    expect(why.diffuse).toBe(false);
    const [ios] = why.drivers;
    expect(ios?.where).toEqual({ platform: 'ios' });
    expect(Math.abs(ios?.rate ?? 0)).toBeGreaterThan(Math.abs(ios?.mix ?? Number.NaN));
    expect((ios?.mix ?? 0) + (ios?.rate ?? 0)).toBeCloseTo(ios?.contribution ?? Number.NaN, 9);
  });

  it.each([1, 2, 3, 4, 5])('calls unplanted noise diffuse and names no driver (seed %i)', async (seed) => {
    const table = syntheticLeaves({ dimensions: dims, kind: 'additive', seed, noise: 0.05 });
    const why = await explain({ metric: 'installs', kind: 'additive' }, leafCsvSource(table));
    expect(why.diffuse).toBe(true);
    expect(formatExplanation(why).split('\n')[0]).toMatch(/: diffuse, no small set of segments explains it$/);
  });

  it('calls a change spread evenly over every segment diffuse', async () => {
    const table = syntheticLeaves({ dimensions: dims, kind: 'additive', seed: 3, noise: 0.02, drift: 0.84 });
    const why = await explain({ metric: 'installs', kind: 'additive' }, leafCsvSource(table));
    expect(why.change / why.baseline).toBeCloseTo(-0.16, 1);
    expect(why.diffuse).toBe(true);
  });
});

describe('explain: honest limits', () => {
  const flat = syntheticLeaves({
    dimensions: { countryCode: ['US', 'BR'], source: ['a', 'b'] },
    kind: 'additive',
    seed: 1,
    noise: 0,
  });

  it('says there is no change and names no driver', async () => {
    const why = await explain({ metric: 'installs', kind: 'additive' }, leafCsvSource(flat));
    expect(why).toMatchObject({ change: 0, drivers: [], diffuse: false, notes: ['no change: nothing to explain'] });
  });

  it('says there is too little volume below minVolume', async () => {
    const table = syntheticLeaves({
      dimensions: { countryCode: ['US', 'BR'] },
      kind: 'additive',
      seed: 1,
      noise: 0,
      plants: [{ where: { countryCode: 'BR' }, factor: 0.5 }],
    });
    const why = await explain({ metric: 'installs', kind: 'additive', minVolume: 1e9 }, leafCsvSource(table));
    expect(why.drivers).toEqual([]);
    expect(why.notes[0]).toMatch(/^too little volume \([\d.]+, below 1000000000\) to name a driver$/);
  });

  it('says a ratio with no denominator in the baseline is undefined', async () => {
    const why = await cpi(cpiByCountry([['US', 0, 2, 10, 2]]));
    expect(why.drivers).toEqual([]);
    expect(why.notes).toEqual(['the ratio is undefined in the baseline (its denominator is 0): nothing to explain']);
  });

  it('stops at the budget and says how much it explored', async () => {
    const table = syntheticLeaves({
      dimensions: dims,
      kind: 'additive',
      seed: 7,
      noise: 0.03,
      plants: [{ where: { countryCode: 'BR' }, factor: 0.5 }],
    });
    const why = await explain({ metric: 'installs', kind: 'additive', budget: 2 }, leafCsvSource(table));
    expect(why).toMatchObject({ queries: 2, partial: true, explored: { dimensions: 2, of: 4 } });
    expect(why.notes).toContain('partial: explored 2 of 4 dimensions (budget 2 queries)');
    expect(formatExplanation(why)).toContain('2 queries, 2 of 4 dimensions explored');
  });

  it('refuses an unknown dimension with a suggestion', async () => {
    await expect(
      explain({ metric: 'installs', kind: 'additive', dimensions: ['contryCode'] }, leafCsvSource(flat)),
    ).rejects.toThrow(
      new UserInputError(
        'EXPLAIN_DIMENSION_UNKNOWN',
        'explain: unknown dimension "contryCode". Did you mean "countryCode"? Known: countryCode, source.',
      ),
    );
  });

  it('refuses a budget below 1', async () => {
    await expect(explain({ metric: 'x', kind: 'additive', budget: 0 }, leafCsvSource(flat))).rejects.toThrow(
      /at least 1, not 0/,
    );
  });
});

describe('explain: the API rules', () => {
  it('never asks siteBundle with region, and drills through the dimensions it may', async () => {
    const table = syntheticLeaves({
      dimensions: { siteBundle: ['s1', 's2', 's3'], region: ['r1', 'r2', 'r3'], source: ['a', 'b', 'c'] },
      kind: 'additive',
      seed: 2,
      noise: 0.02,
      plants: [{ where: { siteBundle: 's2', source: 'b' }, factor: 0.3 }],
    });
    const inner = leafCsvSource(table);
    const asked: GroupQuery[] = [];
    const forbidden = (q: GroupQuery) => {
      const used = [...q.dimensions, ...Object.keys(q.filter)];
      return used.includes('siteBundle') && used.includes('region');
    };
    const source: GroupSource = {
      dimensions: inner.dimensions,
      allows: (q) => !forbidden(q),
      groups: (q) => {
        asked.push(q);
        return inner.groups(q);
      },
    };
    const why = await explain({ metric: 'installs', kind: 'additive' }, source);
    expect(asked.filter(forbidden)).toEqual([]);
    expect(why.drivers[0]?.where).toEqual({ siteBundle: 's2', source: 'b' });
  });
});
