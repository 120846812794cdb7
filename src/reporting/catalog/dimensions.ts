import type { ArgumentDef, DimensionDef, DimensionKind } from './types.js';

type DimensionExtra = Partial<Pick<DimensionDef, 'args' | 'ctvOnly' | 'ctvReplacement' | 'note' | 'idFilter'>>;

function dim(
  name: string,
  type: string,
  kind: DimensionKind,
  description: string,
  extra: DimensionExtra = {},
): DimensionDef {
  return { name, type, description, args: [], kind, ctvOnly: false, ...extra };
}

const CTV_ONLY: DimensionExtra = { ctvOnly: true };

/** Our decision (the spec says which fields are unavailable with CTV data: "not shown"). */
function ctvReplaced(replacement: string): DimensionExtra {
  return {
    ctvReplacement: replacement,
    note:
      `The spec says to "use the four ...CtvNormalized String fields instead of integer id fields" when CTV data ` +
      `is appended but does not list the unavailable fields. We reject this integer id whenever appendCtvData is ` +
      `true or campaignChannel is not MOBILE, and suggest ${replacement} instead.`,
  };
}

const adPreviewFormat: ArgumentDef = {
  name: 'adPreviewFormat',
  type: 'AdPreviewFormat!',
  description: 'format of the preview; availability depends on the ad',
};
const granularity: ArgumentDef = {
  name: 'granularity',
  type: 'Granularity',
  description: 'date truncation of the bucket (DAILY gives one row per day)',
};
const formatString: ArgumentDef = {
  name: 'formatString',
  type: 'String',
  description: 'Joda-Time pattern the date is formatted with',
};

/** Every dimension field of PivotResult, in the spec's order. */
export const DIMENSIONS: readonly DimensionDef[] = [
  dim('ad', 'String', 'text', 'ad name', { idFilter: 'adId' }),
  dim('adParameter', 'String', 'text', 'custom ad-level descriptive field'),
  dim('adId', 'Int', 'id', 'ad id', ctvReplaced('adIdCtvNormalized')),
  dim('adSet', 'String', 'text', 'ad set name', { idFilter: 'adSetId' }),
  dim('adSetSubtype', 'String', 'text', 'ad set subtype (at ingest time)'),
  dim('adSetSubtypeQuerytime', 'String', 'text', 'ad set subtype at query time (appears in one listing only)'),
  dim('adSetId', 'Int', 'id', 'ad set id'),
  dim('adSize', 'String', 'text', 'ad size'),
  dim('adType', 'String', 'text', 'ad type'),
  dim('advertiser', 'String', 'text', 'advertiser name', { idFilter: 'advertiserId' }),
  dim('advertiserId', 'Int', 'id', 'advertiser id'),
  dim('advertiserBillingEntity', 'String', 'text', 'billing entity of the campaign'),
  dim('advertiserCountryId', 'Int', 'id', 'country registered for the advertiser'),
  dim('app', 'String', 'text', 'application name', { idFilter: 'appId' }),
  dim('appBundle', 'String', 'text', 'bundle id of the advertised app'),
  dim('appCategory', 'String', 'text', 'category of the advertised app'),
  dim('appId', 'Int', 'id', 'id of the advertised app'),
  dim('appPlatform', 'Platform', 'enum', 'IOS or ANDROID'),
  dim('campaign', 'String', 'text', 'campaign name', { idFilter: 'campaignId' }),
  dim('campaignParameter', 'String', 'text', 'optional custom value from the campaign form'),
  dim('campaignId', 'Int', 'id', 'campaign id', ctvReplaced('campaignIdCtvNormalized')),
  dim('campaignIdCtvNormalized', 'String', 'id', 'normalized campaign id for appended connected-TV data', CTV_ONLY),
  dim('groupIdCtvNormalized', 'String', 'id', 'normalized group id for appended connected-TV data', CTV_ONLY),
  dim('adIdCtvNormalized', 'String', 'id', 'normalized ad id for appended connected-TV data', CTV_ONLY),
  dim('osCtvNormalized', 'String', 'text', 'normalized OS value for appended connected-TV data', CTV_ONLY),
  dim('campaignCountry', 'String', 'text', 'country associated with the campaign'),
  dim('campaignTrackerType', 'CampaignTrackerType', 'enum', 'SKAD or MMP'),
  dim('campaignType', 'String', 'enum', 'UA or RTGT'),
  dim('campaignTypeId', 'Int', 'id', 'UA=1, RTGT=2'),
  dim('city', 'String', 'text', 'geo-located city'),
  dim('countryCode', 'String', 'text', 'ISO2 country code'),
  dim('countryName', 'String', 'text', 'country name'),
  dim('group', 'String', 'text', 'group name', { idFilter: 'groupId' }),
  dim('groupParameter', 'String', 'text', 'optional custom value from the group form'),
  dim('groupId', 'Int', 'id', 'group id', ctvReplaced('groupIdCtvNormalized')),
  dim('region', 'String', 'text', 'geo-located region'),
  dim('siteName', 'String', 'text', 'publisher app name'),
  dim('siteCategory', 'String', 'text', 'store category of the publisher app'),
  dim('siteSubcategory', 'String', 'text', 'store subcategory of the publisher app'),
  dim('siteBundle', 'String', 'text', 'bundle id of the publisher app; only for the last 3 months'),
  dim('source', 'String', 'text', 'name of the exchange where ads were bought', { idFilter: 'sourceId' }),
  dim('sourceId', 'Int', 'id', 'exchange id'),
  dim('dma', 'String', 'text', 'designated market area'),
  dim('zipCode', 'String', 'text', 'postal delivery area'),
  dim('campaignGoalType', 'String', 'text', 'goal type of the campaign'),
  dim('campaignGoalValue', 'String', 'text', 'goal value of the campaign'),
  dim('campaignGoalEventId', 'String', 'id', 'goal event id of the campaign'),
  dim('campaignContractualGoalEventId', 'String', 'id', 'contractual goal event id'),
  dim('campaignContractualGoalEvents', 'String', 'text', 'contractual goal events'),
  dim('campaignContractualGoalMeasurement', 'String', 'text', 'contractual goal measurement'),
  dim('campaignContractualGoalMeasurementSource', 'String', 'text', 'contractual goal measurement source'),
  dim('campaignContractualGoalType', 'String', 'text', 'contractual goal type'),
  dim('campaignContractualGoalValue', 'String', 'text', 'contractual goal value'),
  dim('campaignContractualGoalWindow', 'String', 'text', 'contractual goal window'),
  dim('adSetTemplate', 'String', 'id', 'template id of the ad set'),
  dim('rewarded', 'Int', 'flag', 'ad category by rewarded'),
  dim('skadConversionWindow', 'Int', 'enum', 'conversion window of the attribution framework'),
  dim('skadAnon', 'Int', 'enum', 'anonymity tier'),
  dim('deviceType', 'String', 'enum', 'smartphone, tablet or unknown'),
  dim('proxyType', 'String', 'text', 'type of proxy'),
  dim('skadId', 'Int', 'id', 'framework id of the campaign'),
  dim('skoverlay', 'Int', 'flag', 'whether the ad was shown on an overlay'),
  dim('skadVersion', 'String', 'text', 'framework version used'),
  dim('persistentCta', 'Int', 'flag', 'presence of persistent call-to-action'),
  dim('triplePage', 'Int', 'flag', 'presence of triple page'),
  dim('inlineInstall', 'Int', 'flag', 'presence of inline install'),
  dim('autostore', 'Int', 'flag', 'presence of autostore'),
  dim('skippable', 'Int', 'flag', 'whether the ad may be skipped'),
  dim('phase', 'String', 'text', 'phase of the secondary impression track video'),
  dim('adUrl', 'String!', 'text', 'preview URL of the ad (thumbnail for video)', { args: [adPreviewFormat] }),
  dim('date', 'DateTime!', 'time', 'date/time bucket of the row at the requested granularity', {
    args: [granularity],
  }),
  dim('dateToStr', 'String!', 'time', 'date formatted with a Joda-Time pattern', { args: [formatString] }),
  dim('dayOfWeek', 'String!', 'time', 'Monday to Sunday'),
  dim('timeOfDay', 'Int!', 'time', 'hour 0 to 23; only split under HOURLY granularity, otherwise 0'),
  dim(
    'goalType',
    'String',
    'text',
    'goal type used (operational or contractual), depending on the quality type queried',
  ),
];
