import type { Derivation, MetricDef, MetricUnit, Polarity } from './types.js';

type MetricExtra = Partial<Pick<MetricDef, 'args' | 'derivedFrom' | 'note'>>;

function metric(
  name: string,
  type: string,
  unit: MetricUnit,
  polarity: Polarity,
  additive: boolean,
  description: string,
  extra: MetricExtra = {},
): MetricDef {
  return { name, type, description, args: [], unit, polarity, additive, ...extra };
}

function ratio(numerator: string, denominator: string, scale = 1): Derivation {
  return { numerator, denominator, scale };
}

// The spec's "Arguments accepted per metric" table, one constant per row.
const EVENTS_ARGS = [
  'attrSource',
  'attrTouch',
  'attrTechnique',
  'skadAttributionFlag',
  'eventId',
  'vtaWindow',
  'ctaWindow',
];
const EVENT_VALUE_ARGS = [
  'attrSource',
  'attrTouch',
  'eventId',
  'attrTechnique',
  'skadAttributionFlag',
  'vtaWindow',
  'ctaWindow',
];
const EVENT_RATIO_ARGS = ['attrSource', 'attrTouch', 'attrTechnique', 'eventId', 'vtaWindow', 'ctaWindow'];
const INSTALLS_ARGS = [
  'attrSource',
  'attrTouch',
  'attrTechnique',
  'skadAttributionFlag',
  'hasCv',
  'reinstall',
  'vtaWindow',
  'ctaWindow',
];

const SPEND_NEUTRAL =
  'Neutral: spend going up or down is budget pacing, not good or bad news on its own; cost-per-x metrics carry the judgement.';

/** Every metric field of PivotMetrics, in the spec's order. */
export const METRICS: readonly MetricDef[] = [
  metric('impressions', 'Long', 'count', 'higher_is_better', true, 'ad impressions shown'),
  metric('clicks', 'Long', 'count', 'higher_is_better', true, 'clicks'),
  metric('eviews', 'Long', 'count', 'higher_is_better', true, 'engaged views'),
  metric('eclicks', 'Long', 'count', 'higher_is_better', true, 'engaged clicks'),
  metric('cpc', 'Float', 'currency', 'lower_is_better', false, 'cost per click (cost = spend)', {
    derivedFrom: ratio('spend', 'clicks'),
  }),
  metric('cpm', 'Float', 'currency', 'lower_is_better', false, 'cost per thousand impressions', {
    derivedFrom: ratio('spend', 'impressions', 1000),
  }),
  metric('ctr', 'Float', 'ratio', 'higher_is_better', false, 'click-through rate (0..1 fraction)', {
    derivedFrom: ratio('clicks', 'impressions'),
  }),
  metric('spend', 'Float', 'currency', 'neutral', true, 'budget spent in the period', { note: SPEND_NEUTRAL }),
  metric(
    'uniqueImpressions',
    'Long',
    'count',
    'higher_is_better',
    false,
    'unique impressions; about 2% error in the 0 to 1000M range; unreliable above 1000M',
  ),
  metric('uniqueClicks', 'Long', 'count', 'higher_is_better', false, 'unique devices with clicks; about 2% error'),
  metric('simps', 'Long', 'count', 'higher_is_better', true, 'secondary impressions'),
  metric('sourceViewa', 'Float', 'ratio', 'higher_is_better', false, 'viewability of the ad', {
    note: 'The spec gives no scale; we read viewability as a 0..1 fraction of measured impressions, not additive over rows.',
  }),
  metric(
    'goalDistancePerc',
    'Float!',
    'percent',
    'neutral',
    false,
    'percentual distance of the current cost per goal event from the campaign goal',
    {
      note: 'The spec does not say which sign means "better than goal" (nor whether it is a ratio of cost or of value for ROAS goals), so the polarity is neutral; the value is already in percent.',
    },
  ),
  metric('bucket', 'Float!', 'score', 'neutral', false, 'quality bucket of the current performance', {
    note: 'A bucket label on a scale the spec does not define (which end is good is not shown): unit score, polarity neutral.',
  }),
  metric(
    'absoluteCpx',
    'Float!',
    'currency',
    'lower_is_better',
    false,
    'sum of spend divided by sum of weighted goal events',
    {
      derivedFrom: ratio('spend', 'keyMetric'),
    },
  ),
  metric(
    'keyMetricVtaShare',
    'Float!',
    'ratio',
    'neutral',
    false,
    'share of weighted goal events attributed from an impression (0..1 fraction)',
    {
      derivedFrom: ratio('keyMetricVtaImp', 'keyMetricVtaTotal'),
      note: 'Neutral: a larger view-through share is neither clearly good nor bad (it may mean strong awareness or weak click evidence).',
    },
  ),
  metric(
    'keyMetric',
    'Float',
    'count',
    'higher_is_better',
    true,
    'key metric for quality: installs for CPI, weighted events for CPA, weighted event value for ROAS, clicks for CPC. ' +
      'With `assisted` true it uses assisted conversions (CPC/CPM goals return null). absoluteCpx, goalDistancePerc and bucket ' +
      'always use the attributed key metric.',
    {
      args: ['attrTouch', 'vtaWindow', 'ctaWindow', 'assisted'],
      note: 'Unit count: it counts (weighted) conversions for every goal type but ROAS, where it is a value; we format it as a number, not money.',
    },
  ),
  metric(
    'keyMetricVtaImp',
    'Float',
    'count',
    'higher_is_better',
    true,
    'key metric restricted to impression touch; additive component of keyMetricVtaShare',
  ),
  metric(
    'keyMetricVtaTotal',
    'Float',
    'count',
    'higher_is_better',
    true,
    'key metric over all touches; denominator component of keyMetricVtaShare',
  ),
  metric('uniqueEvents', 'Long', 'count', 'higher_is_better', false, 'unique devices with events', {
    args: ['eventId'],
  }),
  metric('events', 'Long', 'count', 'higher_is_better', true, 'attributed events', { args: EVENTS_ARGS }),
  metric('billableSpend', 'Float', 'currency', 'neutral', true, 'spend for CPA/CPI deals', {
    args: ['attrTouch'],
    note: SPEND_NEUTRAL,
  }),
  metric('eventValue', 'Float', 'currency', 'higher_is_better', true, 'sum of purchase value of purchase events', {
    args: EVENT_VALUE_ARGS,
  }),
  metric('eventsCpa', 'Float', 'currency', 'lower_is_better', false, 'cost per event', {
    args: EVENT_RATIO_ARGS,
    derivedFrom: ratio('spend', 'events'),
  }),
  metric(
    'eventsRoas',
    'Float',
    'ratio',
    'higher_is_better',
    false,
    'return on ad spend from attributed purchase value',
    {
      args: EVENT_RATIO_ARGS,
      derivedFrom: ratio('eventValue', 'spend'),
      note: 'Unit ratio: revenue divided by spend (1.5 = 150%), so it is formatted like the other ratios.',
    },
  ),
  metric('eventsIte', 'Float', 'per_mille', 'higher_is_better', false, 'events per thousand impressions', {
    args: EVENT_RATIO_ARGS,
    derivedFrom: ratio('events', 'impressions', 1000),
  }),
  metric('eventsRate', 'Float', 'ratio', 'higher_is_better', false, 'events divided by installs (may exceed 1)', {
    args: EVENT_RATIO_ARGS,
    derivedFrom: ratio('events', 'installs'),
  }),
  metric('installs', 'Long', 'count', 'higher_is_better', true, 'attributed installs', { args: INSTALLS_ARGS }),
  metric('installsCpi', 'Float', 'currency', 'lower_is_better', false, 'cost per install', {
    args: INSTALLS_ARGS,
    derivedFrom: ratio('spend', 'installs'),
  }),
  metric(
    'installsCvr',
    'Float',
    'ratio',
    'higher_is_better',
    false,
    'click-attributed installs divided by clicks (installs forced to CLICK touch, hence no attrTouch argument)',
    { args: ['attrSource', 'attrTechnique', 'vtaWindow', 'ctaWindow'], derivedFrom: ratio('installs', 'clicks') },
  ),
  metric('installsIti', 'Float', 'per_mille', 'higher_is_better', false, 'installs per thousand impressions', {
    args: ['attrSource', 'attrTouch', 'attrTechnique', 'vtaWindow', 'ctaWindow'],
    derivedFrom: ratio('installs', 'impressions', 1000),
  }),
  metric('uniqueEventsCpa', 'Float', 'currency', 'lower_is_better', false, 'cost per unique event', {
    args: ['eventId'],
    derivedFrom: ratio('spend', 'uniqueEvents'),
  }),
  metric(
    'vtaShare',
    'Float',
    'ratio',
    'neutral',
    false,
    'view-through share of total attributions: attributions with attrTouch IMP divided by attributions over all touches ' +
      '(installs, or the events of `eventId` when it is given), as a 0..1 fraction',
    {
      args: ['attrSource', 'attrTechnique', 'eventId', 'vtaWindow', 'ctaWindow'],
      note:
        'The spec only says "view-through share of total attributions". We read it as installs(attrTouch: IMP) / installs ' +
        '(events of eventId when given). No derivedFrom: a Derivation cannot carry the attrTouch argument. Neutral polarity ' +
        'as for keyMetricVtaShare.',
    },
  ),
];
