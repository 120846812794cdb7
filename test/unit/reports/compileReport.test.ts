import {
  chooseMode,
  compileReport,
  estimateRows,
  parseCsvRows,
  type ReportDefinition,
  reportSchema,
  toAsyncRequest,
} from '../../../src/reports/index.js';

const now = new Date('2026-11-20T12:00:00Z');
const define = (input: unknown): ReportDefinition => reportSchema.parse(input);

describe('compileReport', () => {
  it('compiles every query field to the typed request', () => {
    const definition = define({
      title: 'All fields',
      query: {
        dimensions: ['COUNTRYCODE', { name: 'date', args: { granularity: 'daily' } }],
        metrics: ['spend', { name: 'installs', args: { attrtouch: 'click', hasCv: 'true' }, as: 'clickInstalls' }],
        filter: {
          appid: 101,
          countryCode: ['US', 'BR'],
          appPlatform: 'ios',
          campaignType: { notEquals: 'rtgt' },
          archived: false,
        },
        cleanup: { impressions: { greaterThan: 1000 }, spend: { lowerThan: '50.5' } },
        range: 'last_7_days',
        timezone: 'europe/berlin',
        cohort: { type: 'install', window: { amount: 7, period: 'days' } },
        quality: 'OP',
        channel: 'all',
        options: { removeZeroRows: true, priority: 3 },
      },
      present: { compare: 'previous_period' },
    });
    const compiled = compileReport(definition, { now });
    expect(compiled.request).toEqual({
      from: '2026-11-13T00:00:00+01:00',
      to: '2026-11-20T00:00:00+01:00',
      dimensions: [{ name: 'countryCode' }, { name: 'date', args: { granularity: 'DAILY' } }],
      metrics: [
        { name: 'spend' },
        { name: 'installs', args: { attrTouch: 'CLICK', hasCv: true }, alias: 'clickInstalls' },
      ],
      context: { sqlTimeZone: 'Europe/Berlin', priority: 3 },
      filter: {
        appId: { equals: 101 },
        countryCode: { isIn: ['US', 'BR'] },
        appPlatform: { equals: 'IOS' },
        campaignType: { notEquals: 'RTGT' },
        archived: false,
      },
      cleanup: { impressions: { greaterThan: '1000' }, spend: { lowerThan: 50.5 } },
      cohortType: 'INSTALL',
      cohortWindow: { amount: 7, period: 'DAYS' },
      qualityType: 'op',
      campaignChannel: 'ALL',
      options: { removeZeroRows: true },
    });
    expect(compiled.comparison?.request).toMatchObject({
      from: '2026-11-06T00:00:00+01:00',
      to: '2026-11-13T00:00:00+01:00',
    });
  });

  it('adds a date dimension for a granularity, first', () => {
    const compiled = compileReport(
      define({ title: 't', query: { metrics: ['spend'], dimensions: ['app'], granularity: 'WEEKLY' } }),
      { now },
    );
    expect(compiled.request?.dimensions).toEqual([{ name: 'date', args: { granularity: 'WEEKLY' } }, { name: 'app' }]);
  });

  it('uses the default zone, and a range override', () => {
    const compiled = compileReport(define({ title: 't', query: { metrics: ['spend'] } }), {
      now,
      defaultTimeZone: 'Asia/Tokyo',
      range: 'today',
    });
    expect([compiled.request?.from, compiled.request?.to]).toEqual([
      '2026-11-20T00:00:00+09:00',
      '2026-11-21T00:00:00+09:00',
    ]);
  });

  it('compiles postbacks without a pivot', () => {
    const compiled = compileReport(
      define({
        title: 't',
        query: { postbacks: { appId: 101, keys: ['conversion_value'], track: 'installs', includeRevenue: true } },
      }),
      { now },
    );
    expect(compiled.request).toBeUndefined();
    expect(compiled.postbacks).toEqual({
      from: '2026-11-19T00:00:00+00:00',
      to: '2026-11-20T00:00:00+00:00',
      track: 'INSTALLS',
      postbackKeys: ['conversion_value'],
      appId: 101,
      includeRevenue: true,
    });
  });
});

describe('chooseMode', () => {
  const base = { from: '2026-11-13T00:00:00Z', to: '2026-11-20T00:00:00Z', metrics: [{ name: 'spend' }] };
  const days = (n: number) => ({ ...base, from: new Date(Date.parse(base.to) - n * 86_400_000).toISOString() });

  it.each([
    ['explicit sync', { ...days(30), dimensions: [{ name: 'siteBundle' }] }, 'sync', 'sync'],
    ['explicit async', { ...base, dimensions: [] }, 'async', 'async'],
    ['a light request', { ...base, dimensions: [{ name: 'countryCode' }] }, 'auto', 'sync'],
    ['siteBundle over 7 days', { ...days(7), dimensions: [{ name: 'siteBundle' }] }, 'auto', 'sync'],
    ['siteBundle over 8 days', { ...days(8), dimensions: [{ name: 'siteBundle' }] }, 'auto', 'async'],
    [
      'hourly over 3 days',
      { ...days(3), dimensions: [{ name: 'date', args: { granularity: 'HOURLY' } }] },
      'auto',
      'sync',
    ],
    [
      'hourly over 4 days',
      { ...days(4), dimensions: [{ name: 'date', args: { granularity: 'HOURLY' } }] },
      'auto',
      'async',
    ],
    [
      'a big estimate',
      { ...days(30), dimensions: [{ name: 'city' }, { name: 'date' }, { name: 'campaign' }] },
      'auto',
      'async',
    ],
  ] as const)('%s → %s', (_name, request, mode, expected) => {
    expect(chooseMode(request, mode).mode).toBe(expected);
  });

  it('stays sync when arguments make the request impossible to run async', () => {
    const request = {
      ...days(30),
      dimensions: [{ name: 'siteBundle' }],
      metrics: [{ name: 'installs', args: { attrTouch: 'CLICK' } }],
    };
    expect(chooseMode(request, 'auto')).toMatchObject({ mode: 'sync', reason: expect.stringContaining('need sync') });
  });

  it('estimates rows from cardinalities and date buckets', () => {
    expect(
      estimateRows(
        { ...base, dimensions: [{ name: 'countryCode' }, { name: 'date', args: { granularity: 'DAILY' } }] },
        7,
      ),
    ).toBe(1400);
    expect(estimateRows({ ...base, dimensions: [{ name: 'appPlatform' }] }, 7)).toBe(2);
  });

  it('strips a date granularity for async and refuses arguments', () => {
    expect(
      toAsyncRequest({ ...base, dimensions: [{ name: 'date', args: { granularity: 'DAILY' } }] })?.dimensions,
    ).toEqual([{ name: 'date' }]);
    expect(toAsyncRequest({ ...base, dimensions: [], metrics: [{ name: 'spend', alias: 's' }] })).toBeUndefined();
  });
});

describe('parseCsvRows', () => {
  it('reads quoted fields, types metric cells and keeps huge Longs exact', () => {
    const columns = [
      { key: 'campaign', kind: 'dimension' as const, name: 'campaign', args: {} },
      { key: 'impressions', kind: 'metric' as const, name: 'impressions', args: {} },
      { key: 'spend', kind: 'metric' as const, name: 'spend', args: {} },
    ];
    const text = 'campaign,impressions,spend\r\n"A, ""big"" one\nlaunch",12,1.5\r\nB,123456789012345678901,\r\n';
    expect(parseCsvRows(text, columns)).toEqual([
      { campaign: 'A, "big" one\nlaunch', impressions: 12, spend: 1.5 },
      { campaign: 'B', impressions: '123456789012345678901', spend: null },
    ]);
  });

  it('reads cells by the header’s names, whatever their order', () => {
    const columns = [
      { key: 'campaign', kind: 'dimension' as const, name: 'campaign', args: {} },
      { key: 'spend', kind: 'metric' as const, name: 'spend', args: {} },
    ];
    expect(parseCsvRows('spend,campaign\r\n2.5,A\r\n', columns)).toEqual([{ campaign: 'A', spend: 2.5 }]);
  });
});
