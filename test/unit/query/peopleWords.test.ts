import { applyFollowUp, type CompiledQuery, compileQuery, formatQuery, parseQuery } from '../../../src/query/index.js';

const options = { now: new Date('2026-11-20T12:00:00Z'), defaultTimeZone: 'UTC' };
const definitionOf = (text: string) => {
  const { title: _t, description: _d, ...rest } = (compileQuery(text, options) as CompiledQuery).definition;
  return rest;
};

describe('the words people use', () => {
  it.each([
    ['can u pull cpi by country yesterday pls', 'installsCpi by countryCode yesterday'],
    ['hey spend by country thx', 'spend by countryCode yesterday'],
    ['spend split by country', 'spend by countryCode'],
    ['spend broken down by os', 'spend by appPlatform'],
    ['spend since Nov 1', 'spend since 2026-11-01'],
    ['spend since 1st November', 'spend since 2026-11-01'],
    ['spend since Dec 1', 'spend since 2025-12-01'],
    ['spend since 11/16', 'spend since 2026-11-16'],
    ['spend from 13/11', 'spend since 2026-11-13'],
    ['spend since monday', 'spend since 2026-11-16'],
    ['spend since friday', 'spend since 2026-11-20'],
    ['spend on Nov 3', 'spend 2026-11-03'],
    ['spend Nov 1-15', 'spend 2026-11-01..2026-11-16'],
    ['spend from Nov 1 to Nov 15', 'spend 2026-11-01..2026-11-16'],
    ['spend this week so far', 'spend this_week'],
    ['cpi by campaign cheapest first', 'installsCpi by campaign sort by installsCpi asc'],
    ['spend cpi by campaign most expensive first', 'spend, installsCpi by campaign sort by installsCpi desc'],
    ['roas by source worst first', 'eventsRoas by source sort by eventsRoas asc'],
    ['cpi by source lowest first', 'installsCpi by source sort by installsCpi asc'],
    ['spend by campaign, only campaigns with more than 100 installs', 'spend by campaign having installs > 100'],
    ['cpi by publisher min 50 installs', 'installsCpi by siteName having installs >= 50'],
    ['spend by country under 10 clicks', 'spend by countryCode having clicks < 10'],
    ['spend by country, no US', 'spend by countryCode where countryCode != US'],
    ['spend by campaign as csv', 'spend by campaign csv'],
    ['“spend by country”', 'spend by countryCode'],
    ['spend last month vs last month', 'spend last_month vs previous period'],
    ['spend MoM', 'spend last_month vs previous period'],
    ['spend MTD vs last month', 'spend month_to_date vs last month'],
    ['spend MTD MoM', 'spend month_to_date vs last month'],
    ['spend MTD vs same period last month', 'spend month_to_date vs last month'],
    ['spend last 14 days same period last month', 'spend last_14_days vs last month'],
    ['top 5 publisher bundles by spend', 'spend by siteBundle top 5 by spend desc'],
    ['spend by app bundles', 'spend by appBundle'],
    ['spend for publisher com.pub0.app by country', 'spend by countryCode where siteBundle = "com.pub0.app"'],
    ['spend publisher com.pub0.app', 'spend where siteBundle = "com.pub0.app"'],
    ['spend publishers com.a.app and com.b.games', 'spend where siteBundle in ("com.a.app", "com.b.games")'],
    ['spend publisher bundle com.x.y by os', 'spend by appPlatform where siteBundle = "com.x.y"'],
    ['spend excluding publisher com.pub0.app', 'spend where siteBundle != "com.pub0.app"'],
  ])('reads %j as %j', (said, meant) => {
    expect(definitionOf(said)).toEqual(definitionOf(meant));
  });

  it.each([
    ['spend from 1/11', 'could be 11 January or 1 November; write Jan 11 or Nov 1'],
    ['spend since Nov 31', 'There is no day 31 in november'],
    ['spend cpi cpm by campaign cheapest first', "the query's cost metric, and it has 2"],
    ['installs by campaign cheapest first', 'this query has none'],
    ['spend by country, only campaigns with more than 100 installs', 'The query is not by campaign'],
    ['thx', 'The query is empty'],
  ])('refuses %j', (said, message) => {
    expect(() => compileQuery(said, options)).toThrow(message);
  });

  it('writes a day without a year back as it reads, and keeps since relative', () => {
    for (const text of [
      'spend since Nov 1',
      'spend since monday',
      'spend Nov 1-15',
      'spend on Nov 3',
      'cpi cheapest first',
    ])
      expect(formatQuery(parseQuery(formatQuery(parseQuery(text))))).toBe(formatQuery(parseQuery(text)));
    expect(formatQuery(parseQuery('spend since monday'))).toBe('spend since monday');
  });

  describe('taking a value out in a thread', () => {
    it('drops the filter whose only value it was', () => {
      expect(applyFollowUp('spend by campaign for US', 'drop US', options)).toMatchObject({
        kind: 'query',
        text: 'spend by campaign yesterday',
      });
      expect(applyFollowUp('spend by campaign for US', 'without US', options)).toMatchObject({
        kind: 'query',
        text: 'spend by campaign yesterday',
      });
    });
    it('takes it out of a list', () => {
      expect(applyFollowUp('spend for US and BR', 'drop US', options)).toMatchObject({
        text: 'spend yesterday where countryCode = BR',
      });
    });
    it('refuses "drop" of a value no filter holds, offering the exclusion', () => {
      expect(applyFollowUp('spend by campaign', 'drop US', options)).toMatchObject({
        kind: 'unknown',
        suggestions: ['excluding US'],
      });
    });
    it('excludes with excluding, and with without when no filter holds it', () => {
      expect(applyFollowUp('spend by campaign', 'without US', options)).toMatchObject({
        text: 'spend by campaign yesterday where countryCode != US',
      });
      expect(applyFollowUp('spend by campaign for US', 'excluding US', options)).toMatchObject({
        text: 'spend by campaign yesterday where countryCode != US',
      });
    });
  });

  it('reads follow-ups with fillers, dates, sort words and month comparisons', () => {
    expect(applyFollowUp('cpi by country yesterday', 'can u split it by os instead?', options)).toMatchObject({
      text: 'installsCpi by appPlatform yesterday',
    });
    expect(applyFollowUp('spend by campaign last 7 days', 'can i get this as a csv', options)).toMatchObject({
      csv: true,
    });
    expect(applyFollowUp('cpa by campaign this week', 'cheapest first pls', options)).toMatchObject({
      text: 'eventsCpa by campaign this_week sort by eventsCpa asc',
    });
    expect(applyFollowUp('spend by campaign last 7 days', 'since Nov 1', options)).toMatchObject({
      text: 'spend by campaign since Nov 1',
    });
    expect(applyFollowUp('spend last month', 'vs last month', options)).toMatchObject({
      text: 'spend last_month vs previous period',
    });
    expect(applyFollowUp('spend by campaign MTD', 'same period last month', options)).toMatchObject({
      text: 'spend by campaign month_to_date vs last month',
      understood: 'spend by campaign, month to date (UTC), vs same period last month',
      changed: 'vs same period last month (was none)',
    });
  });

  it('filters on a publisher bundle in a thread', () => {
    for (const reply of ['only publisher com.pub0.app', 'publisher com.pub0.app', 'for publisher com.pub0.app'])
      expect(applyFollowUp('cpi by publisher last 7 days', reply, options)).toMatchObject({
        text: 'installsCpi by siteName last_7_days where siteBundle = com.pub0.app',
      });
    expect(
      applyFollowUp('cpi by publisher where siteBundle = com.a.app', 'also publisher com.pub0.app', options),
    ).toMatchObject({ text: 'installsCpi by siteName yesterday where siteBundle in (com.a.app, com.pub0.app)' });
  });

  describe('rank words', () => {
    it.each([
      ['best 10 campaigns by roas', 'eventsRoas by campaign top 10 by eventsRoas desc'],
      ['worst 5 campaigns by cpi', 'installsCpi by campaign top 5 by installsCpi desc'],
      ['cheapest 5 campaigns by cpi', 'installsCpi by campaign top 5 by installsCpi asc'],
      ['most expensive 3 sources by cpi', 'installsCpi by source top 3 by installsCpi desc'],
      ['priciest 3 publishers by cpm last 7 days', 'cpm by siteName last_7_days top 3 by cpm desc'],
      ['cheapest 5 campaigns by spend', 'spend by campaign top 5 by spend asc'],
      ['cpi by campaign worst 5 by cpi', 'installsCpi by campaign top 5 by installsCpi desc'],
      ['cpi by campaign worst 5', 'installsCpi by campaign top 5 by installsCpi desc'],
      ['spend cpi by campaign cheapest 3', 'spend, installsCpi by campaign top 3 by installsCpi asc'],
    ])('reads %j as %j', (said, meant) => {
      expect(definitionOf(said)).toEqual(definitionOf(meant));
    });

    it.each([
      ['worst 5 by cpi', 'say what to rank: worst 5 campaigns by cpi or worst 5 sources by cpi'],
      ['top 5 by spend last 7 days', 'say what to rank: top 5 campaigns by spend'],
      ['cheapest 5 campaigns by installs', '"cheapest" ranks by a cost (cpi, cpa, cpc, cpm or spend)'],
      ['most expensive 3 sources by roas', 'eventsRoas is none'],
    ])('refuses %j', (said, message) => {
      expect(() => compileQuery(said, options)).toThrow(message);
    });

    it('ranks the parent’s rows in a thread', () => {
      const parent = 'cpi by campaign last 7 days';
      expect(applyFollowUp(parent, 'worst 5 by cpi', options)).toMatchObject({
        text: 'installsCpi by campaign last_7_days top 5 by installsCpi desc',
      });
      expect(applyFollowUp(parent, 'cheapest 5', options)).toMatchObject({
        text: 'installsCpi by campaign last_7_days top 5 by installsCpi asc',
      });
      expect(applyFollowUp(parent, 'most expensive 3 sources by cpi', options)).toMatchObject({
        text: 'installsCpi by source last_7_days top 3 by installsCpi desc',
      });
      expect(applyFollowUp(parent, 'best 10 campaigns by roas', options)).toMatchObject({
        text: 'installsCpi, eventsRoas by campaign last_7_days top 10 by eventsRoas desc',
      });
      expect(applyFollowUp('spend by campaign', 'cheapest 5 by cpi', options)).toMatchObject({
        text: 'spend, installsCpi by campaign yesterday top 5 by installsCpi asc',
      });
    });

    it('refuses a rank on one row, and a cheapest that is no cost, offering what would run', () => {
      expect(applyFollowUp('cpi last 7 days', 'worst 5 by cpi', options)).toMatchObject({
        kind: 'unknown',
        suggestions: ['worst 5 campaigns by cpi', 'worst 5 sources by cpi'],
      });
      expect(applyFollowUp('installs by campaign', 'cheapest 5 by installs', options)).toMatchObject({
        kind: 'unknown',
        suggestions: ['top 5 by installs', 'bottom 5 by installs'],
      });
    });
  });

  describe('a month comparison', () => {
    it('compares a month to date with the same days of the month before', () => {
      const compiled = compileQuery('spend MTD vs last month', options) as CompiledQuery;
      expect(compiled.definition.present.compare).toBe('same_period_last_month');
      expect(compiled.compiled.comparison?.range).toMatchObject({
        from: '2026-10-01T00:00:00+00:00',
        to: '2026-10-21T00:00:00+00:00',
        label: 'Same period last month (1–20 Oct 2026)',
      });
    });
    it('is the month before on last month, written as its previous period', () => {
      const compiled = compileQuery('spend last month MoM', options) as CompiledQuery;
      expect(compiled.definition.present.compare).toBe('previous_period');
      expect(formatQuery(parseQuery('spend MTD vs same period last month'))).toBe('spend month_to_date vs last month');
    });
  });
});
