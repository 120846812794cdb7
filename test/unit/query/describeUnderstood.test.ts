import { type CompiledQuery, compileQuery, describeUnderstood, QueryError } from '../../../src/query/index.js';

const now = new Date('2026-11-20T12:00:00Z');
const understood = (text: string, defaultTimeZone = 'UTC') =>
  describeUnderstood((compileQuery(text, { now, defaultTimeZone }) as CompiledQuery).definition, defaultTimeZone);

describe('describeUnderstood', () => {
  it.each([
    ['cpi by country yesterday', 'installsCpi by countryCode, yesterday (UTC)'],
    ['spend', 'spend, yesterday (UTC)'],
    ['click installs by day L7D', 'installs(attrTouch=CLICK) as clickInstalls by date:daily, last 7 days (UTC)'],
    ['top 5 campaigns by spend yesterday', 'spend by campaign, yesterday (UTC), top 5 by spend'],
    ['best 3 campaigns by cpi', 'installsCpi by campaign, yesterday (UTC), top 3 by installsCpi asc'],
    ['spend for US and BR last week', 'spend, last week (UTC), where countryCode in (US, BR)'],
    ['spend excluding US on ios', 'spend, yesterday (UTC), where countryCode != US and appPlatform = IOS'],
    ['spend by country WoW', 'spend by countryCode, last 7 days (UTC), vs same period last week'],
    ['spend DoD', 'spend, yesterday (UTC), vs previous period'],
    ['spend QTD', 'spend, quarter to date (UTC)'],
    ['spend having spend > 5 sort by spend asc', 'spend, yesterday (UTC), having spend > 5, sort by spend asc'],
    ['spend ctv and mobile', 'spend, yesterday (UTC), channel all'],
    ['spend tz America/Sao_Paulo', 'spend, yesterday (America/Sao_Paulo)'],
    ['postbacks app:101 keys:a,b revenue', 'postbacks app:101 keys:a,b track:events revenue, last 7 days (UTC)'],
    ['spend from 2026-11-01 to 2026-11-08', 'spend, 2026-11-01..2026-11-08 (UTC)'],
  ])('%j → %j', (text, line) => {
    expect(understood(text)).toBe(line);
  });

  it('names the default zone when the query names none', () => {
    expect(understood('spend', 'Europe/Berlin')).toBe('spend, yesterday (Europe/Berlin)');
  });

  it('is the description of the compiled ad-hoc definition', () => {
    const q = compileQuery('roas by source last 30 days', { now }) as CompiledQuery;
    expect(q.definition.description).toBe('eventsRoas by source, last 30 days (UTC)');
  });
});

describe('ranges', () => {
  it.each([
    ['spend QTD', 'quarter_to_date'],
    ['spend this year', 'year_to_date'],
    ['spend last quarter', 'last_quarter'],
  ])('%j stays relative: %s (a saved query or an export moves with the clock)', (text, range) => {
    const q = compileQuery(text, { now }) as CompiledQuery;
    expect(q.definition.query.range).toBe(range);
  });

  it('turns "since" into dates, ending at tomorrow in the zone', () => {
    const q = (text: string, zone: string) =>
      (compileQuery(text, { now, defaultTimeZone: zone }) as CompiledQuery).definition.query.range;
    expect(q('spend since 2026-11-15', 'UTC')).toBe('2026-11-15..2026-11-21');
    // 12:00 UTC is already the 21st at UTC+14.
    expect(q('spend since 2026-11-15', 'Pacific/Kiritimati')).toBe('2026-11-15..2026-11-22');
  });

  it('passes a quarter to a named report run as written', () => {
    expect(compileQuery('run daily-kpi QTD', { now })).toMatchObject({ range: 'quarter_to_date' });
  });

  it('says a since date in the future makes an empty range', () => {
    expect(() => compileQuery('spend since 2026-12-01', { now })).toThrow(QueryError);
  });
});

describe('phrasing errors', () => {
  it.each([
    ['top 5 by spend', 'say what to rank'],
    ['top 5 campaigns', 'say by which metric'],
    ['spend for', 'Expected a country'],
    ['spend over brazil', 'write a range'],
    ['spend vs tomorrow', 'Compare with "previous period" or "last week"'],
    ['spend this decade', 'After "this", write week, month, quarter or year'],
    ['spend campaign 1.5', 'campaign takes a campaign id (a whole number)'],
    ['spend for campaigns 1001 and x', 'Unexpected "x"'],
  ])('%j says %j', (text, message) => {
    expect(() => compileQuery(text, { now })).toThrow(message);
  });
});
