import type { CampaignChannel, PivotRequest, PostbackShareRequest } from '../reporting/index.js';
import { canonicalTimeZone } from '../time/index.js';
import { canonicalDimension, canonicalEnumValue, canonicalMetric, type Selection } from './canonical.js';
import { compileCleanup, compileFilter } from './compileFilter.js';
import { type Comparison, previousRange, type RangeSpec, type ResolvedRange, resolveRange } from './resolveRange.js';
import type { ReportDefinition } from './schema.js';

export interface CompileOptions {
  now: Date;
  /** Zone for definitions that name none (PIVOTBOT_TIMEZONE); default UTC. */
  defaultTimeZone?: string;
  /** Overrides the definition's range (`pivotbot run daily-kpi --range last_7_days`, `/pivot run x last_week`). */
  range?: RangeSpec;
}

export interface CompiledReport {
  /** Absent for postbackShare-only reports (no metrics). */
  request?: PivotRequest;
  range: ResolvedRange;
  timezone: string;
  comparison?: { kind: Exclude<Comparison, 'none'>; range: ResolvedRange; request: PivotRequest };
  postbacks?: PostbackShareRequest;
  /** Where compiled names came from, to point errors at the YAML: filter/cleanup keys as written, date offset. */
  source: { filterKeys: Map<string, string>; cleanupKeys: Map<string, string>; addedDate: boolean };
}

const CHANNELS: Record<string, CampaignChannel> = { mobile: 'MOBILE', ctv: 'CTV', all: 'ALL' };

/**
 * Compiles a definition and a range into the typed requests the client sends: the pivot, the
 * comparison period's pivot when `present.compare` asks for one, and the postbackShare request.
 * Names are made canonical; nothing is validated here (see `checkReport` / `validatePivot`).
 * Throws `RangeSpecError` for a range or time zone that cannot be resolved.
 *
 * @example const { request, range } = compileReport(definition, { now: new Date(), defaultTimeZone: 'UTC' });
 */
export function compileReport(definition: ReportDefinition, options: CompileOptions): CompiledReport {
  const q = definition.query;
  const written = q.timezone ?? options.defaultTimeZone ?? 'UTC';
  const timezone = canonicalTimeZone(written) ?? written;
  const range = resolveRange(options.range ?? q.range, timezone, options.now);
  const source = { filterKeys: new Map<string, string>(), cleanupKeys: new Map<string, string>(), addedDate: false };

  let request: PivotRequest | undefined;
  if (q.metrics.length > 0 || q.dimensions.length > 0) {
    const dimensions: Selection[] = q.dimensions.map(canonicalDimension);
    if (q.granularity !== undefined) {
      const granularity = canonicalEnumValue('Granularity', q.granularity) as string;
      const date = dimensions.find((d) => d.name === 'date');
      if (date) date.args = { granularity, ...date.args };
      else {
        dimensions.unshift({ name: 'date', args: { granularity } });
        source.addedDate = true;
      }
    }
    const built: PivotRequest = {
      from: range.from,
      to: range.to,
      dimensions,
      metrics: q.metrics.map(canonicalMetric),
      context: {
        sqlTimeZone: timezone,
        ...(q.options?.priority !== undefined ? { priority: q.options.priority } : {}),
      },
    };
    if (q.filter) {
      const { filter, keys } = compileFilter(q.filter);
      built.filter = filter;
      source.filterKeys = keys;
    }
    if (q.cleanup) {
      const { cleanup, keys } = compileCleanup(q.cleanup);
      built.cleanup = cleanup;
      source.cleanupKeys = keys;
    }
    if (q.cohort) {
      built.cohortType = canonicalEnumValue('CohortType', q.cohort.type) as string;
      if (q.cohort.window) {
        built.cohortWindow = {
          amount: q.cohort.window.amount,
          period: canonicalEnumValue('Period', q.cohort.window.period) as string,
        };
      }
    }
    if (q.quality !== undefined) built.qualityType = canonicalEnumValue('QualityType', q.quality) as string;
    if (q.channel !== undefined) built.campaignChannel = CHANNELS[q.channel] ?? 'MOBILE';
    if (q.options?.removeZeroRows !== undefined) built.options = { removeZeroRows: q.options.removeZeroRows };
    request = built;
  }

  const compiled: CompiledReport = { range, timezone, source };
  if (request) compiled.request = request;
  const kind = definition.present.compare;
  if (request && kind !== 'none') {
    const previous = previousRange(range, kind);
    compiled.comparison = { kind, range: previous, request: { ...request, from: previous.from, to: previous.to } };
  }
  if (q.postbacks) {
    const p = q.postbacks;
    const postbacks: PostbackShareRequest = {
      from: range.from,
      to: range.to,
      track: p.track.toUpperCase(),
      postbackKeys: p.keys,
      appId: p.appId,
    };
    if (p.includeRevenue !== undefined) postbacks.includeRevenue = p.includeRevenue;
    if (p.revenueKey !== undefined) postbacks.revenueKey = p.revenueKey;
    if (p.organic !== undefined) postbacks.organic = p.organic;
    compiled.postbacks = postbacks;
  }
  return compiled;
}
