import { entityOwners } from '../../../src/alerts/index.js';
import type { ReportOwners } from '../../../src/reports/index.js';

const OWNERS: ReportOwners = {
  campaign: { '1001': ['U0ANA0001'], '1002': ['U0BEN0002', 'S0GROWTH1'] },
  countryCode: { BR: ['S0LATAM01'], US: ['U0ANA0001'] },
  siteBundle: { 'com.a|b': ['U0PIPE001'] },
};

describe('entityOwners', () => {
  it.each<[string, ReportOwners | undefined, string, readonly string[], string[]]>([
    ['a mapped campaign', OWNERS, 'campaign=1001', [], ['U0ANA0001']],
    ['several owners, in the order written', OWNERS, 'campaign=1002', [], ['U0BEN0002', 'S0GROWTH1']],
    ['an unmapped value', OWNERS, 'campaign=9999', [], []],
    ['a dimension nobody maps', OWNERS, 'appPlatform=IOS', [], []],
    [
      'two dimensions mapped, in the map’s order',
      OWNERS,
      'countryCode=BR|campaign=1001',
      [],
      ['U0ANA0001', 'S0LATAM01'],
    ],
    ['the same person twice, once', OWNERS, 'campaign=1001|countryCode=US', [], ['U0ANA0001']],
    ['dimension names ignore case', OWNERS, 'CountryCode=BR', [], ['S0LATAM01']],
    ['values match exactly (case kept)', OWNERS, 'countryCode=br', [], []],
    ['a value holding |', OWNERS, 'siteBundle=com.a|b', [], ['U0PIPE001']],
    ['the totals row', OWNERS, 'total', [], []],
    ['no owners map', undefined, 'campaign=1001', [], []],
    ['an owner already in the rule’s mentions', OWNERS, 'campaign=1002', ['S0GROWTH1'], ['U0BEN0002']],
    ['a mention in Slack syntax is the same id', OWNERS, 'campaign=1001', ['<@U0ANA0001>'], []],
    ['a value that is a property of objects', OWNERS, 'campaign=constructor', [], []],
  ])('%s', (_name, owners, key, exclude, expected) => {
    expect(entityOwners(owners, key, exclude)).toEqual(expected);
  });
});
