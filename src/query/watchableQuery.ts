/** What of an ad-hoc query an alert rule can watch ("Watch this"): its metrics, and whether it has rows to watch one by one. */
import type { ReportDefinition } from '../reports/index.js';
import { compileQuery, type QueryOptions } from './compileQuery.js';

export interface WatchableQuery {
  /** The metrics' output keys. */
  metrics: string[];
  /** Whether the query breaks down by something other than the date (rows a rule can watch one by one). */
  byEntity: boolean;
  /** The query as understood, when the compiler describes it. */
  understood?: string;
  definition: ReportDefinition;
}

/**
 * The watchable shape of `text`; undefined for a run command or a query that does not compile.
 *
 * @example watchableQuery('spend installs by countryCode yesterday', options) // { metrics: ['spend', 'installs'], byEntity: true, … }
 */
export function watchableQuery(text: string, options: QueryOptions): WatchableQuery | undefined {
  let compiled: ReturnType<typeof compileQuery>;
  try {
    compiled = compileQuery(text, options);
  } catch {
    return undefined;
  }
  if (compiled.kind === 'run') return undefined;
  const { definition } = compiled;
  const { query, description } = definition;
  const key = (f: (typeof query.metrics)[number]) => (typeof f === 'string' ? f : (f.as ?? f.name));
  const dimension = (f: (typeof query.dimensions)[number]) => (typeof f === 'string' ? f : f.name);
  return {
    metrics: query.metrics.map(key),
    byEntity: query.dimensions.some((d) => dimension(d) !== 'date'),
    ...(description ? { understood: description } : {}),
    definition,
  };
}
