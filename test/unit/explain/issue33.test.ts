/**
 * Issue 33's leaf cases, one fixture each under test/fixtures/explain/: what the search picks
 * (items 4–9) and what the words make people believe (items 10–11). Each failed before the change.
 */
import { readFileSync } from 'node:fs';
import { UserInputError } from '../../../src/core/index.js';
import {
  type ExplainRequest,
  explain,
  explanationJson,
  formatExplanation,
  type LeafTableOptions,
  leafCsvSource,
  parseLeafTable,
} from '../../../src/explain/index.js';
import { parseCsv } from '../../../src/reporting/index.js';

const fixture = (name: string, options: LeafTableOptions = {}) =>
  parseLeafTable(parseCsv(readFileSync(`test/fixtures/explain/${name}.csv`, 'utf8')), {
    name: `${name}.csv`,
    ...options,
  });

async function explainFixture(name: string, request: Omit<ExplainRequest, 'kind'>, options: LeafTableOptions = {}) {
  const table = fixture(name, options);
  return explain({ ...request, kind: table.kind }, leafCsvSource(table));
}

describe('item 4: one value of a small dimension', () => {
  it('names appPlatform=IOS first and not diffuse when it holds the whole spend change (spend is an amount)', async () => {
    const why = await explainFixture('small-dimension', { metric: 'spend', amounts: true });
    expect(why.drivers[0]?.where).toEqual({ appPlatform: 'IOS' });
    expect(why.diffuse).toBe(false);
  });

  it('lets a parent that moved as a whole beat its two-dimension child (source=AppLovin, not ANDROID · AppLovin)', async () => {
    const why = await explainFixture('parent-beats-child', { metric: 'installs', counts: true });
    expect(why.drivers.map((d) => d.where)).toEqual([{ source: 'AppLovin' }]);
    expect(why.diffuse).toBe(false);
  });
});

describe('two dimensions that nearly coincide (playable ads are nearly all 320x480)', () => {
  it('names source=AppLovin · adType=playable, not the 320x480 ads its drill reached first', async () => {
    const table = fixture('twin-dimensions');
    const asked: { dimensions: readonly string[]; filter: Readonly<Record<string, string>> }[] = [];
    const leaves = leafCsvSource(table);
    const source = {
      ...leaves,
      groups: (q: Parameters<typeof leaves.groups>[0]) => {
        asked.push(q);
        return leaves.groups(q);
      },
    };
    const why = await explain({ metric: 'installs', kind: table.kind, counts: true }, source);
    expect(why.drivers[0]?.where).toEqual({ source: 'AppLovin', adType: 'playable' });
    expect(why.diffuse).toBe(false);
    // The 320x480 ads were reached first; the playable split was tested at the same parent (AppLovin).
    expect(asked).toContainEqual({ dimensions: ['adSize'], filter: { source: 'AppLovin' } });
    expect(asked).toContainEqual({ dimensions: ['adType'], filter: { source: 'AppLovin' } });
  });
});

describe('drilling stops once the drivers explain most of the change', () => {
  it('drills only into AppLovin when AppLovin explains nearly all of it (no query on other segments)', async () => {
    const table = fixture('twin-dimensions');
    const filters: Readonly<Record<string, string>>[] = [];
    const leaves = leafCsvSource(table);
    const source = {
      ...leaves,
      groups: (q: Parameters<typeof leaves.groups>[0]) => {
        filters.push(q.filter);
        return leaves.groups(q);
      },
    };
    const why = await explain({ metric: 'installs', kind: table.kind, counts: true }, source);
    expect(why.drivers[0]?.share).toBeGreaterThan(0.8);
    const drilled = filters.filter((f) => Object.keys(f).length > 0);
    expect(drilled.length).toBeGreaterThan(0);
    expect(drilled.every((f) => f.source === 'AppLovin')).toBe(true);
  });
});

describe('item 5: a segment with spend and no installs', () => {
  it('stands out and is named for the CPI rise it holds, in words, and the note reads "in both periods"', async () => {
    const why = await explainFixture('zero-volume', { metric: 'installsCpi', counts: true });
    expect(why.diffuse).toBe(false);
    expect(why.drivers[0]?.where).toEqual({ countryCode: 'BR', source: 'Pangle' });
    const text = formatExplanation(why);
    expect(text).toContain(
      'installsCpi +12.0 % ($2.16 → $2.42): BR · Pangle has no installs in either period, yet its spend went $0 → $5,000 (+$0.256, 99 % of the change)',
    );
    expect(text).toContain('has a zero denominator in both periods');
  });
});

describe('item 6: a many-valued column (one ad per row)', () => {
  it('does not hide the cause at countryCode=BR · source=X', async () => {
    const why = await explainFixture('many-valued', { metric: 'installs' });
    expect(why.drivers[0]?.where).toEqual({ countryCode: 'BR', source: 'X' });
    expect(why.diffuse).toBe(false);
  });
});

describe('item 7: offsetting moves', () => {
  it('says "no net change: US +501 offset by BR −500"', async () => {
    const why = await explainFixture('offset', { metric: 'installs' });
    expect(why.offset).toBe(true);
    expect(formatExplanation(why)).toContain(
      'installs +0.0 % (3,800 → 3,801): no net change: countryCode=US +501 offset by countryCode=BR −500',
    );
  });

  it('compares at the data’s precision: a 1e-14 float difference is no change, never a share of 10^17 %', async () => {
    const why = await explainFixture('float-offset', { metric: 'spend' });
    expect(why.change).toBe(0);
    const text = formatExplanation(why);
    expect(text).toContain('no net change: campaign=B +10.01 offset by campaign=A −10.01');
    expect(text).not.toMatch(/\d{5,} %/);
  });
});

describe('item 8: --counts and both parts of a ratio', () => {
  it('reads which measure parts are counts and refuses fractional counts', () => {
    expect(fixture('zero-volume', { counts: ['den'], amounts: ['num'] }).noise).toEqual({
      num: 'amount',
      den: 'count',
    });
    const records = parseCsv('country,current,baseline\nBR,1.5,2\n');
    expect(() => parseLeafTable(records, { counts: ['num'] })).toThrow(
      'row 2, column current: 1.5 is not a whole number',
    );
  });
});

describe('item 9: bad leaves', () => {
  it('keeps drivers disjoint with dimension columns named constructor and toString', async () => {
    const why = await explainFixture('constructor-column', { metric: 'installs' });
    const sum = why.drivers.reduce((s, d) => s + d.contribution, 0);
    expect(sum).toBeCloseTo(why.change, 9);
    expect(why.drivers[0]?.where).toEqual({ constructor: 'a', toString: 'x' });
  });

  it('refuses a column named __proto__, 0x10, and a negative denominator, with the row and column', () => {
    expect(() => parseLeafTable(parseCsv('__proto__,current,baseline\na,1,2\n'))).toThrow('"__proto__"');
    expect(() => fixture('hex-number')).toThrow(
      'hex-number.csv: row 2, column current: "0x10" is not a decimal number.',
    );
    expect(() => fixture('negative-installs')).toThrow(UserInputError);
    expect(() => fixture('negative-installs')).toThrow('row 2, column current_den: -20 is negative');
  });
});

describe('item 10: mix and rate in the trade’s words', () => {
  const text = async (name: string) => formatExplanation(await explainFixture(name, { metric: 'installsCpi' }));

  it('Simpson: installs moving to dear BR, every CPI flat, reads as mix', async () => {
    expect((await text('simpson')).split('\n').slice(0, 4)).toEqual([
      'installsCpi +40.7 % ($4.06 → $5.71): more of the installs came from BR (10 % → 35 %), where CPI is $10 against $3.4 elsewhere (+$1.49, 90 % of the change)',
      'Drivers:',
      '  1. countryCode=BR +$1.49 (90 % of the change): more of the installs came from BR (10 % → 35 %), where CPI is $10 against $3.4 elsewhere',
      '  2. countryCode=US +$0.343 (21 % of the change): fewer of the installs came from US (60 % → 43 %), where CPI is $2 against $7.15 elsewhere',
    ]);
  });

  it('converse: every CPI rose, yet installs moved to the cheap US and CPI fell; the parts add up on screen', async () => {
    expect((await text('converse')).split('\n').slice(0, 4)).toEqual([
      'installsCpi −35.8 % ($4.8 → $3.08): fewer of the installs came from BR (35 % → 10 %), where CPI is $10 against $2 elsewhere (−$1.2, 70 % of the change)',
      'Drivers:',
      '  1. countryCode=BR −$1.2 (70 % of the change): fewer of the installs came from BR (35 % → 10 %), where CPI is $10 against $2 elsewhere',
      "  2. countryCode=US −$0.52 (30 % of the change): more of the installs came from US (65 % → 90 %), where CPI is $2 against $10 elsewhere (−$0.7), though US's CPI rose $2 → $2.2 (+$0.18)",
    ]);
  });

  it('mixed: BR got dearer and took more of the installs; both parts, rounded to add up', async () => {
    expect((await text('mixed')).split('\n')[0]).toBe(
      "installsCpi +64.3 % ($2.8 → $4.6): BR's CPI rose $10 → $15 (+$1) and more of the installs came from BR (10 % → 20 %), where CPI is $10 against $2 elsewhere (+$0.72): +$1.72, 96 % of the change",
    );
  });

  it('keeps the JSON contract and adds the words’ figures', async () => {
    const json = explanationJson(await explainFixture('simpson', { metric: 'installsCpi' })) as Record<string, unknown>;
    expect(Object.keys(json).slice(0, 8)).toEqual([
      'metric',
      'current',
      'baseline',
      'change',
      'diffuse',
      'queries',
      'partial',
      'drivers',
    ]);
    const [br] = json.drivers as Record<string, unknown>[];
    expect(br).toMatchObject({ where: { countryCode: 'BR' }, volumeShare: { baseline: 0.1 } });
    const volumeShare = br?.volumeShare as { current: number } | undefined;
    expect(volumeShare?.current).toBeCloseTo(0.35, 2);
  });
});

describe('item 11: words that do not mislead', () => {
  it('names an empty value (empty)', async () => {
    const text = formatExplanation(await explainFixture('empty-value', { metric: 'installs' }));
    expect(text).toContain('installs −5.5 % (1,100 → 1,040): source=(empty) −60 (100 % of the change)');
  });

  it('never shows ±0 for a small non-zero piece, and says "largest pieces" only when none stands out', () => {
    const base = {
      metric: 'installsCpi',
      current: 1.0001,
      baseline: 1,
      change: 0.0001,
      queries: 1,
      partial: false,
      explored: { dimensions: 1, of: 1 },
      notes: [],
    };
    const driver = (standsOut: boolean) => ({
      where: { countryCode: 'BR' },
      current: 1,
      baseline: 1,
      contribution: 0.000042,
      share: 0.42,
      mix: 0.00004,
      rate: 0.000002,
      standsOut,
    });
    const small = formatExplanation({ ...base, diffuse: true, drivers: [driver(true)] });
    expect(small).not.toContain('±0');
    expect(small).toContain('+0.000042');
    expect(small).toContain('rate +0.000002');
    expect(small).not.toContain('Largest pieces');
    expect(formatExplanation({ ...base, diffuse: true, drivers: [driver(false)] })).toContain(
      'Largest pieces (none stands out):',
    );
  });
});
