import type { PivotRequest } from '../reporting/index.js';

/** The output keys of a request (alias or name), metrics and dimensions apart. */
export function outputKeys(request: Pick<PivotRequest, 'metrics' | 'dimensions'>): {
  metrics: string[];
  dimensions: string[];
} {
  return {
    metrics: request.metrics.map((m) => m.alias ?? m.name),
    dimensions: request.dimensions.map((d) => d.alias ?? d.name),
  };
}

/** The output key among `keys` that `written` names, ignoring case (`installscpi` → `installsCpi`). */
export function resolveKey(written: string, keys: readonly string[]): string | undefined {
  if (keys.includes(written)) return written;
  const lower = written.toLowerCase();
  return keys.find((k) => k.toLowerCase() === lower);
}
