import { entityParts, incidentEntity } from '../../../src/alerts/index.js';
import type { ViewColumn } from '../../../src/reports/index.js';

const column = (key: string, name = key): ViewColumn =>
  ({ key, name, kind: 'dimension', args: {}, label: key, unit: 'text', polarity: 'neutral' }) as ViewColumn;

describe('entityParts', () => {
  it('keeps a name with "|" in it whole, with its id when the row carries the id column', () => {
    const parts = entityParts([column('campaign'), column('campaignId'), column('country', 'countryCode')], {
      campaign: 'US | iOS | Summer',
      campaignId: 1001,
      country: null,
    });
    expect(parts).toEqual([
      { dimension: 'campaign', value: 'US | iOS | Summer', id: 1001 },
      { dimension: 'campaignId', value: '1001' },
      { dimension: 'countryCode', value: null },
    ]);
  });
});

describe('incidentEntity', () => {
  it('reads the stored parts when the record has them, never its key', () => {
    const entity = [{ dimension: 'campaign', value: 'A|b=c', id: 7 }];
    expect(incidentEntity({ entityKey: 'campaign=A|b=c', entity })).toBe(entity);
  });

  it.each([
    ['total', []],
    [
      'countryCode=BR|source=Vungle',
      [
        { dimension: 'countryCode', value: 'BR' },
        { dimension: 'source', value: 'Vungle' },
      ],
    ],
    [
      'campaign=US | iOS | Summer|countryCode=US',
      [
        { dimension: 'campaign', value: 'US | iOS | Summer' },
        { dimension: 'countryCode', value: 'US' },
      ],
    ],
    ['siteBundle=(none)', [{ dimension: 'siteBundle', value: null }]],
  ])('reads a record written before parts were stored from its key: %s', (entityKey, parts) => {
    expect(incidentEntity({ entityKey })).toEqual(parts);
  });
});
