import { getDimension, getEnum, type PivotRequest } from '../reporting/index.js';
import { asyncable } from './toAsyncRequest.js';

export interface ModeChoice {
  mode: 'sync' | 'async';
  /** Why, for logs and warnings: `siteBundle over 30 days`. */
  reason: string;
}

export interface ModeOptions {
  /** Above this many estimated rows, `auto` goes async (default 200,000). */
  heavyRowEstimate?: number;
}

const DAY_MS = 86_400_000;
/** Rough distinct-value counts for the dimensions that drive result size; others count 50. */
const CARDINALITY: Readonly<Record<string, number>> = {
  siteBundle: 20_000,
  siteName: 20_000,
  zipCode: 40_000,
  city: 5_000,
  region: 1_000,
  dma: 210,
  ad: 2_000,
  adId: 2_000,
  adUrl: 2_000,
  countryCode: 200,
  countryName: 200,
  campaignCountry: 200,
  campaign: 500,
  campaignId: 500,
  group: 1_000,
  groupId: 1_000,
  app: 100,
  appId: 100,
  appBundle: 100,
  source: 30,
  sourceId: 30,
  dayOfWeek: 7,
  timeOfDay: 24,
};
const BUCKET_DAYS: Readonly<Record<string, number>> = {
  HOURLY: 1 / 24,
  DAILY: 1,
  WEEKLY: 7,
  MONTHLY: 30,
  QUARTERLY: 91,
  YEARLY: 365,
};

/** Estimated result rows: the product of each dimension's cardinality, dates counting their buckets. */
export function estimateRows(request: PivotRequest, days: number): number {
  let rows = 1;
  for (const d of request.dimensions) {
    if (d.name === 'date') {
      const bucket = BUCKET_DAYS[String(d.args?.granularity ?? 'DAILY')];
      rows *= bucket === undefined ? 1 : Math.max(1, Math.ceil(days / bucket));
      continue;
    }
    const def = getDimension(d.name);
    const enumSize = def?.kind === 'enum' ? getEnum(def.type.replace('!', ''))?.values.length : undefined;
    rows *= CARDINALITY[d.name] ?? enumSize ?? (def?.kind === 'flag' ? 2 : 50);
  }
  return rows;
}

/**
 * Picks sync or async. `auto` is sync unless the request is known to be heavy: siteBundle over
 * more than 7 days, hourly over more than 3 days, or a row estimate above the threshold — and only
 * if an async pivot can carry it (plain names).
 *
 * @example chooseMode(request, 'auto') // { mode: 'async', reason: 'siteBundle over 14 days' }
 */
export function chooseMode(
  request: PivotRequest,
  mode: 'sync' | 'async' | 'auto',
  options: ModeOptions = {},
): ModeChoice {
  if (mode !== 'auto') return { mode, reason: `mode ${mode}` };
  const days = (Date.parse(request.to) - Date.parse(request.from)) / DAY_MS;
  const shown = Math.round(days * 10) / 10;
  const heavy = (() => {
    if (request.dimensions.some((d) => d.name === 'siteBundle') && days > 7) return `siteBundle over ${shown} days`;
    if (request.dimensions.some((d) => d.name === 'date' && d.args?.granularity === 'HOURLY') && days > 3)
      return `hourly over ${shown} days`;
    const estimate = estimateRows(request, days);
    const limit = options.heavyRowEstimate ?? 200_000;
    return estimate > limit ? `about ${estimate} rows (over ${limit})` : undefined;
  })();
  if (heavy === undefined) return { mode: 'sync', reason: 'light request' };
  if (!asyncable(request)) return { mode: 'sync', reason: `${heavy}, but arguments or aliases need sync` };
  return { mode: 'async', reason: heavy };
}
