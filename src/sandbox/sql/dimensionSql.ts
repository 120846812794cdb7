/**
 * How each plain dimension (and each Filter field) reads from the fact table and its joins. The
 * time dimensions (date, dateToStr, dayOfWeek, timeOfDay) and goalType depend on the request and
 * are built in compileSql.ts.
 */
import { CTV_OS } from '../data/seedLists.js';
import type { JoinName } from './joins.js';

export interface ColumnSql {
  sql: string;
  joins: readonly JoinName[];
}

const col = (sql: string, ...joins: JoinName[]): ColumnSql => ({ sql, joins });
const os = `[${CTV_OS.map((o) => `'${o}'`).join(', ')}]`;

/** Every dimension whose value depends only on the fact row. `siteBundle` is handled apart (3-month cut-off). */
export const DIMENSION_COLUMNS: Readonly<Record<string, ColumnSql>> = {
  ad: col('a.name', 'a'),
  adParameter: col('a.parameter', 'a'),
  adId: col('f.ad_id'),
  adSet: col('g.name', 'g'),
  adSetSubtype: col('g.subtype', 'g'),
  adSetSubtypeQuerytime: col('COALESCE(g.subtype_changed, g.subtype)', 'g'),
  adSetId: col('f.group_id'),
  adSize: col('a.size', 'a'),
  adType: col('a.type', 'a'),
  advertiser: col('adv.name', 'adv'),
  advertiserId: col('c.advertiser_id', 'c'),
  advertiserBillingEntity: col('c.billing_entity', 'c'),
  advertiserCountryId: col('advk.country_num', 'advk'),
  app: col('p.name', 'p'),
  appBundle: col('p.bundle', 'p'),
  appCategory: col('p.category', 'p'),
  appId: col('c.app_id', 'c'),
  appPlatform: col('c.platform', 'c'),
  campaign: col('c.name', 'c'),
  campaignParameter: col('c.parameter', 'c'),
  campaignId: col('f.campaign_id'),
  campaignIdCtvNormalized: col(`CASE WHEN f.channel = 1 THEN 'ctv-' ELSE '' END || f.campaign_id`),
  groupIdCtvNormalized: col(`CASE WHEN f.channel = 1 THEN 'ctv-' ELSE '' END || f.group_id`),
  adIdCtvNormalized: col(`CASE WHEN f.channel = 1 THEN 'ctv-' ELSE '' END || f.ad_id`),
  osCtvNormalized: col(`CASE WHEN f.channel = 1 THEN ${os}[f.ctv_os] ELSE lower(c.platform) END`, 'c'),
  campaignCountry: col('c.country_code', 'c'),
  campaignTrackerType: col('c.tracker', 'c'),
  campaignType: col('c.type', 'c'),
  campaignTypeId: col(`CASE c.type WHEN 'UA' THEN 1 WHEN 'RTGT' THEN 2 END`, 'c'),
  city: col('geo.city', 'geo'),
  countryCode: col('k.code', 'k'),
  countryName: col('k.name', 'k'),
  group: col('g.name', 'g'),
  groupParameter: col('g.parameter', 'g'),
  groupId: col('f.group_id'),
  region: col('geo.region', 'geo'),
  siteName: col('s.name', 's'),
  siteCategory: col('s.category', 's'),
  siteSubcategory: col('s.subcategory', 's'),
  source: col('src.name', 'src'),
  sourceId: col('f.source_id::INTEGER'),
  dma: col('geo.dma', 'geo'),
  zipCode: col('geo.zip', 'geo'),
  campaignGoalType: col('c.goal_type', 'c'),
  campaignGoalValue: col('c.goal_value::VARCHAR', 'c'),
  campaignGoalEventId: col('c.goal_event_id::VARCHAR', 'c'),
  campaignContractualGoalEventId: col('c.contr_goal_event_id::VARCHAR', 'c'),
  campaignContractualGoalEvents: col(
    `CASE WHEN c.contr_goal_type = 'CPI' THEN 'install' WHEN c.contr_goal_event_id % 10 = 4 THEN 'purchase' ELSE 'registration' END`,
    'c',
  ),
  campaignContractualGoalMeasurement: col(
    `CASE c.contr_goal_type WHEN 'CPI' THEN 'cost_per_install' WHEN 'CPA' THEN 'cost_per_event' ELSE 'return_on_ad_spend' END`,
    'c',
  ),
  campaignContractualGoalMeasurementSource: col('c.contr_source', 'c'),
  campaignContractualGoalType: col('c.contr_goal_type', 'c'),
  campaignContractualGoalValue: col('c.contr_goal_value::VARCHAR', 'c'),
  campaignContractualGoalWindow: col('c.contr_window', 'c'),
  adSetTemplate: col('g.template', 'g'),
  rewarded: col('a.rewarded', 'a'),
  skadConversionWindow: col('c.skad_cw', 'c'),
  skadAnon: col('c.skad_anon', 'c'),
  deviceType: col(`['smartphone', 'tablet', 'unknown', 'ctv'][f.device + 1]`),
  proxyType: col('s.proxy_type', 's'),
  skadId: col('c.skad_id', 'c'),
  skoverlay: col('a.skoverlay', 'a'),
  skadVersion: col('c.skad_version', 'c'),
  persistentCta: col('a.persistent_cta', 'a'),
  triplePage: col('a.triple_page', 'a'),
  inlineInstall: col('a.inline_install', 'a'),
  autostore: col('a.autostore', 'a'),
  skippable: col('a.skippable', 'a'),
  phase: col('a.phase', 'a'),
};

/** The attribution source name of a conversion row (NULL on delivery rows). */
export const ATTR_SOURCE_NAME = `CASE f.attr_src WHEN 1 THEN 'MMP' WHEN 2 THEN 'SKAD' END`;

/**
 * Filter fields. `scope` says which rows a condition applies to: `eventId` and `attrSource` only
 * restrict conversion rows (delivery rows have no event or attribution source), so filtering on
 * them does not zero the spend.
 */
export const FILTER_COLUMNS: Readonly<Record<string, ColumnSql & { scope?: 'events' | 'conversions' }>> = {
  adId: col('f.ad_id'),
  adSetId: col('f.group_id'),
  advertiserId: col('c.advertiser_id', 'c'),
  appId: col('c.app_id', 'c'),
  campaignId: col('f.campaign_id'),
  campaignTypeId: DIMENSION_COLUMNS.campaignTypeId as ColumnSql,
  groupId: col('f.group_id'),
  sourceId: col('f.source_id::INTEGER'),
  eventId: { ...col('f.event_id'), scope: 'events' },
  adSize: col('a.size', 'a'),
  adType: col('a.type', 'a'),
  campaignCountry: col('c.country_code', 'c'),
  campaignGoalType: col('c.goal_type', 'c'),
  campaignContractualGoalType: col('c.contr_goal_type', 'c'),
  adSetTemplate: col('g.template', 'g'),
  city: col('geo.city', 'geo'),
  countryCode: col('k.code', 'k'),
  countryName: col('k.name', 'k'),
  region: col('geo.region', 'geo'),
  siteName: col('s.name', 's'),
  siteCategory: col('s.category', 's'),
  siteSubcategory: col('s.subcategory', 's'),
  siteBundle: col('s.bundle', 's'),
  attrSource: { ...col(ATTR_SOURCE_NAME), scope: 'conversions' },
  archived: col('c.archived', 'c'),
  appPlatform: col('c.platform', 'c'),
  campaignTrackerType: col('c.tracker', 'c'),
  campaignType: col('c.type', 'c'),
  groupExperiment: col('g.experiment', 'g'),
  groupType: col('g.group_type', 'g'),
  status: col('c.status', 'c'),
};
