/**
 * An alert's entity as a query: the report's query narrowed to the entity the way the Reporting
 * Service filters (`entityFilter`): text and enum dimensions by value, a name (`campaign`, `source`,
 * `app`…) by its id field, looked up with one pivot when the entity does not carry the id. Used
 * where a follow-up refines an alert thread's query and where "Watch this" watches one row.
 */
import { type EntityPart, incidentEntity } from '../../alerts/index.js';
import { entityFilter } from '../../insights/index.js';
import { entityQueryOf } from '../../query/index.js';
import type { ReportingClient } from '../../reporting/index.js';
import { compileReport, type ReportDefinition } from '../../reports/index.js';

export interface EntityQueryDeps {
  client: Pick<ReportingClient, 'pivot'>;
  /** The instant the report's range is read at (the look-up asks that period). */
  now: Date;
  defaultTimeZone: string;
  signal?: AbortSignal;
}

/**
 * The entity's parts: given, or read from its key (`campaign=US | iOS | Summer|countryCode=BR`: a `|`
 * inside a value is kept unless a `name=` pair follows it). A name part takes the id a sibling part
 * holds (`campaign=Summer|campaignId=1001`), so no look-up is needed for it.
 */
export function partsOf(entity: string | readonly EntityPart[]): EntityPart[] {
  const parts = typeof entity === 'string' ? incidentEntity({ entityKey: entity }) : [...entity];
  return parts.map((part) => {
    if (part.id !== undefined || part.value === null) return part;
    const sibling = parts.find((p) => p.dimension === `${part.dimension}Id` && p.value !== null);
    const id = Number(sibling?.value);
    return sibling && /^\d+$/.test(sibling.value ?? '') && Number.isSafeInteger(id) ? { ...part, id } : part;
  });
}

/**
 * The report's query narrowed to `entity`, or why it cannot be (a part with no value, a dimension
 * the service cannot filter on, a name whose id is not found, a query the language cannot say).
 * Throws what the Reporting Service throws during a look-up.
 *
 * @example await entityQuery(definition, 'campaign=Summer Sale', deps) // { query: 'installs by campaign yesterday where campaignId = 1001' }
 */
export async function entityQuery(
  definition: ReportDefinition,
  entity: string | readonly EntityPart[],
  deps: EntityQueryDeps,
): Promise<{ query: string } | { refused: string }> {
  const compiled = compileReport(definition, { now: deps.now, defaultTimeZone: deps.defaultTimeZone });
  if (!compiled.request) return { refused: 'the report has no query to narrow' };
  const narrowed = await entityFilter(partsOf(entity), definition, {
    client: deps.client,
    request: compiled.request,
    now: deps.now,
    ...(deps.signal ? { signal: deps.signal } : {}),
  });
  if ('reason' in narrowed) return { refused: narrowed.detail };
  const query = entityQueryOf(definition, narrowed.filter);
  return query === undefined ? { refused: 'the query language cannot say this report' } : { query };
}
