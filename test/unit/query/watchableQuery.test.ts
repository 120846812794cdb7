import { watchableQuery } from '../../../src/query/index.js';

const options = { now: new Date('2026-11-20T12:00:00Z') };

describe('watchableQuery: what "Watch this" can watch of a query', () => {
  it('gives the metrics by their output keys, and whether there are rows to watch one by one', () => {
    const shape = watchableQuery('spend installs by countryCode yesterday', options);
    expect(shape?.metrics).toEqual(['spend', 'installs']);
    expect(shape?.byEntity).toBe(true);
    expect(shape?.definition.query.dimensions).toEqual([{ name: 'countryCode' }]);
  });

  it('has no rows to watch when the query breaks down by date only', () => {
    expect(watchableQuery('spend by date last 7 days', options)?.byEntity).toBe(false);
  });

  it('is undefined for a run command and for a query that does not compile', () => {
    expect(watchableQuery('run daily-kpi', options)).toBeUndefined();
    expect(watchableQuery('spend by nonsenseField yesterday', options)).toBeUndefined();
  });
});
