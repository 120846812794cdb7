/** An incident's entity narrows its report's query by the filter that narrows the report: names by their ids. */
import {
  type AdhocAst,
  type CompiledQuery,
  compileQuery,
  entityQueryOf,
  parseQuery,
} from '../../../src/query/index.js';

const now = new Date('2026-11-20T12:00:00Z');
const definition = (compileQuery('installs by campaign, countryCode yesterday', { now }) as CompiledQuery).definition;

/** The where clause of a query text: field, operator and values. */
const where = (text: string) =>
  (parseQuery(text) as AdhocAst).where.map((c) => ({
    field: c.field.value,
    op: c.op,
    values: c.values.map((v) => v.value),
  }));

describe('entityQueryOf', () => {
  it('narrows by a campaign’s id (the service filters names by id), and the text compiles', () => {
    const text = entityQueryOf(definition, { campaignId: 1001, countryCode: 'BR' }) as string;
    expect(where(text)).toEqual([
      { field: 'campaignId', op: '=', values: [1001] },
      { field: 'countryCode', op: '=', values: ['BR'] },
    ]);
    expect(() => compileQuery(text, { now })).not.toThrow();
  });

  it('says a name with several ids as a list, keeps a value holding | whole, and the total is the whole query', () => {
    expect(where(entityQueryOf(definition, { campaignId: [7, 9] }) as string)).toEqual([
      { field: 'campaignId', op: 'in', values: [7, 9] },
    ]);
    expect(where(entityQueryOf(definition, { siteName: 'US | iOS | Summer' }) as string)).toEqual([
      { field: 'siteName', op: '=', values: ['US | iOS | Summer'] },
    ]);
    expect(where(entityQueryOf(definition, {}) as string)).toEqual([]);
  });

  it('replaces the query’s own condition on the same field', () => {
    const narrowed = (
      compileQuery('installs by countryCode yesterday where countryCode in (US, BR)', { now }) as CompiledQuery
    ).definition;
    expect(where(entityQueryOf(narrowed, { countryCode: 'BR' }) as string)).toEqual([
      { field: 'countryCode', op: '=', values: ['BR'] },
    ]);
  });
});
