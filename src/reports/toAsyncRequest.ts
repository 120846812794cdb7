import type { PivotRequest } from '../reporting/index.js';

/**
 * The request as an async pivot takes it — plain dimension and metric names — or undefined when it
 * cannot travel that way (metric arguments, aliases). A `date` granularity is dropped: the spec's
 * async input has no granularity.
 *
 * @example toAsyncRequest({ …, dimensions: [{ name: 'date', args: { granularity: 'DAILY' } }] }).dimensions // [{ name: 'date' }]
 */
export function toAsyncRequest(request: PivotRequest): PivotRequest | undefined {
  if (request.metrics.some((m) => m.alias !== undefined || Object.keys(m.args ?? {}).length > 0)) return undefined;
  const plainDimension = (d: PivotRequest['dimensions'][number]) =>
    d.alias === undefined && Object.keys(d.args ?? {}).every((a) => d.name === 'date' && a === 'granularity');
  if (!request.dimensions.every(plainDimension)) return undefined;
  return {
    ...request,
    dimensions: request.dimensions.map((d) => ({ name: d.name })),
    metrics: request.metrics.map((m) => ({ name: m.name })),
  };
}

/** True when an async pivot can carry the request. */
export function asyncable(request: PivotRequest): boolean {
  return toAsyncRequest(request) !== undefined;
}
