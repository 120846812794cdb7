import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { parse } from 'yaml';
import {
  type AdhocAst,
  type Compare,
  type CompiledQuery,
  type ConditionAst,
  compileQuery,
  defaultGlossary,
  type FieldAst,
  formatQuery,
  parseQuery,
  parseWorkspaceGlossary,
  QueryError,
  type QueryOptions,
  queryTextOf,
} from '../../../src/query/index.js';
import { compileReport, loadReports } from '../../../src/reports/index.js';

const now = new Date('2026-11-20T12:00:00Z');
const at = <T>(value: T) => ({ value, start: 0, end: 0 });
/** The AST without its spans: what the text says, not where. */
const shape = (ast: unknown): unknown =>
  JSON.parse(JSON.stringify(ast, (k, v) => (k === 'start' || k === 'end' || k === 'bySpan' ? undefined : v)));

const field = (name: string, extra: Partial<FieldAst> = {}): FieldAst => ({
  name: at(name),
  args: [],
  ...extra,
  start: 0,
  end: 0,
});

const metricArb: fc.Arbitrary<FieldAst> = fc.oneof(
  fc
    .constantFrom('spend', 'installs', 'installsCpi', 'clicks', 'cpi', 'eventsRoas', 'cost per install')
    .map((n) => field(n)),
  fc
    .constantFrom('clickInstalls', 'x_1')
    .map((alias) => field('installs', { args: [{ name: at('attrTouch'), value: at('CLICK') }], alias: at(alias) })),
  fc.constant(field('events', { args: [{ name: at('eventId'), value: at(1014) }] })),
);
const dimensionArb: fc.Arbitrary<FieldAst> = fc.oneof(
  fc.constantFrom('countryCode', 'source', 'campaign', 'country', 'day of week').map((n) => field(n)),
  fc.constantFrom('daily', 'hourly', 'weekly').map((g) => field('date', { granularity: at(g) })),
);
const scalarArb = fc.oneof(
  fc.constantFrom('US', 'BR', 'IOS', 'Word Garden', '1001', 'a"b', 'x..y'),
  fc.integer({ min: -5, max: 99_999 }),
);
const conditionArb: fc.Arbitrary<ConditionAst> = fc
  .tuple(
    fc.constantFrom('countryCode', 'appPlatform', 'campaignId', 'siteName', 'country code'),
    fc.constantFrom<ConditionAst['op']>('=', '!=', 'in', 'not in'),
    fc.array(scalarArb, { minLength: 1, maxLength: 3 }),
  )
  .map(([f, op, values]) => ({
    field: at(f),
    op,
    values: (op === '=' || op === '!=' ? values.slice(0, 1) : values).map(at),
    start: 0,
    end: 0,
  }));
const rangeArb = fc.constantFrom<string | { from: string; to: string }>(
  'yesterday',
  'today',
  'last_7_days',
  'last_24_hours',
  'month_to_date',
  'quarter_to_date',
  'last_quarter',
  'since:2026-11-01',
  '2026-11-03',
  { from: '2026-11-01', to: '2026-11-08' },
);

/** ASTs in the form the parser writes for canonical text: every optional clause, any order of values. */
const adhocArb: fc.Arbitrary<AdhocAst> = fc
  .record(
    {
      metrics: fc.array(metricArb, { minLength: 1, maxLength: 3 }),
      dimensions: fc.array(dimensionArb, { maxLength: 3 }),
      range: rangeArb,
      where: fc.array(conditionArb, { maxLength: 3 }),
      having: fc.array(
        fc.record({
          metric: fc.constantFrom('impressions', 'spend').map(at),
          op: fc.constantFrom<'>' | '>=' | '<' | '<='>('>', '>=', '<', '<='),
          value: fc.constantFrom(10, 1.5, 10_000).map(at),
          start: fc.constant(0),
          end: fc.constant(0),
        }),
        { maxLength: 2 },
      ),
      top: fc.integer({ min: 1, max: 10_000 }).map(at),
      sort: fc.record({ key: fc.constantFrom('spend', 'installs', 'cpi').map(at), desc: fc.boolean() }),
      timezone: fc.constantFrom('America/Sao_Paulo', 'UTC', 'Etc/GMT+3').map(at),
      csv: fc.boolean(),
      mode: fc.constantFrom<'sync' | 'async'>('sync', 'async'),
      channel: fc.constantFrom<'mobile' | 'ctv' | 'all'>('mobile', 'ctv', 'all').map(at),
      compare: fc.constantFrom<Compare>('previous_period', 'same_period_last_week', 'same_period_last_month').map(at),
    },
    { requiredKeys: ['metrics', 'dimensions', 'where', 'having', 'csv'] },
  )
  .map((r) => ({ kind: 'adhoc' as const, ...r, range: r.range === undefined ? undefined : at(r.range) }))
  .map((ast) => shape(ast) as AdhocAst);

describe('formatQuery', () => {
  it('writes ASTs that the parser reads back identically (spans aside)', () => {
    fc.assert(
      fc.property(adhocArb, (ast) => {
        const text = formatQuery(ast);
        expect(shape(parseQuery(text))).toEqual(shape(ast));
      }),
      { numRuns: 1000 },
    );
  });

  it.each([
    ['top 5 campaigns by spend yesterday', 'spend by campaigns yesterday top 5 by spend desc'],
    ['best 3 exchanges by cpi L7D', 'cpi by exchanges last_7_days top 3 by cpi asc'],
    ['worst 3 exchanges by roas', 'roas by exchanges top 3 by roas asc'],
    ['spend by campaign bottom 5', 'spend by campaign top 5 by spend asc'],
    ['spend by country WoW', 'spend by country last_7_days vs last week'],
    ['installs DoD', 'installs yesterday vs previous period'],
    ['spend for US and Brazil on iOS', 'spend where countryCode in (US, BR) and appPlatform = IOS'],
    ['spend since 2026-11-01', 'spend since 2026-11-01'],
    ['run daily-kpi last 30 days', 'run daily-kpi last_30_days'],
    [
      'postbacks app:101 keys:conversion_value,country track:installs revenue last 3 days',
      'postbacks app:101 keys:conversion_value,country track:installs revenue last_3_days',
    ],
  ])('writes %j in canonical clauses: %j', (typed, canonical) => {
    expect(formatQuery(parseQuery(typed))).toBe(canonical);
  });

  it('writes every question of the phrasings corpus as text that compiles to the same definition', () => {
    const workspace = parseWorkspaceGlossary(readFileSync('reports/glossary.yaml', 'utf8'), 'reports/glossary.yaml');
    const options: QueryOptions = { now, glossary: defaultGlossary().with(workspace.terms) };
    const corpus = parse(readFileSync('test/fixtures/phrasings.yaml', 'utf8')) as Array<{ q: string }>;
    const definition = (text: string) => {
      const { title: _t, description: _d, ...rest } = (compileQuery(text, options) as CompiledQuery).definition;
      return rest;
    };
    let compared = 0;
    for (const { q } of corpus) {
      let expected: unknown;
      try {
        expected = definition(q);
      } catch (error) {
        if (error instanceof QueryError) continue;
        throw error;
      }
      const text = formatQuery(parseQuery(q, options.glossary), options.glossary);
      expect({ q, text, definition: definition(text) }).toEqual({ q, text, definition: expected });
      compared++;
    }
    expect(compared).toBeGreaterThan(150);
  });
});

describe('queryTextOf', () => {
  it('writes the ad-hoc report definitions of reports/ as queries that send the same request', async () => {
    const { reports } = await loadReports('reports', { now });
    let written = 0;
    for (const { id, definition } of reports) {
      const text = queryTextOf(definition);
      if (text === undefined) continue;
      const compiled = compileQuery(text, { now }) as CompiledQuery;
      expect({ id, text, request: compiled.compiled.request }).toEqual({
        id,
        text,
        request: compileReport(definition, { now }).request,
      });
      written++;
    }
    expect(written).toBeGreaterThan(0);
  });

  it('says undefined for what a query line cannot say (postbacks)', () => {
    const postbacks = compileQuery('postbacks app:101 keys:a,b', { now }) as CompiledQuery;
    expect(queryTextOf(postbacks.definition)).toBeUndefined();
  });
});
