/** An incident's entity narrows its report's query by its parts: a name holding `|` stays one value. */
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
  it('narrows by the parts, a campaign named "US | iOS | Summer" kept whole', () => {
    const text = entityQueryOf(definition, [
      { dimension: 'campaign', value: 'US | iOS | Summer', id: 1001 },
      { dimension: 'countryCode', value: 'BR' },
    ]);
    expect(where(text as string)).toEqual([
      { field: 'campaign', op: '=', values: ['US | iOS | Summer'] },
      { field: 'countryCode', op: '=', values: ['BR'] },
    ]);
  });

  it('reads a key from metadata the same way, and the total as the whole query', () => {
    const text = entityQueryOf(definition, 'campaign=US | iOS | Summer|countryCode=BR');
    expect(where(text as string)).toEqual([
      { field: 'campaign', op: '=', values: ['US | iOS | Summer'] },
      { field: 'countryCode', op: '=', values: ['BR'] },
    ]);
    expect(where(entityQueryOf(definition, 'total') as string)).toEqual([]);
    expect(where(entityQueryOf(definition, []) as string)).toEqual([]);
  });
});
