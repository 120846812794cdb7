import type { ArgumentDef } from './types.js';

const BOOLEAN_RESTRICTION_NOTE =
  'The spec types this Boolean! and gives no default. A non-null argument without a default would be mandatory on ' +
  'every installs query, which the spec clearly does not intend (installs is usable without it). We keep the ' +
  'spec\'s type Boolean! and give it the default false, read as "no restriction" (as `assisted: false` is), so the ' +
  'argument is optional; true restricts. There is therefore no way to ask for the complement (only false rows). ' +
  'Source: reporting-service-facts.md ("the ! suggests these are required when given, with defaults like ALL/false").';

/** The metric arguments of the spec's "Metric arguments" table, in its order. */
export const METRIC_ARGUMENTS: readonly ArgumentDef[] = [
  { name: 'attrSource', type: 'AttrSource!', default: 'ALL', description: 'restrict by attribution source' },
  { name: 'attrTouch', type: 'AttrTouch!', default: 'ALL', description: 'restrict by touch type' },
  { name: 'attrTechnique', type: 'AttrTechnique!', default: 'ALL', description: 'restrict by MMP technique' },
  {
    name: 'skadAttributionFlag',
    type: 'SkanAttributionFlag!',
    default: 'ALL',
    description: 'restrict by framework attribution flag',
  },
  {
    name: 'eventId',
    type: 'Int',
    description: 'restricts to one event id; when undefined, all events are aggregated',
  },
  { name: 'vtaWindow', type: 'Int', description: 'hours between impression and event/install' },
  { name: 'ctaWindow', type: 'Int', description: 'hours between click and event/install' },
  {
    name: 'assisted',
    type: 'Boolean!',
    default: false,
    description:
      'compute from assisted conversions (installs/events attributed to other media sources but touched by the service)',
  },
  {
    name: 'hasCv',
    type: 'Boolean!',
    default: false,
    description: 'restricts to framework installs with a non-null conversion value in the postback',
    provenance: 'decided',
    note: BOOLEAN_RESTRICTION_NOTE,
  },
  {
    name: 'reinstall',
    type: 'Boolean!',
    default: false,
    description: 'restricts to framework installs whose postback has reinstall=true',
    provenance: 'decided',
    note: BOOLEAN_RESTRICTION_NOTE,
  },
];
