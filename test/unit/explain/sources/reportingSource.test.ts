import { metricParts } from '../../../../src/explain/metricParts.js';
import { NameIds, NO_VALUE, segmentFilter } from '../../../../src/explain/sources/pivotFilter.js';
import { createReportingSource, mergePeriods } from '../../../../src/explain/sources/reportingSource.js';

describe('mergePeriods', () => {
  it('sums both periods per group, giving zeros to a group one period lacks, sorted by group', () => {
    const rows = mergePeriods(
      ['countryCode'],
      [
        { countryCode: 'US', spend: 10, installs: 2 },
        { countryCode: 'BR', spend: 4, installs: '1' },
      ],
      [
        { countryCode: 'US', spend: 8, installs: 2 },
        { countryCode: 'MX', spend: 3, installs: 1 },
      ],
      { num: 'spend', den: 'installs' },
    );
    expect(rows).toEqual([
      { where: { countryCode: 'BR' }, current: { num: 4, den: 1 }, baseline: { num: 0, den: 0 } },
      { where: { countryCode: 'MX' }, current: { num: 0, den: 0 }, baseline: { num: 3, den: 1 } },
      { where: { countryCode: 'US' }, current: { num: 10, den: 2 }, baseline: { num: 8, den: 2 } },
    ]);
  });

  it('joins rows of one name under several ids into one group, and remembers the ids', () => {
    const names = new NameIds();
    const rows = mergePeriods(
      ['source'],
      [
        { source: 'Vungle', sourceId: 7, installs: 5 },
        { source: 'Vungle', sourceId: 9, installs: 1 },
        { source: null, sourceId: null, installs: 2 },
      ],
      [{ source: 'Vungle', sourceId: '7', installs: 3 }],
      { num: 'installs' },
      names,
    );
    expect(rows).toEqual([
      { where: { source: NO_VALUE }, current: { num: 2 }, baseline: { num: 0 } },
      { where: { source: 'Vungle' }, current: { num: 6 }, baseline: { num: 3 } },
    ]);
    expect(names.of('source', 'Vungle')).toEqual([7, 9]);
    expect(names.of('source', NO_VALUE)).toBeUndefined();
  });
});

describe('segmentFilter', () => {
  const names = new NameIds();
  names.learn('source', 'Vungle', 7);
  names.learn('source', 'Vungle', 9);
  names.learn('campaign', 'Spring', 31);

  it('adds each segment as equals, ids for names, numbers for Int fields, on top of the base filter', () => {
    expect(segmentFilter({ appId: { equals: 101 } }, { countryCode: 'BR', campaign: 'Spring' }, names)).toEqual({
      filter: { appId: { equals: 101 }, countryCode: { equals: 'BR' }, campaignId: { equals: 31 } },
    });
    expect(segmentFilter({}, { source: 'Vungle', groupId: '12' }, names)).toEqual({
      filter: { sourceId: { isIn: [7, 9] }, groupId: { equals: 12 } },
    });
  });

  it('intersects with what the base filter says of the same field', () => {
    const base = { countryCode: { isIn: ['US', 'BR'] }, sourceId: { notEquals: 9 } };
    expect(segmentFilter(base, { countryCode: 'BR', source: 'Vungle' }, names)).toEqual({
      filter: { countryCode: { equals: 'BR' }, sourceId: { equals: 7 } },
    });
    expect(segmentFilter(base, { countryCode: 'MX' }, names)).toEqual({ empty: true });
  });

  it('refuses what cannot be filtered on, saying why', () => {
    expect(segmentFilter({}, { source: 'Unseen' }, names)).toEqual({
      refused: 'source "Unseen" has not been seen in a group-by yet, so its id is unknown',
    });
    expect(segmentFilter({}, { countryCode: NO_VALUE }, names)).toMatchObject({ refused: /no value/ });
    expect(segmentFilter({}, { deviceType: 'tablet' }, names)).toEqual({
      refused: 'the Reporting Service cannot filter on deviceType',
    });
    expect(segmentFilter({}, { groupId: 'twelve' }, names)).toEqual({ refused: 'groupId "twelve" is not an id' });
    expect(segmentFilter({}, { nonsense: 'x' }, names)).toEqual({ refused: 'unknown dimension "nonsense"' });
  });
});

describe('splits: a name that stands for several apps', () => {
  it('asks for the platform of an app name seen under two ids, and of no other', async () => {
    const rows = [
      { app: 'Stream Box', appId: 104, installs: 5 },
      { app: 'Stream Box', appId: 105, installs: 3 },
      { app: 'Tile Match', appId: 106, installs: 2 },
    ];
    const source = createReportingSource({
      client: { pivot: async () => ({ rows }) as never, runAsyncPivot: async () => undefined as never },
      parts: metricParts('installs'),
      current: { from: '2026-11-23', to: '2026-11-24' },
      baseline: { from: '2026-11-16', to: '2026-11-17' },
      now: () => new Date('2026-11-25T12:00:00Z'),
    });
    await source.groups({ dimensions: ['app'], filter: {} });
    expect(source.splits?.({ app: 'Stream Box' })).toEqual(['appPlatform']);
    expect(source.splits?.({ app: 'Tile Match' })).toEqual([]);
    expect(source.splits?.({ countryCode: 'US' })).toEqual([]);
  });
});

describe('splits: a name that stands for several apps on one platform too', () => {
  it('asks for the bundle once the platform is known, learning platforms from the app group-by', async () => {
    const rows = [
      { app: 'Merge Kingdom', appId: 101, appPlatform: 'IOS', installs: 5 },
      { app: 'Merge Kingdom', appId: 141, appPlatform: 'IOS', installs: 3 },
      { app: 'Merge Kingdom', appId: 102, appPlatform: 'ANDROID', installs: 2 },
    ];
    const asked: unknown[] = [];
    const source = createReportingSource({
      client: {
        pivot: async (request: unknown) => {
          asked.push(request);
          return { rows } as never;
        },
        runAsyncPivot: async () => undefined as never,
      },
      parts: metricParts('installs'),
      current: { from: '2026-11-23', to: '2026-11-24' },
      baseline: { from: '2026-11-16', to: '2026-11-17' },
      now: () => new Date('2026-11-25T12:00:00Z'),
    });
    await source.groups({ dimensions: ['app'], filter: {} });
    expect(asked[0]).toMatchObject({ dimensions: [{ name: 'app' }, { name: 'appId' }, { name: 'appPlatform' }] });
    expect(source.splits?.({ app: 'Merge Kingdom' })).toEqual(['appPlatform']);
    expect(source.splits?.({ app: 'Merge Kingdom', appPlatform: 'IOS' })).toEqual(['appBundle']);
    expect(source.splits?.({ app: 'Merge Kingdom', appPlatform: 'ANDROID' })).toEqual([]);
    expect(source.splits?.({ app: 'Merge Kingdom', appPlatform: 'IOS', appBundle: 'id1718576156' })).toEqual([]);
  });

  it('filters a bundle by its app id, within the app name’s ids', () => {
    const names = new NameIds();
    for (const id of [101, 102, 141]) names.learn('app', 'Merge Kingdom', id);
    names.learn('appBundle', 'id1718576156', 101);
    expect(segmentFilter({}, { app: 'Merge Kingdom', appPlatform: 'IOS', appBundle: 'id1718576156' }, names)).toEqual({
      filter: { appId: { equals: 101 }, appPlatform: { equals: 'IOS' } },
    });
  });
});
