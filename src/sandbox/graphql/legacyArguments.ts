/**
 * What the sandbox accepts beyond the interface, for clients written against an older form of it:
 * the deprecated `granularity` of `pivot` (and of CreateAsyncPivotInput), which the official Python
 * client (jampp/reporting-api-client) writes in its README example and its `pivot(granularity=…)`.
 * Kept out of the catalog, which is the spec as the bot reads it.
 */

export interface LegacyArgument {
  /** The operation (`pivot`) or input type (`CreateAsyncPivotInput`) it belongs to. */
  owner: string;
  name: string;
  /** GraphQL type notation; nullable, as a deprecated argument must be. */
  type: string;
  description: string;
  deprecationReason: string;
}

const DEFAULTS_DATE =
  'the granularity of every `date` (and `dateToStr`, `timeOfDay`) field that gives none of its own; default DAILY';

export const LEGACY_ARGUMENTS: readonly LegacyArgument[] = [
  {
    owner: 'pivot',
    name: 'granularity',
    type: 'Granularity',
    description: DEFAULTS_DATE,
    deprecationReason:
      'Use date(granularity: …) in results. Accepted because the official Python client writes pivot(…, granularity: DAILY).',
  },
  {
    owner: 'CreateAsyncPivotInput',
    name: 'granularity',
    type: 'Granularity',
    description: `${DEFAULTS_DATE}; echoed in pivotParams.granularity`,
    deprecationReason:
      'Not in the interface; accepted as on pivot(granularity:) for clients written against its older form.',
  },
];

/** The legacy arguments of one operation or input type. */
export function legacyArgumentsOf(owner: string): readonly LegacyArgument[] {
  return LEGACY_ARGUMENTS.filter((a) => a.owner === owner);
}
