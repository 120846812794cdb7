/**
 * An alert's entity as values: one part per non-time dimension of the observed row (dimension,
 * value, and the id a name is filtered by when the row carried it), kept from the observation to
 * the stored incident. The entity key stays its identity only; nothing parses it, except the
 * tolerant reader of incidents written before the entity was stored.
 */
import { getDimension, type PivotRow } from '../reporting/index.js';
import type { ViewColumn } from '../reports/index.js';
import type { AlertIncident, EntityPart } from '../store/index.js';

export type { EntityPart };

/**
 * The parts of the entity a row stands for: each dimension's catalog name and value (null where
 * the service answered none), and for a name dimension its id when the row has the id column too
 * (`campaign` beside `campaignId`).
 *
 * @example entityParts(dimensions, { campaign: 'Summer Sale', campaignId: 1001 }) // [{ dimension: 'campaign', value: 'Summer Sale', id: 1001 }, { dimension: 'campaignId', value: '1001' }]
 */
export function entityParts(dimensions: readonly ViewColumn[], row: PivotRow): EntityPart[] {
  return dimensions.map((d) => {
    const cell = row[d.key];
    const part: EntityPart = { dimension: d.name, value: cell === null || cell === undefined ? null : String(cell) };
    const idField = getDimension(d.name)?.idFilter;
    const idColumn = dimensions.find((c) => idField !== undefined && c.name === idField);
    const idCell = idColumn === undefined ? null : row[idColumn.key];
    const id = idCell === null || idCell === undefined ? Number.NaN : Number(idCell);
    if (Number.isSafeInteger(id)) part.id = id;
    return part;
  });
}

/**
 * The entity of a stored incident: its parts, or for a record written before they were stored,
 * its key read back (`dimension=value` pairs joined by `|`; a `|` inside a value is kept when the
 * text after it does not start a new `name=` pair). The total has no part.
 *
 * @example incidentEntity({ entityKey: 'countryCode=BR|source=Vungle', … }) // [{ dimension: 'countryCode', value: 'BR' }, { dimension: 'source', value: 'Vungle' }]
 */
export function incidentEntity(incident: Pick<AlertIncident, 'entity' | 'entityKey'>): EntityPart[] {
  if (incident.entity !== undefined) return incident.entity;
  const key = incident.entityKey;
  if (key === 'total' || key === '') return [];
  return key.split(/\|(?=[A-Za-z][A-Za-z0-9_]*=)/).flatMap((pair) => {
    const at = pair.indexOf('=');
    if (at <= 0) return [];
    const value = pair.slice(at + 1);
    return [{ dimension: pair.slice(0, at), value: value === '(none)' ? null : value }];
  });
}
