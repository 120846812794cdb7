import {
  type CompiledQuery,
  compileQuery,
  formatQueryError,
  QueryError,
  type RunCommand,
} from '../../../src/query/index.js';

const now = new Date('2026-11-20T12:00:00Z');
const compile = (text: string) => compileQuery(text, { now }) as CompiledQuery;
const request = (text: string) => compile(text).compiled.request;

function errorOf(text: string): QueryError {
  try {
    compileQuery(text, { now });
  } catch (error) {
    if (error instanceof QueryError) return error;
    throw error;
  }
  throw new Error(`expected "${text}" to fail`);
}

/** The word the error points at. */
const pointed = (text: string) => {
  const e = errorOf(text);
  return text.slice(e.position, e.position + e.length);
};

describe('compileQuery', () => {
  it('compiles the simplest query with yesterday in UTC', () => {
    expect(request('spend installs installsCpi by countryCode yesterday')).toEqual({
      from: '2026-11-19T00:00:00+00:00',
      to: '2026-11-20T00:00:00+00:00',
      dimensions: [{ name: 'countryCode' }],
      metrics: [{ name: 'spend' }, { name: 'installs' }, { name: 'installsCpi' }],
      context: { sqlTimeZone: 'UTC' },
    });
  });

  it('compiles arguments, aliases, granularity, filters and top N', () => {
    const q = compile(
      'installs(attrTouch=CLICK) as clickInstalls, spend by campaign, date:daily last 14 days where appId=123 and countryCode in (US,BR) top 10 by spend',
    );
    expect(q.compiled.request).toMatchObject({
      from: '2026-11-06T00:00:00+00:00',
      to: '2026-11-20T00:00:00+00:00',
      dimensions: [{ name: 'campaign' }, { name: 'date', args: { granularity: 'DAILY' } }],
      metrics: [{ name: 'installs', args: { attrTouch: 'CLICK' }, alias: 'clickInstalls' }, { name: 'spend' }],
      filter: { appId: { equals: 123 }, countryCode: { isIn: ['US', 'BR'] } },
    });
    expect(q.definition.present).toMatchObject({ top: 10, sort: { by: 'spend', order: 'desc' } });
  });

  it('compiles having, a time zone and csv', () => {
    const q = compile(
      'impressions clicks ctr by siteBundle last 7 days having impressions > 10000 tz America/Sao_Paulo csv',
    );
    expect(q.csv).toBe(true);
    expect(q.compiled.request).toMatchObject({
      from: '2026-11-13T00:00:00-03:00',
      to: '2026-11-20T00:00:00-03:00',
      cleanup: { impressions: { greaterThan: '10000' } },
      context: { sqlTimeZone: 'America/Sao_Paulo' },
    });
  });

  it('ignores the case of names, arguments and values', () => {
    expect(
      request('SPEND Installs(ATTRTOUCH=click) AS ci BY COUNTRYCODE, Date:Daily where appplatform = ios'),
    ).toMatchObject({
      dimensions: [{ name: 'countryCode' }, { name: 'date', args: { granularity: 'DAILY' } }],
      metrics: [{ name: 'spend' }, { name: 'installs', args: { attrTouch: 'CLICK' }, alias: 'ci' }],
      filter: { appPlatform: { equals: 'IOS' } },
    });
  });

  it.each([
    ['spend by countryCode last week', '2026-11-09T00:00:00+00:00', '2026-11-16T00:00:00+00:00'],
    ['spend this week', '2026-11-16T00:00:00+00:00', '2026-11-21T00:00:00+00:00'],
    ['spend month to date', '2026-11-01T00:00:00+00:00', '2026-11-21T00:00:00+00:00'],
    ['spend last month', '2026-10-01T00:00:00+00:00', '2026-11-01T00:00:00+00:00'],
    ['spend last 2 weeks', '2026-11-06T00:00:00+00:00', '2026-11-20T00:00:00+00:00'],
    ['spend last 6 hours', '2026-11-20T06:00:00+00:00', '2026-11-20T12:00:00+00:00'],
    ['spend today', '2026-11-20T00:00:00+00:00', '2026-11-21T00:00:00+00:00'],
    ['spend last_3_days', '2026-11-17T00:00:00+00:00', '2026-11-20T00:00:00+00:00'],
    ['spend 2026-11-01..2026-11-08', '2026-11-01T00:00:00+00:00', '2026-11-08T00:00:00+00:00'],
    ['spend from 2026-11-01 to 2026-11-08', '2026-11-01T00:00:00+00:00', '2026-11-08T00:00:00+00:00'],
    ['spend on 2026-11-03', '2026-11-03T00:00:00+00:00', '2026-11-04T00:00:00+00:00'],
  ])('reads the range of %j', (text, from, to) => {
    expect(request(text)).toMatchObject({ from, to });
  });

  it('compiles comparisons, channels and modes', () => {
    const q = compile('impressions spend by campaign last 7 days channel all vs previous period async');
    expect(q.definition.mode).toBe('async');
    expect(q.compiled.request?.campaignChannel).toBe('ALL');
    expect(q.compiled.comparison?.request).toMatchObject({
      from: '2026-11-06T00:00:00+00:00',
      to: '2026-11-13T00:00:00+00:00',
    });
    expect(compile('spend ctv').compiled.request?.campaignChannel).toBe('CTV');
    expect(compile('spend compare last week').definition.present.compare).toBe('same_period_last_week');
  });

  it('recognises run and postbacks commands', () => {
    expect(compileQuery('run daily-kpi last_7_days', { now })).toMatchObject({
      kind: 'run',
      report: { value: 'daily-kpi' },
      range: 'last_7_days',
    } satisfies Partial<RunCommand> | object);
    const p = compile('postbacks app:101 keys:conversion_value,country track:installs revenue last 3 days');
    expect(p.kind).toBe('postbacks');
    expect(p.compiled.postbacks).toMatchObject({
      appId: 101,
      postbackKeys: ['conversion_value', 'country'],
      track: 'INSTALLS',
      includeRevenue: true,
    });
  });
});

describe('query errors', () => {
  it.each([
    ['instals spend by countryCode', 'instals', 'Did you mean "installs"?'],
    ['spend by contryCode', 'contryCode', 'Did you mean "countryCode"'],
    ['installs(atrTouch=CLICK)', 'atrTouch', 'Did you mean "attrTouch"'],
    ['installs(attrTouch=CLIK)', 'CLIK', 'Did you mean "CLICK"'],
    ['spend by date:dayly', 'dayly', 'Did you mean "DAILY"'],
    ['spend where contryCode = US', 'contryCode', 'Did you mean "countryCode"'],
    ['spend where appId = abc', 'abc', 'whole number'],
    ['spend having spnd > 3', 'spnd', 'Did you mean "spend"?'],
    ['spend having installs > 2.5', '2.5', 'whole number'],
    ['spend tz America/Sao_Pablo', 'America/Sao_Pablo', 'Did you mean "America/Sao_Paulo"'],
    ['spend last 7 dayz', 'dayz', 'days'],
    ['spend yesterday yesterday', 'yesterday', 'already has a range'],
    ['spend by countryCode wher appId = 1', 'wher', 'Did you mean "where"?'],
    ['spend installs installs', 'installs', 'appears twice'],
    ['spend by siteBundle, city', 'city', 'cannot be queried together'],
    ['spend top 0', '0', 'between 1 and 10000'],
    ['spend installs sort by instals', 'instals', 'Did you mean "installs"'],
    ['spend by campaignId channel ctv', 'campaignId', 'campaignIdCtvNormalized'],
    ['spend "unclosed', '"', 'never closed'],
    ['spend 2026-02-30', '2026-02-30', 'not a date'],
  ])('%j points at %j', (text, word, message) => {
    const e = errorOf(text);
    expect(text.slice(e.position, e.position + e.length)).toBe(word);
    expect(e.message).toContain(message);
    expect(e).toBeInstanceOf(QueryError);
    expect(e.code).toBe('QUERY_INVALID');
  });

  it('points past the end when something is missing', () => {
    const text = 'spend by';
    const e = errorOf(text);
    expect(e.position).toBe(text.length);
    expect(e.message).toContain('at least one dimension');
  });

  it('says the query is empty', () => {
    expect(errorOf('   ').message).toMatch(/empty/);
  });

  it('suggests a range word for a misspelled range', () => {
    expect(pointed('spend by countryCode yesteday')).toBe('yesteday');
    expect(errorOf('spend by countryCode yesteday').suggestions).toContain('yesterday');
  });

  it('draws a caret under the offending word', () => {
    const text = 'instals spend by countryCode';
    expect(formatQueryError(text, errorOf(text))).toBe(
      ['Unknown metric "instals". Did you mean "installs"?', '  instals spend by countryCode', '  ^^^^^^^'].join('\n'),
    );
  });

  it('keeps the caret under the word in a long query', () => {
    const text = `${'spend '.repeat(40)}by nope`;
    const lines = formatQueryError(text, errorOf(text), 60).split('\n');
    const caret = lines[2]?.indexOf('^') ?? -1;
    expect(lines[1]?.slice(caret, caret + 4)).toBe('nope');
  });
});
