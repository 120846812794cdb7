/**
 * Explanations where the bot reports a change: the KPIs of a report (a digest's headline, an
 * ad-hoc query's metrics) explained against the report's comparison period through the Reporting
 * Service, one explanation per KPI under the query budget.
 */
import type { Logger } from '../core/index.js';
import {
  createReportingSource,
  DEFAULT_BUDGET,
  DEFAULT_REPORTING_DIMENSIONS,
  type Explanation,
  explain,
  explainKind,
  type MetricParts,
  metricParts,
  type SharedPivotArguments,
} from '../explain/index.js';
import type { ExplainedMetric } from '../render/index.js';
import { getMetric, type PivotRequest, type ReportingClient } from '../reporting/index.js';
import {
  compileReport,
  describeColumn,
  humanize,
  type RangeSpec,
  type ReportDefinition,
  type ReportView,
  resolveKey,
} from '../reports/index.js';
import { explanationWords } from './explanationWords.js';

/** Headline KPIs that moved less than this (relative) get no explanation by default. */
export const DEFAULT_EXPLAIN_THRESHOLD = 0.1;

/** Reporting Service calls one request's explanations may make in all (two metrics' full searches). */
export const REQUEST_QUERY_BUDGET = 2 * DEFAULT_BUDGET;

/** How long one request's explanations may take in all; what is not explained by then is skipped. */
export const REQUEST_DEADLINE_MS = 60_000;

/**
 * One request's bounds, shared by every metric it explains: the queries left and the instant by
 * which it stops (`/pivot why`, `why?`, a digest's explanation step, an incident's reply).
 */
export interface ExplainBounds {
  /** Default `REQUEST_QUERY_BUDGET`. */
  queries?: number;
  /** Default `REQUEST_DEADLINE_MS` after the request starts (`deps.clock`). */
  deadline?: Date;
}

const TIME_RAN_OUT = "this request's time ran out";

export interface ExplainDeps {
  client: ReportingClient;
  logger: Logger;
  defaultTimeZone: string;
  signal?: AbortSignal;
  /** The clock the deadline is read on (default the system's). */
  clock?: () => Date;
}

export interface ExplainTarget {
  report: { id: string; definition: ReportDefinition };
  /** The instant the report's ranges are relative to (a slot); default now. */
  asOf: Date;
  range?: RangeSpec;
  /** Output keys of the metrics to explain; default every metric of the query. */
  metrics?: readonly string[];
  /** Dimensions left out of the candidates (an alert's entity: one value each). */
  exclude?: readonly string[];
  /** The request's query budget and deadline, shared by its metrics. */
  bounds?: ExplainBounds;
}

export interface ExplainedReport {
  /** `Yesterday (Tue 24 Nov 2026) vs same day last week`. */
  periods: string;
  timezone: string;
  metrics: Array<ExplainedMetric & { explanation: Explanation }>;
  /** Metrics that could not be explained, each with the reason in the user's words. */
  skipped: Array<{ label: string; reason: string }>;
}

/** Whether an explained change is at least `threshold` (a fraction) of its baseline; any change from a zero baseline counts. */
export function movedPast(explanation: Pick<Explanation, 'change' | 'baseline'>, threshold: number): boolean {
  if (explanation.change === 0) return false;
  if (explanation.baseline === 0) return true;
  return Math.abs(explanation.change / explanation.baseline) >= threshold;
}

/** A metric's volume unit: counts (installs, clicks, impressions, events) and money have noise that grows with size. */
function volumeUnit(parts: MetricParts): string | undefined {
  const volume = parts.kind === 'additive' ? parts.num : parts.den;
  return getMetric(volume.name)?.unit;
}

/** The pivot arguments besides range, filter and fields that every group-by keeps (channel, cohorts, quality). */
function sharedArguments(request: PivotRequest): SharedPivotArguments {
  return {
    ...(request.campaignChannel !== undefined ? { campaignChannel: request.campaignChannel } : {}),
    ...(request.appendCtvData !== undefined ? { appendCtvData: request.appendCtvData } : {}),
    ...(request.qualityType !== undefined ? { qualityType: request.qualityType } : {}),
    ...(request.cohortType !== undefined ? { cohortType: request.cohortType } : {}),
    ...(request.cohortWindow !== undefined ? { cohortWindow: request.cohortWindow } : {}),
  };
}

/** A report's `present.explain`, defaults applied; `enabled: false` when the report turned it off. */
export function explainSettings(definition: ReportDefinition): {
  enabled: boolean;
  threshold: number;
  dimensions?: readonly string[];
  budget?: number;
} {
  const written = definition.present.explain;
  if (written === false) return { enabled: false, threshold: DEFAULT_EXPLAIN_THRESHOLD };
  return {
    enabled: true,
    threshold: written?.threshold ?? DEFAULT_EXPLAIN_THRESHOLD,
    ...(written?.dimensions ? { dimensions: written.dimensions } : {}),
    ...(written?.budget !== undefined ? { budget: written.budget } : {}),
  };
}

/** `countryCode` → `Country code`: a dimension's name as the thread shows it. */
export function dimensionLabel(dimension: string): string {
  return humanize(dimension);
}

/**
 * Explains each chosen metric of a report between its range and its comparison period (the
 * previous period when the report compares with none). Metrics that cannot be split into
 * segments (unique counts, percentiles) are skipped with the reason.
 *
 * @example const why = await explainReport({ report, asOf: slot, metrics: ['installs'] }, deps);
 */
export async function explainReport(target: ExplainTarget, deps: ExplainDeps): Promise<ExplainedReport> {
  const definition: ReportDefinition =
    target.report.definition.present.compare === 'none'
      ? { ...target.report.definition, present: { ...target.report.definition.present, compare: 'previous_period' } }
      : target.report.definition;
  const compiled = compileReport(definition, {
    now: target.asOf,
    defaultTimeZone: deps.defaultTimeZone,
    ...(target.range !== undefined ? { range: target.range } : {}),
  });
  const request = compiled.request;
  const comparison = compiled.comparison;
  const out: ExplainedReport = {
    periods: `${compiled.range.label} vs ${comparison ? comparison.range.label : 'nothing'}`,
    timezone: compiled.timezone,
    metrics: [],
    skipped: [],
  };
  if (!request || !comparison) return out;
  const keys = request.metrics.map((m) => m.alias ?? m.name);
  const wanted = target.metrics ?? keys;
  const settings = explainSettings(definition);
  const candidates = settings.dimensions;
  const clock = deps.clock ?? (() => new Date());
  const limit = target.bounds?.queries ?? REQUEST_QUERY_BUDGET;
  const deadline = target.bounds?.deadline?.getTime() ?? clock().getTime() + REQUEST_DEADLINE_MS;
  // The deadline also stops a query in flight: the request's signal, aborted when its time is up.
  const timeUp = new AbortController();
  const timer = setTimeout(() => timeUp.abort(), Math.max(0, deadline - clock().getTime()));
  timer.unref();
  const signal = deps.signal ? AbortSignal.any([deps.signal, timeUp.signal]) : timeUp.signal;
  let used = 0;
  try {
    for (const key of wanted) {
      const selection = request.metrics[keys.indexOf(resolveKey(key, keys) ?? key)];
      if (!selection) continue;
      const column = describeColumn({ key, name: selection.name, kind: 'metric', args: selection.args ?? {} });
      const over = used >= limit ? `this request's ${limit} queries were spent on the metrics before it` : undefined;
      const late = timeUp.signal.aborted || clock().getTime() >= deadline ? TIME_RAN_OUT : undefined;
      if (over ?? late) {
        out.skipped.push({ label: column.label, reason: (over ?? late) as string });
        continue;
      }
      const explanation = await explainOne(
        { key, selection, definition, target, settings, candidates, budget: limit - used },
        { request, comparison, timezone: compiled.timezone },
        { ...deps, signal },
      ).catch((error: unknown) => {
        if (timeUp.signal.aborted && !deps.signal?.aborted) return undefined;
        throw error;
      });
      if (explanation === undefined) {
        out.skipped.push({ label: column.label, reason: TIME_RAN_OUT });
        continue;
      }
      if ('notExplainable' in explanation) {
        out.skipped.push({ label: column.label, reason: explanation.notExplainable });
        continue;
      }
      used += explanation.queries;
      const words = explanationWords(explanation, {
        metric: selection.name,
        unit: column.unit,
        labelOf: dimensionLabel,
      });
      out.metrics.push({ label: column.label, unit: column.unit, explanation, words });
    }
  } finally {
    clearTimeout(timer);
  }
  return out;
}

/** One metric's explanation under what is left of the request's budget, or why it cannot be split. */
async function explainOne(
  what: {
    key: string;
    selection: PivotRequest['metrics'][number];
    definition: ReportDefinition;
    target: ExplainTarget;
    settings: ReturnType<typeof explainSettings>;
    candidates: readonly string[] | undefined;
    budget: number;
  },
  periods: { request: PivotRequest; comparison: { request: PivotRequest }; timezone: string },
  deps: ExplainDeps & { signal: AbortSignal },
): Promise<Explanation | { notExplainable: string }> {
  const { key, selection, target, settings, candidates } = what;
  const { request, comparison } = periods;
  let parts: MetricParts;
  try {
    parts = metricParts(selection);
  } catch (error) {
    return { notExplainable: (error as Error).message };
  }
  const source = createReportingSource({
    client: deps.client,
    parts,
    current: { from: request.from, to: request.to },
    baseline: { from: comparison.request.from, to: comparison.request.to },
    ...(request.filter ? { baseFilter: request.filter } : {}),
    timezone: periods.timezone,
    now: () => target.asOf,
    pivot: sharedArguments(request),
    signal: deps.signal,
  });
  const dimensions = (candidates ?? DEFAULT_REPORTING_DIMENSIONS).filter((d) => !target.exclude?.includes(d));
  const explanation: Explanation = await explain(
    {
      ...explainKind(parts),
      metric: key,
      counts: volumeUnit(parts) === 'count',
      amounts: volumeUnit(parts) === 'currency',
      dimensions,
      budget: Math.min(settings.budget ?? DEFAULT_BUDGET, what.budget),
    },
    source,
  );
  deps.logger.debug(
    { report: target.report.id, metric: key, queries: explanation.queries, diffuse: explanation.diffuse },
    'explained',
  );
  return explanation;
}

/**
 * The headline KPIs of a run that moved past the report's `present.explain` threshold against its
 * comparison: what its digest explains. Undefined when none moved or explanations are off.
 *
 * @example movedHeadline(view, report.definition) // ['installs']
 */
export function movedHeadline(view: ReportView, definition: ReportDefinition): string[] | undefined {
  const settings = explainSettings(definition);
  if (!settings.enabled || !view.comparison) return undefined;
  const moved = view.headline.filter((key) => {
    const percent = view.comparison?.totals[key]?.percent;
    return percent !== null && percent !== undefined && Math.abs(percent) >= settings.threshold;
  });
  return moved.length > 0 ? moved : undefined;
}

/**
 * The explanations of a run's headline KPIs that moved past the report's `present.explain`
 * threshold against its comparison; undefined when none moved, explanations are off, or they
 * failed (logged: the digest goes out without them).
 *
 * @example const explained = await explainMoved(view, { report, asOf: slot }, deps);
 */
export async function explainMoved(
  view: ReportView,
  target: { report: { id: string; definition: ReportDefinition }; asOf: Date; range?: RangeSpec | undefined },
  deps: ExplainDeps,
): Promise<ExplainedReport | undefined> {
  const moved = movedHeadline(view, target.report.definition);
  if (!moved) return undefined;
  try {
    return await explainReport(
      {
        report: target.report,
        asOf: target.asOf,
        metrics: moved,
        ...(target.range !== undefined ? { range: target.range } : {}),
      },
      deps,
    );
  } catch (error) {
    deps.logger.warn({ err: error, report: view.reportId }, 'could not explain the moves; posting without them');
    return undefined;
  }
}
