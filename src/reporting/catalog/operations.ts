import type { OperationDef } from './types.js';

/** Every operation of the spec: four queries and one mutation. */
export const OPERATIONS: readonly OperationDef[] = [
  {
    name: 'pivot',
    kind: 'query',
    returns: 'Pivot!',
    description:
      'synchronous report: the selected dimension fields of `results` define the grouping, the metric fields the values',
    args: [
      { name: 'from', type: 'DateTime!', description: 'start of range (inclusive)' },
      { name: 'to', type: 'DateTime!', description: 'end of range; this instant is not included' },
      { name: 'filter', type: 'Filter', default: null, description: 'WHERE-like filter' },
      { name: 'cleanup', type: 'Cleanup', default: null, description: 'HAVING-like filter applied after the report' },
      { name: 'cohortType', type: 'CohortType', default: null, description: 'cohort bucketing' },
      { name: 'cohortWindow', type: 'CohortWindow', default: null, description: 'used when cohortType is set' },
      { name: 'context', type: 'Context', default: null, description: 'execution context' },
      { name: 'quality_type', type: 'QualityType', default: null, description: 'quality variant to compute' },
      { name: 'options', type: 'Options', default: null, description: 'execution flags' },
      {
        name: 'appendCtvData',
        type: 'Boolean!',
        default: false,
        description:
          'when true, connected-TV rows are appended (union with mobile data); use the four ...CtvNormalized String ' +
          'fields instead of integer id fields',
      },
      {
        name: 'campaignChannel',
        type: 'CampaignChannel',
        default: null,
        description:
          'MOBILE (default behaviour), CTV, or ALL (equivalent to appendCtvData true); supersedes appendCtvData when ' +
          'both are given; the appendCtvData field restrictions apply whenever it is not MOBILE',
      },
    ],
  },
  {
    name: 'asyncPivot',
    kind: 'query',
    returns: 'AsyncPivot!',
    description: 'the status and parameters of one asynchronous pivot',
    args: [{ name: 'pivotId', type: 'String!', description: 'the id of the job' }],
  },
  {
    name: 'asyncPivots',
    kind: 'query',
    returns: '[AsyncPivot!]!',
    description: 'the status of the given asynchronous pivots',
    args: [{ name: 'pivotIds', type: '[String!]', default: null, description: 'ids of the jobs' }],
  },
  {
    name: 'postbackShare',
    kind: 'query',
    returns: 'PostbackShare!',
    description: 'count and percentage per distinct value of the given postback keys',
    args: [
      { name: 'from', type: 'DateTime!', description: 'start date' },
      { name: 'to', type: 'DateTime!', description: 'end date, exclusive' },
      { name: 'track', type: 'PostbackTrack!', description: 'which track to analyze (events or installs)' },
      {
        name: 'postbackKeys',
        type: '[String!]!',
        description: 'postback keys to extract: direct columns or keys of map-type columns',
      },
      {
        name: 'filter',
        type: 'Filter',
        default: null,
        description: 'must include `appId` with `equals`, i.e. `filter: { appId: { equals: <app_id> } }`',
      },
      { name: 'includeRevenue', type: 'Boolean!', default: false, description: 'include revenue aggregation' },
      {
        name: 'revenueKey',
        type: 'String!',
        default: 'agg_value_usd',
        description: 'postback key used for revenue; used only when revenue is included',
      },
      {
        name: 'organic',
        type: 'Boolean!',
        default: false,
        description: 'true queries the organic tables; false queries the attributed tables',
      },
    ],
  },
  {
    name: 'createAsyncPivot',
    kind: 'mutation',
    returns: 'CreateAsyncPivotResponse!',
    description:
      'creates an asynchronous pivot (initial status PENDING); its CSV is reachable at `url` when the status is READY',
    args: [{ name: 'Input', type: 'CreateAsyncPivotInput!', description: 'the report to run (capital I)' }],
  },
];
