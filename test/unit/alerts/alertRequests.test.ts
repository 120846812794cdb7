import { alertRequests, anomalyRequests } from '../../../src/alerts/index.js';
import { reportSchema } from '../../../src/reports/index.js';

const NOW = new Date('2026-11-21T05:30:00Z');
const definition = (alerts: unknown[], extra: Record<string, unknown> = {}) =>
  reportSchema.parse({
    title: 'Spend by country',
    query: {
      dimensions: ['countryCode'],
      metrics: ['spend', 'installs'],
      range: 'yesterday',
      timezone: 'America/Sao_Paulo',
    },
    alerts,
    ...extra,
  });

describe('anomalyRequests', () => {
  it('asks for the same weekday of each of the previous weeks, in the report zone', () => {
    const def = definition([{ id: 'a', metric: 'spend', anomaly: { weeks: 4 } }]);
    const { current, history } = anomalyRequests({ definition: def }, def.alerts[0] as never, { now: NOW });
    expect([current.from, current.to]).toEqual(['2026-11-20T00:00:00-03:00', '2026-11-21T00:00:00-03:00']);
    expect(history?.map((h) => h.from)).toEqual([
      '2026-11-13T00:00:00-03:00',
      '2026-11-06T00:00:00-03:00',
      '2026-10-30T00:00:00-03:00',
      '2026-10-23T00:00:00-03:00',
    ]);
    expect(history?.[0]?.request).toEqual({
      ...current,
      from: '2026-11-13T00:00:00-03:00',
      to: '2026-11-14T00:00:00-03:00',
    });
  });

  it('keeps local hours across a DST change (Berlin, 25 Oct 2026)', () => {
    const def = reportSchema.parse({
      title: 'x',
      query: { metrics: ['spend'], range: 'yesterday', timezone: 'Europe/Berlin' },
      alerts: [{ id: 'a', metric: 'spend', anomaly: { weeks: 2 } }],
    });
    const { history } = anomalyRequests({ definition: def }, def.alerts[0] as never, {
      now: new Date('2026-10-30T10:00:00Z'),
    });
    expect(history?.map((h) => [h.from, h.to])).toEqual([
      ['2026-10-22T00:00:00+02:00', '2026-10-23T00:00:00+02:00'],
      ['2026-10-15T00:00:00+02:00', '2026-10-16T00:00:00+02:00'],
    ]);
  });

  it('asks for the same hours on each previous day with same_hour', () => {
    const def = definition([{ id: 'a', metric: 'spend', anomaly: { baseline: 'same_hour', weeks: 2 } }], {
      query: { metrics: ['spend'], range: 'last_1_hours', timezone: 'UTC' },
    });
    const { current, history } = anomalyRequests({ definition: def }, def.alerts[0] as never, { now: NOW });
    expect(current.from).toBe('2026-11-21T04:00:00+00:00');
    expect(history).toHaveLength(14);
    expect(history?.[0]?.from).toBe('2026-11-20T04:00:00+00:00');
    expect(history?.[13]?.from).toBe('2026-11-07T04:00:00+00:00');
  });
});

describe('alertRequests', () => {
  it('adds a comparison period when the report compares with another kind', () => {
    const def = definition([{ id: 'a', metric: 'spend', change: { vs: 'same_period_last_week', above: '30%' } }], {
      present: { compare: 'previous_period' },
    });
    const { comparison } = alertRequests({ definition: def }, def.alerts[0] as never, { now: NOW });
    expect(comparison?.from).toBe('2026-11-13T00:00:00-03:00');
  });

  it('reuses the report comparison when it is of the rule kind', () => {
    const def = definition([{ id: 'a', metric: 'spend', change: { vs: 'previous_period', above: '30%' } }], {
      present: { compare: 'previous_period' },
    });
    expect(alertRequests({ definition: def }, def.alerts[0] as never, { now: NOW }).comparison).toBeUndefined();
  });

  it('fetches a rule metric with arguments that the query lacks', () => {
    const def = definition([
      { id: 'a', metric: { name: 'installs', args: { attrTouch: 'CLICK' }, as: 'clickInstalls' }, above: 3 },
    ]);
    const { current } = alertRequests({ definition: def }, def.alerts[0] as never, { now: NOW });
    expect(current.metrics.map((m) => m.alias ?? m.name)).toEqual(['spend', 'installs', 'clickInstalls']);
  });
});
