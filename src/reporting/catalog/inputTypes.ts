import type { InputFieldDef, InputTypeDef } from './types.js';

function fields(names: readonly string[], type: string): InputFieldDef[] {
  return names.map((name) => ({ name, type }));
}

/** equals / notEquals / isIn / isNotIn over one scalar or enum type: the shape of every *GenericFilter. */
function genericFilter(name: string, type: string, description: string): InputTypeDef {
  return {
    name,
    fields: [
      { name: 'equals', type },
      { name: 'notEquals', type },
      { name: 'isIn', type: `[${type}!]` },
      { name: 'isNotIn', type: `[${type}!]` },
    ],
    description,
    provenance: 'spec',
  };
}

function equalityFilter(name: string, type: string): InputTypeDef {
  return {
    name,
    fields: [
      { name: 'equals', type },
      { name: 'notEquals', type },
    ],
    description: `equality filter on ${type}`,
    provenance: 'spec',
  };
}

function cleanup(name: string, type: string): InputTypeDef {
  return {
    name,
    fields: fields(['greaterThan', 'greaterOrEqualThan', 'lowerThan', 'lowerOrEqualThan'], type),
    description: `thresholds on a ${type} metric; a row is kept only when it satisfies every threshold given`,
    provenance: 'spec',
  };
}

const MIRRORS_INT_FILTER =
  'The spec says "fields: not shown". We mirror IntGenericFilter (equals, notEquals, isIn, isNotIn), the shape ' +
  'every other *GenericFilter has; reporting-service-facts.md found only equals and isIn in real use and no source ' +
  'for this type, so pivotbot should prefer those two.';

/** Every input type of the spec, Filter first. */
export const INPUT_TYPES: readonly InputTypeDef[] = [
  {
    name: 'Filter',
    fields: [
      ...fields(
        ['adId', 'adSetId', 'advertiserId', 'appId', 'campaignId', 'campaignTypeId', 'groupId', 'sourceId', 'eventId'],
        'IntGenericFilter',
      ),
      ...fields(
        [
          'adSize',
          'adType',
          'campaignCountry',
          'campaignGoalType',
          'campaignContractualGoalType',
          'adSetTemplate',
          'city',
          'countryCode',
          'countryName',
          'region',
          'siteName',
          'siteCategory',
          'siteSubcategory',
          'siteBundle',
          'attrSource',
        ],
        'StrGenericFilter',
      ),
      { name: 'archived', type: 'Boolean' },
      { name: 'appPlatform', type: 'PlatformGenericFilter' },
      { name: 'campaignTrackerType', type: 'CampaignTrackerTypeGenericFilter' },
      { name: 'campaignType', type: 'CampaignTypeGenericFilter' },
      { name: 'groupExperiment', type: 'GroupExperimentFilter' },
      { name: 'groupType', type: 'GroupTypeFilter' },
      { name: 'status', type: 'StatusGenericFilter' },
    ],
    description: 'acts like a SQL WHERE on the underlying data; every field optional',
    provenance: 'spec',
  },
  genericFilter('IntGenericFilter', 'Int', 'filter on an Int field'),
  {
    ...genericFilter('StrGenericFilter', 'String', 'filter on a String field'),
    provenance: 'decided',
    note: MIRRORS_INT_FILTER,
  },
  genericFilter('PlatformGenericFilter', 'Platform', 'filter on the app platform'),
  genericFilter('CampaignTrackerTypeGenericFilter', 'CampaignTrackerType', 'filter on the campaign tracker type'),
  genericFilter('CampaignTypeGenericFilter', 'CampaignType', 'filter on the campaign type'),
  equalityFilter('GroupExperimentFilter', 'GroupExperiment'),
  equalityFilter('GroupTypeFilter', 'GroupType'),
  {
    ...genericFilter('StatusGenericFilter', 'Status', 'filter on the campaign status'),
    provenance: 'decided',
    note: MIRRORS_INT_FILTER,
  },
  {
    name: 'Cleanup',
    fields: [
      ...fields(
        ['clicks', 'events', 'impressions', 'installs', 'sourceViewa', 'processedInstalls'],
        'LongGenericCleanup',
      ),
      { name: 'spend', type: 'FloatGenericCleanup' },
    ],
    description:
      'acts like a SQL HAVING: applied after the main report, removes rows whose metric is below or above a threshold; every field optional',
    provenance: 'spec',
  },
  cleanup('LongGenericCleanup', 'Long'),
  cleanup('FloatGenericCleanup', 'Float'),
  {
    name: 'CohortWindow',
    fields: [
      { name: 'amount', type: 'Int!' },
      { name: 'period', type: 'Period!' },
    ],
    description:
      'when a cohortType is set, the maximum time after the install or touch within which an event is counted',
    provenance: 'spec',
  },
  {
    name: 'Context',
    fields: [
      {
        name: 'priority',
        type: 'Int',
        default: null,
        description: 'query priority; higher priority gets precedence for computational resources',
      },
      {
        name: 'sqlTimeZone',
        type: 'String',
        default: null,
        description:
          'time zone name (a valid Joda-Time zone id) used for results and for date inputs that carry no zone of their own',
      },
    ],
    description: 'execution context; all optional',
    provenance: 'spec',
  },
  {
    name: 'Options',
    fields: [
      {
        name: 'removeZeroRows',
        type: 'Boolean!',
        default: false,
        description: 'when true, empty rows are removed from the results',
      },
    ],
    description: 'execution flags',
    provenance: 'spec',
  },
  {
    name: 'CreateAsyncPivotInput',
    fields: [
      { name: 'from', type: 'DateTime!' },
      { name: 'to', type: 'DateTime!' },
      { name: 'options', type: 'Options', default: null },
      { name: 'dimensions', type: '[String!]', default: null, description: 'names of PivotDimensions fields' },
      { name: 'metrics', type: '[String!]', default: null, description: 'names of PivotMetrics fields' },
      { name: 'filter', type: 'Filter', default: null },
      { name: 'cleanup', type: 'Cleanup', default: null },
      { name: 'cohortType', type: 'CohortType', default: null },
      { name: 'cohortWindow', type: 'CohortWindow', default: null },
      { name: 'context', type: 'Context', default: null },
      { name: 'quality_type', type: 'QualityType', default: null },
    ],
    description: 'the input of createAsyncPivot',
    provenance: 'spec',
  },
];
