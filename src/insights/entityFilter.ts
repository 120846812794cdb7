/**
 * From an incident's entity (its parts: dimension, value, id) to the report filter that narrows
 * the report to it, as the Reporting Service filters: text and enum dimensions by value, id
 * dimensions by number, name dimensions (`campaign`, `source`, `app`, `ad`…) by their id. A name
 * whose id the observed row did not carry is looked up with one pivot of the name and its id.
 */
import type { EntityPart } from '../alerts/index.js';
import {
  collectPivotProblems,
  findDimension,
  getDimension,
  type InputValue,
  type PivotRequest,
  type ReportingClient,
} from '../reporting/index.js';
import { canonicalDimension, findInputField, humanize, type ReportDefinition } from '../reports/index.js';

/** The filter entries the entity adds (YAML shape: a value is `equals`, a list `isIn`), and the dimensions it pins. */
export interface EntityFilter {
  filter: Record<string, InputValue>;
  /** Catalog dimensions that hold one value under the filter: left out of the candidates. */
  pinned: string[];
}

/** Why the report cannot be narrowed to the entity. */
export interface EntityRefusal {
  reason: 'no_value' | 'not_filterable';
  detail: string;
}

export interface EntityLookup {
  client: Pick<ReportingClient, 'pivot'>;
  /** The request of the period judged (its range, filter and channel): the lookup asks the same. */
  request: PivotRequest;
  /** The instant judged (the API's age limits are checked against it). */
  now: Date;
  signal?: AbortSignal;
}

/**
 * The filter narrowing a report to `entity`, or why it cannot be narrowed. Parts named by a column
 * alias (records written before entities were stored) are read through the report's dimensions.
 *
 * @example await entityFilter([{ dimension: 'campaign', value: 'Summer Sale', id: 1001 }], definition, lookup)
 * // { filter: { campaignId: 1001 }, pinned: ['campaign', 'campaignId'] }
 */
export async function entityFilter(
  entity: readonly EntityPart[],
  definition: ReportDefinition,
  lookup: EntityLookup,
): Promise<EntityFilter | EntityRefusal> {
  const out: EntityFilter = { filter: {}, pinned: [] };
  for (const part of entity) {
    const dimension = dimensionOf(part.dimension, definition);
    const label = humanize(dimension);
    if (part.value === null) {
      return {
        reason: 'no_value',
        detail: `${label} has no value for this entity ("(none)"), and the Reporting Service cannot filter on a missing value`,
      };
    }
    const def = getDimension(dimension);
    out.pinned.push(dimension);
    if (def?.idFilter !== undefined) {
      const ids = part.id !== undefined ? [part.id] : await idsOfName(dimension, def.idFilter, part.value, lookup);
      if ('detail' in ids) return ids;
      out.filter[def.idFilter] = ids.length === 1 ? (ids[0] as number) : ids;
      out.pinned.push(def.idFilter);
      continue;
    }
    const field = findInputField('Filter', dimension);
    if (field === undefined || field.type === 'Boolean') {
      return {
        reason: 'not_filterable',
        detail: `the Reporting Service has no filter on ${label} (${dimension})`,
      };
    }
    if (field.type === 'IntGenericFilter') {
      const n = Number(part.value);
      if (!/^-?\d+$/.test(part.value) || !Number.isSafeInteger(n)) {
        return { reason: 'not_filterable', detail: `${label} "${part.value}" is not an id the service can filter on` };
      }
      out.filter[field.name] = n;
    } else out.filter[field.name] = part.value;
  }
  return out;
}

/** The catalog dimension a part names: itself, or the dimension a report column alias stands for. */
function dimensionOf(name: string, definition: ReportDefinition): string {
  if (getDimension(name)) return name;
  for (const written of definition.query.dimensions) {
    const selection = canonicalDimension(written);
    if (selection.alias === name) return selection.name;
  }
  return findDimension(name)?.name ?? name;
}

/** The ids a name stands for in the judged period: one pivot of the name and its id field. */
async function idsOfName(
  dimension: string,
  idField: string,
  name: string,
  lookup: EntityLookup,
): Promise<number[] | EntityRefusal> {
  const label = humanize(dimension);
  const first = lookup.request.metrics[0];
  const request: PivotRequest = {
    ...lookup.request,
    dimensions: [{ name: dimension }, { name: idField }],
    metrics: first ? [first] : [],
    totals: false,
  };
  const problem = collectPivotProblems(request, { mode: 'sync', now: lookup.now }).problems[0];
  if (problem) {
    return {
      reason: 'not_filterable',
      detail: `the Reporting Service filters ${label} by ${idField}, and this report cannot ask for it: ${problem.message}`,
    };
  }
  const { rows } = await lookup.client.pivot(request, lookup.signal ? { signal: lookup.signal } : {});
  const ids = [
    ...new Set(rows.filter((r) => String(r[dimension] ?? '') === name).map((r) => Number(r[idField]))),
  ].filter((n) => Number.isSafeInteger(n));
  if (ids.length === 0) {
    return {
      reason: 'not_filterable',
      detail: `no ${idField} was found for ${label} "${name}" in the period, so the report cannot be narrowed to it`,
    };
  }
  return ids.sort((a, b) => a - b);
}
