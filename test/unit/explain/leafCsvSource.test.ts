import { UserInputError } from '../../../src/core/index.js';
import { leafCsvSource, parseLeafTable } from '../../../src/explain/index.js';
import { parseCsv } from '../../../src/reporting/index.js';

const read = (text: string, dimensions?: string[]) =>
  parseLeafTable(parseCsv(text), { name: 'leaves.csv', ...(dimensions ? { dimensions } : {}) });

describe('parseLeafTable', () => {
  it('reads an additive table; every non-numeric column is a dimension, numeric ones are left out', () => {
    const table = read('countryCode,source,campaignId,current,baseline\nBR,Vungle,17,10,20\nUS,"Unity, Inc",18,5,5\n');
    expect(table.kind).toBe('additive');
    expect(table.dimensions).toEqual(['countryCode', 'source']);
    expect(table.ignored).toEqual(['campaignId']);
    expect(table.leaves[1]).toEqual({ values: ['US', 'Unity, Inc'], current: { num: 5 }, baseline: { num: 5 } });
  });

  it('reads a ratio table and takes numeric columns as dimensions when named', () => {
    const table = read(
      'campaignId,current_num,current_den,baseline_num,baseline_den\n17,100,10,90,10\n18,50,0,40,4\n',
      ['campaignId'],
    );
    expect(table.kind).toBe('ratio');
    expect(table.leaves[1]).toEqual({ values: ['18'], current: { num: 50, den: 0 }, baseline: { num: 40, den: 4 } });
  });

  it.each([
    ['', 'leaves.csv: is empty; expected a header row.'],
    ['country,current,baseline\n', 'leaves.csv: has a header but no leaf rows.'],
    ['country,current\nBR,1\n', 'leaves.csv: row 1: an additive metric needs current,baseline; missing baseline.'],
    [
      'country,current_num,current_den,baseline_num\nBR,1,1,1\n',
      'leaves.csv: row 1: a ratio needs current_num,current_den,baseline_num,baseline_den; missing baseline_den.',
    ],
    [
      'country,clicks\nBR,1\n',
      'leaves.csv: row 1: needs columns current,baseline (additive) or current_num,current_den,baseline_num,baseline_den (ratio).',
    ],
    ['country,current,baseline\nBR,1,2\nUS,3\n', 'leaves.csv: row 3 has 2 fields; the header has 3.'],
    [
      'country,current,baseline\nBR,1,2\nUS,three,4\n',
      'leaves.csv: row 3, column current: "three" is not a decimal number.',
    ],
    ['country,current,baseline\nBR,,2\n', 'leaves.csv: row 2, column current: "" is not a decimal number.'],
    ['country,country,current,baseline\nBR,BR,1,2\n', 'leaves.csv: row 1: column "country" appears twice.'],
    [
      'n,current,baseline\n1,1,2\n',
      'leaves.csv: has no dimension columns (text columns besides the measures); name some with --dimensions.',
    ],
  ])('refuses %j with a message naming the row', (text, message) => {
    expect(() => read(text)).toThrow(new UserInputError('LEAVES_CSV_INVALID', message));
  });

  it('refuses an unknown --dimensions column with a suggestion, and a measure as a dimension', () => {
    expect(() => read('countryCode,current,baseline\nBR,1,2\n', ['contryCode'])).toThrow(
      'leaves.csv: no column "contryCode". Did you mean "countryCode"? Columns: countryCode, current, baseline.',
    );
    expect(() => read('countryCode,current,baseline\nBR,1,2\n', ['current'])).toThrow(
      'leaves.csv: "current" is a measure column, not a dimension.',
    );
  });
});

describe('leafCsvSource', () => {
  const table = read(
    'country,source,platform,current_num,current_den,baseline_num,baseline_den\n' +
      'BR,Vungle,ios,10,1,20,2\nBR,Unity,ios,30,3,40,4\nBR,Vungle,android,5,1,6,1\nUS,Vungle,ios,7,7,8,8\n',
  );

  it('aggregates the leaves of a filtered group-by, both periods', async () => {
    const rows = await leafCsvSource(table).groups({ dimensions: ['source'], filter: { country: 'BR' } });
    expect([...rows].sort((a, b) => (a.where.source as string).localeCompare(b.where.source as string))).toEqual([
      { where: { source: 'Unity' }, current: { num: 30, den: 3 }, baseline: { num: 40, den: 4 } },
      { where: { source: 'Vungle' }, current: { num: 15, den: 2 }, baseline: { num: 26, den: 3 } },
    ]);
  });

  it('answers the whole with no dimensions, and allows only its own dimensions', async () => {
    const source = leafCsvSource(table);
    expect(await source.groups({ dimensions: [], filter: {} })).toEqual([
      { where: {}, current: { num: 52, den: 12 }, baseline: { num: 74, den: 15 } },
    ]);
    expect(source.allows({ dimensions: ['country', 'platform'], filter: { source: 'Unity' } })).toBe(true);
    expect(source.allows({ dimensions: ['campaign'], filter: {} })).toBe(false);
  });
});
