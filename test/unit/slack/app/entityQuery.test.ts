/**
 * An alert's entity as a query (a follow-up under an alert parent, a watched row): text dimensions
 * by value, names by their ids (looked up with one pivot when the entity does not carry them), a
 * name holding `|` kept whole, and what cannot be narrowed refused with why.
 */
import { describe, expect, it } from '@jest/globals';
import { type CompiledQuery, compileQuery } from '../../../../src/query/index.js';
import type { PivotRequest, PivotRow } from '../../../../src/reporting/index.js';
import { entityQuery, partsOf } from '../../../../src/slack/app/entityQuery.js';

const now = new Date('2026-11-20T12:00:00Z');
const definition = (compileQuery('installs by campaign, countryCode yesterday', { now }) as CompiledQuery).definition;

/** A Reporting client that answers every pivot with `rows`, and remembers what it was asked. */
function client(rows: PivotRow[]) {
  const asked: PivotRequest[] = [];
  return {
    asked,
    pivot: async (request: PivotRequest) => {
      asked.push(request);
      return { rows, totals: undefined } as never;
    },
  };
}

const deps = (c: ReturnType<typeof client>) => ({ client: c, now, defaultTimeZone: 'UTC' });

describe('partsOf', () => {
  it('reads a key with a | inside a name, and gives a name the id its sibling part holds', () => {
    expect(partsOf('campaign=US | iOS | Summer|countryCode=BR')).toEqual([
      { dimension: 'campaign', value: 'US | iOS | Summer' },
      { dimension: 'countryCode', value: 'BR' },
    ]);
    expect(partsOf('campaign=Summer|campaignId=1001')[0]).toEqual({ dimension: 'campaign', value: 'Summer', id: 1001 });
  });
});

describe('entityQuery', () => {
  it('narrows a campaign named "US | iOS | Summer" by the id looked up for that name', async () => {
    const c = client([
      { campaign: 'US | iOS | Summer', campaignId: 1001, installs: 3 },
      { campaign: 'US', campaignId: 7, installs: 5 },
    ]);
    const answer = await entityQuery(definition, 'campaign=US | iOS | Summer|countryCode=BR', deps(c));
    expect(answer).toEqual({
      query: 'installs by campaign, countryCode yesterday where campaignId = 1001 and countryCode = BR',
    });
    expect(c.asked.map((r) => r.dimensions.map((d) => d.name))).toEqual([['campaign', 'campaignId']]);
    expect(() => compileQuery((answer as { query: string }).query, { now })).not.toThrow();
  });

  it('asks nothing when the entity carries the id (structured parts, as the incident stores them)', async () => {
    const c = client([]);
    const answer = await entityQuery(
      definition,
      [
        { dimension: 'campaign', value: 'US | iOS | Summer', id: 1001 },
        { dimension: 'countryCode', value: 'BR' },
      ],
      deps(c),
    );
    expect(answer).toEqual({
      query: 'installs by campaign, countryCode yesterday where campaignId = 1001 and countryCode = BR',
    });
    expect(c.asked).toEqual([]);
  });

  it('narrows a text dimension by its value', async () => {
    const answer = await entityQuery(definition, 'countryCode=BR', deps(client([])));
    expect(answer).toEqual({ query: 'installs by campaign, countryCode yesterday where countryCode = BR' });
  });

  it('refuses, with why, a part with no value and a name whose id is not found', async () => {
    expect(await entityQuery(definition, 'campaign=(none)', deps(client([])))).toEqual({
      refused: expect.stringContaining('no value'),
    });
    expect(await entityQuery(definition, 'campaign=Gone', deps(client([])))).toEqual({
      refused: expect.stringContaining('no campaignId was found for Campaign "Gone"'),
    });
  });
});
