import { parse } from 'graphql';
import {
  compileAsyncPivots,
  compileCreateAsyncPivot,
  compilePivot,
  compilePostbackShare,
  type PivotRequest,
} from '../../../src/reporting/index.js';

const base: PivotRequest = {
  from: '2026-11-13',
  to: '2026-11-20',
  dimensions: [{ name: 'date', args: { granularity: 'DAILY' } }, { name: 'countryCode' }],
  metrics: [
    { name: 'spend' },
    { name: 'installs' },
    { name: 'installs', args: { attrTouch: 'CLICK' }, alias: 'clickInstalls' },
    { name: 'installs', args: { attrSource: 'SKAD' }, alias: 'skadInstalls' },
  ],
};

describe('compilePivot', () => {
  it('compiles one valid GraphQL document with results and totals', () => {
    const { document } = compilePivot(base);
    expect(() => parse(document)).not.toThrow();
    expect(document).toContain('results {');
    expect(document).toContain('totals {');
    expect(document).toContain('clickInstalls: installs(attrTouch: $m2_attrTouch)');
    expect(document).toContain('skadInstalls: installs(attrSource: $m3_attrSource)');
    expect(document).toContain('date(granularity: $d0_granularity)');
  });

  it('types every variable from the catalog', () => {
    const { document, variables } = compilePivot(base);
    expect(document).toContain('$from: DateTime!');
    expect(document).toContain('$m2_attrTouch: AttrTouch!');
    expect(document).toContain('$d0_granularity: Granularity');
    expect(variables).toMatchObject({ from: '2026-11-13', m2_attrTouch: 'CLICK', d0_granularity: 'DAILY' });
  });

  it('describes every output column with its catalog name and key', () => {
    const { columns } = compilePivot(base);
    expect(columns.map((c) => [c.key, c.kind, c.name])).toEqual([
      ['date', 'dimension', 'date'],
      ['countryCode', 'dimension', 'countryCode'],
      ['spend', 'metric', 'spend'],
      ['installs', 'metric', 'installs'],
      ['clickInstalls', 'metric', 'installs'],
      ['skadInstalls', 'metric', 'installs'],
    ]);
  });

  it('keeps user-supplied strings out of the document text', () => {
    const hostile = '"}) { results { spend } } } mutation { createAsyncPivot(Input: {}) { asyncPivot { id } } } #';
    const { document, variables } = compilePivot({
      ...base,
      filter: { countryName: { equals: hostile } },
      context: { sqlTimeZone: hostile },
    });
    expect(document).not.toContain(hostile);
    expect(document).not.toContain('mutation');
    expect(variables.filter).toEqual({ countryName: { equals: hostile } });
    expect(parse(document).definitions).toHaveLength(1);
  });

  it('sends Long cleanup thresholds as exact strings and Float ones as numbers', () => {
    const { variables } = compilePivot({
      ...base,
      cleanup: { impressions: { greaterThan: 12345678901234567890n }, spend: { greaterOrEqualThan: '10.5' } },
    });
    expect(variables.cleanup).toEqual({
      impressions: { greaterThan: '12345678901234567890' },
      spend: { greaterOrEqualThan: 10.5 },
    });
  });

  it('passes only the pivot arguments that are set', () => {
    const { document } = compilePivot({ ...base, campaignChannel: 'ALL', options: { removeZeroRows: true } });
    expect(document).toContain('campaignChannel: $campaignChannel');
    expect(document).toContain('options: $options');
    expect(document).not.toContain('appendCtvData');
    expect(document).not.toContain('cohortType');
  });

  it('omits totals when asked to', () => {
    expect(compilePivot({ ...base, totals: false }).document).not.toContain('totals');
  });
});

describe('the other operations', () => {
  it('compiles createAsyncPivot with plain names under the capital-I Input argument', () => {
    const { document, variables } = compileCreateAsyncPivot({
      from: '2026-11-13',
      to: '2026-11-20',
      dimensions: [{ name: 'siteBundle' }],
      metrics: [{ name: 'impressions' }, { name: 'spend' }],
      qualityType: 'op',
      cleanup: { impressions: { greaterThan: 1000 } },
    });
    expect(() => parse(document)).not.toThrow();
    expect(document).toContain('createAsyncPivot(Input: $input)');
    expect(variables.input).toEqual({
      from: '2026-11-13',
      to: '2026-11-20',
      dimensions: ['siteBundle'],
      metrics: ['impressions', 'spend'],
      quality_type: 'op',
      cleanup: { impressions: { greaterThan: '1000' } },
    });
  });

  it('polls many jobs in one asyncPivots request, or lists all without ids', () => {
    expect(compileAsyncPivots(['a', 'b']).variables).toEqual({ pivotIds: ['a', 'b'] });
    expect(compileAsyncPivots().variables).toEqual({});
    expect(() => parse(compileAsyncPivots().document)).not.toThrow();
  });

  it('always filters postbackShare by appId.equals', () => {
    const { document, variables } = compilePostbackShare({
      from: '2026-11-13',
      to: '2026-11-20',
      track: 'EVENTS',
      postbackKeys: ['event_name', 'currency'],
      appId: 42,
      includeRevenue: true,
    });
    expect(() => parse(document)).not.toThrow();
    expect(variables.filter).toEqual({ appId: { equals: 42 } });
    expect(document).toContain('includeRevenue: $includeRevenue');
    expect(document).not.toContain('organic');
  });
});
