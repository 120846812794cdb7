import {
  explainKind,
  METRIC_DECISIONS,
  MetricNotExplainableError,
  metricParts,
} from '../../../src/explain/metricParts.js';
import { METRICS } from '../../../src/reporting/index.js';

type Expected =
  | { additive: true }
  | { num: string; den: string; scale?: number }
  | { unexplainable: 'unique-count' | 'no-parts' | 'not-a-sum' };

/**
 * Every catalog metric and what explaining it means. A metric added to the catalog without a line
 * here (and a decision in METRIC_DECISIONS) fails the first test.
 */
const EXPECTED: Readonly<Record<string, Expected>> = {
  impressions: { additive: true },
  clicks: { additive: true },
  eviews: { additive: true },
  eclicks: { additive: true },
  cpc: { num: 'spend', den: 'clicks' },
  cpm: { num: 'spend', den: 'impressions', scale: 1000 },
  ctr: { num: 'clicks', den: 'impressions' },
  spend: { additive: true },
  uniqueImpressions: { unexplainable: 'unique-count' },
  uniqueClicks: { unexplainable: 'unique-count' },
  simps: { additive: true },
  sourceViewa: { unexplainable: 'no-parts' },
  goalDistancePerc: { unexplainable: 'no-parts' },
  bucket: { unexplainable: 'not-a-sum' },
  absoluteCpx: { num: 'spend', den: 'keyMetric' },
  keyMetricVtaShare: { num: 'keyMetricVtaImp', den: 'keyMetricVtaTotal' },
  keyMetric: { additive: true },
  keyMetricVtaImp: { additive: true },
  keyMetricVtaTotal: { additive: true },
  uniqueEvents: { unexplainable: 'unique-count' },
  events: { additive: true },
  billableSpend: { additive: true },
  eventValue: { additive: true },
  eventsCpa: { num: 'spend', den: 'events' },
  eventsRoas: { num: 'eventValue', den: 'spend' },
  eventsIte: { num: 'events', den: 'impressions', scale: 1000 },
  eventsRate: { num: 'events', den: 'installs' },
  installs: { additive: true },
  installsCpi: { num: 'spend', den: 'installs' },
  installsCvr: { num: 'installs', den: 'clicks' },
  installsIti: { num: 'installs', den: 'impressions', scale: 1000 },
  uniqueEventsCpa: { unexplainable: 'unique-count' },
  vtaShare: { num: 'installs', den: 'installs' },
};

function thrownBy(fn: () => unknown): MetricNotExplainableError {
  try {
    fn();
  } catch (error) {
    if (error instanceof MetricNotExplainableError) return error;
    throw error;
  }
  throw new Error('expected a MetricNotExplainableError, nothing was thrown');
}

describe('metricParts', () => {
  it('has a decision for every catalog metric, and this table names every one', () => {
    const catalog = METRICS.map((m) => m.name).sort();
    expect(Object.keys(METRIC_DECISIONS).sort()).toEqual(catalog);
    expect(Object.keys(EXPECTED).sort()).toEqual(catalog);
  });

  it.each(Object.entries(EXPECTED))('decides %s', (name, expected) => {
    if ('unexplainable' in expected) {
      const error = thrownBy(() => metricParts(name));
      expect(error.reason).toBe(expected.unexplainable);
      expect(error.code).toBe('METRIC_NOT_EXPLAINABLE');
      expect(error.userMessage).toMatch(new RegExp(`^${name} cannot be explained by segments: .+\\.$`));
      return;
    }
    const parts = metricParts(name);
    expect(parts.metric).toBe(name);
    if ('additive' in expected) {
      expect(parts).toEqual({ metric: name, kind: 'additive', num: { name, args: {} } });
      expect(explainKind(parts)).toEqual({ metric: name, kind: 'additive' });
      return;
    }
    if (parts.kind !== 'ratio') throw new Error(`${name} should be a ratio`);
    expect([parts.num.name, parts.den.name, parts.scale]).toEqual([expected.num, expected.den, expected.scale ?? 1]);
    expect(explainKind(parts)).toEqual({ metric: name, kind: 'ratio', scale: expected.scale ?? 1 });
    // Every part is additive itself: a ratio of ratios would not split by segments.
    expect(METRICS.find((m) => m.name === parts.num.name)?.additive).toBe(true);
    expect(METRICS.find((m) => m.name === parts.den.name)?.additive).toBe(true);
  });

  it('passes the metric’s arguments to the parts that take them', () => {
    expect(metricParts({ name: 'installsCpi', args: { attrTouch: 'CLICK' } })).toMatchObject({
      num: { name: 'spend', args: {} },
      den: { name: 'installs', args: { attrTouch: 'CLICK' } },
    });
    expect(metricParts({ name: 'eventsRoas', args: { eventId: 7 } })).toMatchObject({
      num: { name: 'eventValue', args: { eventId: 7 } },
      den: { name: 'spend', args: {} },
    });
    expect(metricParts({ name: 'eventsCpa', args: { eventId: 7 } })).toMatchObject({
      den: { name: 'events', args: { eventId: 7 } },
    });
    // installs takes no eventId: the denominator of eventsRate keeps what installs accepts.
    expect(metricParts({ name: 'eventsRate', args: { eventId: 7, attrSource: 'MMP' } })).toMatchObject({
      num: { name: 'events', args: { eventId: 7, attrSource: 'MMP' } },
      den: { name: 'installs', args: { attrSource: 'MMP' } },
    });
    expect(metricParts({ name: 'installsCvr', args: { attrSource: 'SKAD' } })).toMatchObject({
      num: { name: 'installs', args: { attrSource: 'SKAD', attrTouch: 'CLICK' } },
      den: { name: 'clicks', args: {} },
    });
    expect(metricParts({ name: 'installs', args: { attrTouch: 'IMP' } })).toEqual({
      metric: 'installs',
      kind: 'additive',
      num: { name: 'installs', args: { attrTouch: 'IMP' } },
    });
  });

  it('reads vtaShare as impression-touch attributions over all: installs, or the events of eventId', () => {
    expect(metricParts('vtaShare')).toMatchObject({
      num: { name: 'installs', args: { attrTouch: 'IMP' } },
      den: { name: 'installs', args: {} },
    });
    expect(metricParts({ name: 'vtaShare', args: { eventId: 3 } })).toMatchObject({
      num: { name: 'events', args: { eventId: 3, attrTouch: 'IMP' } },
      den: { name: 'events', args: { eventId: 3 } },
    });
  });

  it('refuses an unknown metric with a suggestion, and an argument the metric does not take', () => {
    expect(() => metricParts('instalsCpi')).toThrow(/^Unknown metric "instalsCpi"\. Did you mean "installsCpi"/);
    expect(() => metricParts('INSTALLSCPI')).toThrow(/Did you mean "installsCpi"\?/);
    expect(() => metricParts({ name: 'cpc', args: { attrTouch: 'CLICK' } })).toThrow(
      'Metric "cpc" does not accept attrTouch; it takes no arguments.',
    );
    const unknown = thrownBy(() => metricParts('instalsCpi'));
    expect(unknown.reason).toBe('unknown-metric');
    expect(unknown.suggestions[0]).toBe('installsCpi');
  });
});
