/**
 * The words of the trade, mapped to the catalog: data, not code. Every term says in plain English
 * what it means; `lookupGlossary` and the help read this table, the parser never hard-codes a word
 * of it. A word that means two things asks which (`ambiguous`); a word the Reporting Service has no
 * field for says so with the nearest real fields (`missing`), and never becomes an invented metric.
 * Catalog names themselves (`installsCpi`, `countryCode`) need no entry: they always work.
 */
import type { Scalar } from './ast.js';

export type GlossaryMeaning =
  /** A catalog metric, with the arguments and output name the word implies. */
  | { kind: 'metric'; metric: string; args?: Readonly<Record<string, Scalar>>; as?: string }
  /**
   * A catalog dimension (with a granularity for `date`). `idFilter`: the Filter field a number after
   * the word filters on ("campaign 1001" → campaignId = 1001).
   */
  | { kind: 'dimension'; dimension: string; granularity?: string; idFilter?: string }
  /** Two or more catalog fields: the answer asks which, with each choice and how to say it. */
  | { kind: 'ambiguous'; choices: ReadonlyArray<{ name: string; say: string }> }
  /** No field of the Reporting Service: the answer says so and names the nearest real ones. */
  | { kind: 'missing'; what: 'metric' | 'dimension'; nearest: readonly string[] };

export interface GlossaryTerm {
  /** What people type, lower case; several words make a phrase ("cost per install"). */
  words: readonly string[];
  /** Plain English, shown in help and in suggestions. */
  description: string;
  means: GlossaryMeaning;
}

const metric = (
  words: string[],
  name: string,
  description: string,
  extra: { args?: Record<string, Scalar>; as?: string } = {},
): GlossaryTerm => ({ words, description, means: { kind: 'metric', metric: name, ...extra } });

const dimension = (
  words: string[],
  name: string,
  description: string,
  extra: { granularity?: string; idFilter?: string } = {},
): GlossaryTerm => ({ words, description, means: { kind: 'dimension', dimension: name, ...extra } });

const missing = (
  words: string[],
  what: 'metric' | 'dimension',
  description: string,
  nearest: string[],
): GlossaryTerm => ({ words, description, means: { kind: 'missing', what, nearest } });

/** The built-in glossary. Workspaces add their own words in `reports/glossary.yaml`. */
export const GLOSSARY: readonly GlossaryTerm[] = [
  // Cost and value
  metric(['cost', 'spent', 'media cost', 'budget spent'], 'spend', 'money spent on media in the period'),
  metric(['cpi', 'ecpi', 'cost per install', 'cost/install'], 'installsCpi', 'cost per install: spend ÷ installs'),
  metric(
    ['cpa', 'ecpa', 'cost per action', 'cost per acquisition', 'cost per event', 'cpe'],
    'eventsCpa',
    'cost per action: spend ÷ attributed in-app events (one event with eventId)',
  ),
  metric(
    ['roas', 'return on ad spend'],
    'eventsRoas',
    'return on ad spend: attributed purchase value ÷ spend (1.5 = 150 %)',
  ),
  metric(
    ['ecpm', 'cost per mille', 'cost per thousand', 'cost per thousand impressions'],
    'cpm',
    'cost per thousand impressions: spend ÷ impressions × 1000',
  ),
  metric(['ecpc', 'cost per click'], 'cpc', 'cost per click: spend ÷ clicks'),
  metric(
    ['revenue', 'purchase value', 'purchase revenue', 'iap revenue'],
    'eventValue',
    'attributed purchase value (the value of purchase events)',
  ),
  metric(['billable spend', 'billable cost'], 'billableSpend', 'spend billed on CPA/CPI deals'),
  // Rates
  metric(['click through rate', 'click-through rate'], 'ctr', 'click-through rate: clicks ÷ impressions'),
  metric(
    ['cvr', 'conversion rate', 'install rate', 'click to install rate'],
    'installsCvr',
    'click-to-install conversion rate: click-attributed installs ÷ clicks',
  ),
  metric(
    ['ipm', 'iti', 'installs per mille', 'installs per thousand', 'installs per thousand impressions'],
    'installsIti',
    'installs per thousand impressions (IPM, also called ITI)',
  ),
  metric(['event rate', 'events per install'], 'eventsRate', 'attributed events ÷ installs'),
  metric(['viewability', 'viewable rate'], 'sourceViewa', 'viewability of the ad as a 0..1 fraction'),
  metric(
    ['vta share', 'view through share', 'view-through share'],
    'vtaShare',
    'share of installs attributed from an impression (view-through)',
  ),
  // Volumes
  metric(['impression', 'imps', 'imp', 'impr'], 'impressions', 'ad impressions shown'),
  metric(['click'], 'clicks', 'clicks on ads'),
  metric(['install', 'installations'], 'installs', 'attributed installs'),
  metric(['event', 'in-app events', 'actions'], 'events', 'attributed in-app events (all of them, or one eventId)'),
  metric(['reach', 'unique impressions', 'unique reach'], 'uniqueImpressions', 'unique devices that saw an ad'),
  metric(['unique clicks'], 'uniqueClicks', 'unique devices that clicked'),
  metric(
    ['click installs', 'click-through installs', 'cta installs'],
    'installs',
    'installs attributed to a click (click-through)',
    { args: { attrTouch: 'CLICK' }, as: 'clickInstalls' },
  ),
  metric(
    ['view through installs', 'view-through installs', 'vta installs', 'view installs'],
    'installs',
    'installs attributed to an impression (view-through)',
    { args: { attrTouch: 'IMP' }, as: 'viewInstalls' },
  ),
  metric(
    ['skan installs', 'skad installs'],
    'installs',
    "installs measured by the platform's privacy-preserving attribution framework (SKAdNetwork)",
    { args: { attrSource: 'SKAD' }, as: 'skanInstalls' },
  ),
  metric(['mmp installs'], 'installs', 'installs measured by a mobile measurement partner', {
    args: { attrSource: 'MMP' },
    as: 'mmpInstalls',
  }),
  // Words that mean two things
  {
    words: ['conversions', 'conversion', 'conv'],
    description: 'installs or in-app events, depending on the campaign goal',
    means: {
      kind: 'ambiguous',
      choices: [
        { name: 'installs', say: 'installs' },
        { name: 'events', say: 'events' },
      ],
    },
  },
  {
    words: ['cost per conversion'],
    description: 'cost per install or cost per in-app event',
    means: {
      kind: 'ambiguous',
      choices: [
        { name: 'installsCpi', say: 'cpi' },
        { name: 'eventsCpa', say: 'cpa' },
      ],
    },
  },
  {
    words: ['views'],
    description: 'impressions, or engaged views (eviews)',
    means: {
      kind: 'ambiguous',
      choices: [
        { name: 'impressions', say: 'impressions' },
        { name: 'eviews', say: 'eviews' },
      ],
    },
  },
  {
    words: ['bundle', 'bundles', 'bundle id'],
    description: 'the bundle id of the advertised app, or of the publisher app the ad ran in',
    means: {
      kind: 'ambiguous',
      choices: [
        { name: 'appBundle', say: 'app bundle' },
        { name: 'siteBundle', say: 'publisher bundle' },
      ],
    },
  },
  // Words the Reporting Service has no field for
  missing(
    ['ltv', 'lifetime value'],
    'metric',
    'no LTV: the service reports attributed purchase value, not lifetime value',
    ['eventValue', 'eventsRoas'],
  ),
  missing(['arpu', 'arpdau', 'arppu'], 'metric', 'no ARPU: the service reports purchase value, not revenue per user', [
    'eventValue',
    'eventsRoas',
  ]),
  missing(
    ['retention', 'retention rate', 'd1 retention', 'd7 retention'],
    'metric',
    'no retention: count a return event with events(eventId=…) instead',
    ['events', 'eventsRate'],
  ),
  missing(
    ['dau', 'mau', 'daily active users', 'active users', 'sessions'],
    'metric',
    'no daily active users: the service reports ad delivery and attribution, not app usage',
    ['installs', 'uniqueEvents'],
  ),
  missing(['win rate', 'bids', 'bid requests'], 'metric', 'no win rate: the service does not report bids', [
    'impressions',
    'spend',
  ]),
  missing(['fill rate'], 'metric', 'no fill rate: the service reports what was bought, not ad requests', [
    'impressions',
  ]),
  missing(['gender'], 'dimension', 'no gender: the service has no audience demographics', [
    'countryCode',
    'deviceType',
  ]),
  missing(['age', 'age group'], 'dimension', 'no age: the service has no audience demographics', [
    'countryCode',
    'deviceType',
  ]),
  // Dimensions
  dimension(['country', 'countries', 'geo', 'geos', 'market', 'country code'], 'countryCode', 'ISO2 country code'),
  dimension(['country name'], 'countryName', 'country name'),
  dimension(['platform', 'platforms', 'os', 'operating system'], 'appPlatform', 'IOS or ANDROID'),
  dimension(['apps', 'application', 'game', 'games', 'title'], 'app', 'the advertised app', { idFilter: 'appId' }),
  dimension(['app id'], 'appId', 'id of the advertised app', { idFilter: 'appId' }),
  dimension(['app bundle', 'advertised bundle', 'store id'], 'appBundle', 'bundle id of the advertised app'),
  dimension(['campaigns'], 'campaign', 'campaign name', { idFilter: 'campaignId' }),
  dimension(['campaign id'], 'campaignId', 'campaign id', { idFilter: 'campaignId' }),
  dimension(['creative', 'creatives', 'ads'], 'ad', 'the ad (creative) name', { idFilter: 'adId' }),
  dimension(['creative id'], 'adId', 'ad (creative) id', { idFilter: 'adId' }),
  dimension(['ad set', 'ad sets', 'adset', 'adsets'], 'adSet', 'ad set name', { idFilter: 'adSetId' }),
  dimension(
    [
      'exchange',
      'exchanges',
      'sources',
      'ssp',
      'ssps',
      'inventory source',
      'ad network',
      'ad networks',
      'network',
      'networks',
      'media source',
      'media sources',
    ],
    'source',
    'the exchange (ad network) the ads were bought on',
    {
      idFilter: 'sourceId',
    },
  ),
  dimension(
    ['publisher', 'publishers', 'site', 'sites', 'placement', 'placements', 'pub', 'pubs', 'publisher app'],
    'siteName',
    'the publisher app the ad ran in (the service has no finer placement)',
  ),
  dimension(['publisher bundle', 'site bundle', 'pub bundle'], 'siteBundle', 'bundle id of the publisher app'),
  dimension(['publisher category', 'site category'], 'siteCategory', 'store category of the publisher app'),
  dimension(['app category', 'category'], 'appCategory', 'category of the advertised app'),
  dimension(['device', 'devices', 'device type'], 'deviceType', 'smartphone, tablet or unknown'),
  dimension(['regions', 'state', 'states'], 'region', 'geo-located region'),
  dimension(['cities'], 'city', 'geo-located city'),
  dimension(['metro', 'metros', 'dmas'], 'dma', 'designated market area'),
  dimension(['zip', 'zip code', 'postal code'], 'zipCode', 'postal delivery area'),
  dimension(['advertisers'], 'advertiser', 'advertiser name', { idFilter: 'advertiserId' }),
  dimension(['campaign type'], 'campaignType', 'UA or RTGT (retargeting)'),
  dimension(['weekday', 'weekdays', 'day of week', 'day of the week'], 'dayOfWeek', 'Monday to Sunday'),
  dimension(['ad size', 'size'], 'adSize', 'ad size'),
  dimension(['ad type', 'format'], 'adType', 'ad type (banner, video…)'),
  // Time buckets: the date dimension at a granularity
  dimension(['day', 'days', 'daily'], 'date', 'one row per day', { granularity: 'DAILY' }),
  dimension(['hour', 'hours', 'hourly'], 'date', 'one row per hour', { granularity: 'HOURLY' }),
  dimension(['week', 'weeks', 'weekly'], 'date', 'one row per week (Monday to Sunday)', { granularity: 'WEEKLY' }),
  dimension(['month', 'months', 'monthly'], 'date', 'one row per month', { granularity: 'MONTHLY' }),
  dimension(['quarter', 'quarters', 'quarterly'], 'date', 'one row per quarter', { granularity: 'QUARTERLY' }),
];

/** Filter fields a catalog dimension name filters on when a number follows it ("campaign 1001"). */
export const ID_FILTERS: Readonly<Record<string, string>> = {
  campaign: 'campaignId',
  campaignid: 'campaignId',
  app: 'appId',
  appid: 'appId',
  ad: 'adId',
  adid: 'adId',
  adset: 'adSetId',
  adsetid: 'adSetId',
  source: 'sourceId',
  sourceid: 'sourceId',
  advertiser: 'advertiserId',
  advertiserid: 'advertiserId',
  group: 'groupId',
  groupid: 'groupId',
};

/** Range words, for help and docs; the parser reads them in `parseRange`. */
export const RANGE_TERMS: ReadonlyArray<{ words: string; means: string; description: string }> = [
  { words: 'today, yesterday', means: 'today, yesterday', description: 'one calendar day' },
  {
    words: 'last 7 days, past 7 days, L7D, last 7d',
    means: 'last_7_days',
    description: 'the 7 whole days before today',
  },
  { words: 'L14D, L30D, L90D', means: 'last_14_days …', description: 'the N whole days before today' },
  { words: 'last 2 weeks, past 3 weeks', means: 'last_14_days, last_21_days', description: 'N × 7 whole days' },
  { words: 'last 24 hours, last 24h', means: 'last_24_hours', description: 'up to the start of this hour' },
  { words: 'this week, WTD, week to date', means: 'this_week', description: 'Monday to today' },
  { words: 'last week, previous week', means: 'last_week', description: 'Monday to Sunday before this week' },
  { words: 'this month, MTD, month to date', means: 'month_to_date', description: 'the 1st to today' },
  { words: 'last month, previous month', means: 'last_month', description: 'the calendar month before' },
  { words: 'this quarter, QTD, quarter to date', means: 'from..to dates', description: 'the quarter start to today' },
  { words: 'last quarter', means: 'from..to dates', description: 'the calendar quarter before' },
  { words: 'this year, YTD, year to date', means: 'from..to dates', description: '1 January to today' },
  { words: 'since 2026-11-01', means: '2026-11-01..tomorrow', description: 'that day to today' },
  {
    words: '2026-11-01..2026-11-08, from 2026-11-01 to 2026-11-08',
    means: 'those dates',
    description: '"to" exclusive',
  },
];

/** Comparison words, for help and docs. */
export const COMPARE_TERMS: ReadonlyArray<{ words: string; means: string; description: string }> = [
  {
    words: 'WoW, week over week, w/w, vs last week',
    means: 'vs same period last week',
    description: 'the same days a week earlier (WoW alone: last 7 days)',
  },
  {
    words: 'DoD, day over day, vs the day before',
    means: 'vs previous period',
    description: 'the day before (DoD alone: yesterday)',
  },
  { words: 'MoM, month over month', means: 'vs previous period', description: 'last month against the month before' },
  {
    words: 'vs previous period, vs prior 7 days, vs the week before',
    means: 'vs previous period',
    description: 'the span of equal length just before',
  },
];
