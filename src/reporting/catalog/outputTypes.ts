import type { OutputTypeDef } from './types.js';

/**
 * Output types other than Pivot, PivotResult, PivotTotals and PivotMetrics, which are derived from
 * DIMENSIONS and METRICS.
 */
export const OUTPUT_TYPES: readonly OutputTypeDef[] = [
  {
    name: 'AsyncPivot',
    fields: [
      { name: 'id', type: 'String!', description: 'unique id of the pivot' },
      { name: 'userId', type: 'Int!', description: 'id of the user that created it' },
      { name: 'pivotParams', type: 'PivotParams!', description: 'parameters of the report' },
      { name: 'status', type: 'AsyncPivotStatus!', description: 'status of the report' },
      { name: 'created', type: 'DateTime!', description: 'creation time' },
      { name: 'lastUpdated', type: 'DateTime!', description: 'time of the last status update' },
      { name: 'outputType', type: 'AsyncPivotOutputType!', description: 'type of output' },
      {
        name: 'url',
        type: 'String',
        description: 'address of the CSV file with the results; a signed URL once status is READY',
      },
    ],
    description: 'an asynchronous pivot job',
    provenance: 'spec',
  },
  {
    name: 'PivotParams',
    fields: [
      { name: 'from', type: 'DateTime!', description: 'range start' },
      { name: 'to', type: 'DateTime!', description: 'range end' },
      { name: 'options', type: 'String', description: 'JSON text of the options used' },
      { name: 'dimensions', type: '[String!]', description: 'dimensions used, by name' },
      { name: 'metrics', type: '[String!]', description: 'metrics used, by name' },
      { name: 'cleanup', type: 'String', description: 'JSON text of the cleanup used' },
      { name: 'granularity', type: 'Granularity', description: 'date truncation used' },
      { name: 'filter', type: 'String', description: 'JSON text of the filter used' },
      { name: 'cohortType', type: 'CohortType', description: 'cohort type used' },
      { name: 'cohortWindow', type: 'String', description: 'JSON text of the cohort window' },
      { name: 'context', type: 'String', description: 'JSON text of the context' },
    ],
    description: 'parameters used to run a pivot',
    provenance: 'spec',
  },
  {
    name: 'CreateAsyncPivotResponse',
    fields: [{ name: 'asyncPivot', type: 'AsyncPivot!' }],
    description: 'the answer of createAsyncPivot',
    provenance: 'spec',
  },
  {
    name: 'PostbackShare',
    fields: [{ name: 'results', type: '[PostbackShareResults]', description: 'one entry per requested postback key' }],
    description: 'distribution of postback values for the requested keys',
    provenance: 'spec',
  },
  {
    name: 'PostbackShareResults',
    fields: [
      { name: 'postbackKey', type: 'String', description: 'the postback key' },
      { name: 'results', type: '[PostbackShareResult]', description: 'one entry per distinct value of the key' },
      { name: 'totalCount', type: 'Long', description: 'number of postbacks over all values' },
      {
        name: 'totalRevenue',
        type: 'Float',
        description: 'sum of revenue over all values; null unless includeRevenue is true',
      },
    ],
    description: 'the distribution of one postback key',
    provenance: 'decided',
    note:
      'The spec names the four fields but not their types. Nullable types like most of the schema: the key is text, ' +
      'the count a Long like every other count, the revenue a Float like spend and eventValue. ' +
      'reporting-service-facts.md: "PostbackShareResult fields/types: not found".',
  },
  {
    name: 'PostbackShareResult',
    fields: [
      { name: 'value', type: 'String', description: 'the distinct postback value (as text; null for a missing value)' },
      { name: 'count', type: 'Long', description: 'number of postbacks carrying this value' },
      { name: 'percentage', type: 'Float', description: 'count / totalCount × 100' },
      {
        name: 'revenue',
        type: 'Float',
        description: 'sum of the revenueKey over postbacks carrying this value; null unless includeRevenue is true',
      },
    ],
    description: 'count and percentage of one distinct postback value',
    provenance: 'decided',
    note:
      'The spec says only "count and percentage per distinct value" and that revenue can be included; its fields are ' +
      '"not shown" and reporting-service-facts.md found no source. value/count/percentage/revenue follow that sentence; ' +
      'percentage is 0..100 as its name says.',
  },
];
