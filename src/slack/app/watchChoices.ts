/**
 * What the "Watch this" modal offers beyond its fixed fields: the answer's rows (to watch one),
 * and a threshold suggested from the chosen metric's recent daily values for the chosen row or
 * the total (`suggestThreshold`). Two requests: the answer's query again, and the metric by day
 * over the days before the answer's day (`trendRequest`).
 */
import {
  entitySeries,
  observeEntities,
  SUGGESTION_DAYS,
  suggestThreshold,
  type ThresholdSuggestion,
  TOTAL_KEY,
  trendRequest,
} from '../../alerts/index.js';
import type { ReportingClient } from '../../reporting/index.js';
import { type AlertRule, alertSchema, compileReport, type ReportDefinition, runReport } from '../../reports/index.js';

/** The modal's rows at most (Slack: 100 options in a select, two of them "each row" and "total"). */
export const WATCH_ROWS = 98;
/** A row's option value is `row:<entity key>`; Slack caps option values at 150 characters. */
const MAX_OPTION_VALUE = 150;
export const ROW_PREFIX = 'row:';

export interface WatchChoices {
  /** The answer's rows by entity key (`countryCode=BR`) and label (`Country BR`), in the answer's order. */
  rows: Array<{ key: string; label: string }>;
  /** The suggested thresholds for the chosen metric and entity. */
  suggestion?: ThresholdSuggestion;
  /** Why there is no suggestion, in words for the modal. */
  note?: string;
}

export interface WatchChoicesDeps {
  client: Pick<ReportingClient, 'pivot' | 'runAsyncPivot' | 'postbackShare'>;
  now: Date;
  defaultTimeZone: string;
  signal?: AbortSignal;
}

/**
 * The rows of the answer and, for `on` (`total`, `entity` for each row, or `row:<key>`), the
 * threshold suggestion from the `SUGGESTION_DAYS` days before the answer's day. An answer that is
 * not one whole past day (today, last 7 days) gets no suggestion: its value is not a daily value.
 *
 * @example await watchChoices(definition, { metric: 'spend', on: 'row:countryCode=BR' }, { client, now, defaultTimeZone: 'UTC' })
 * // { rows: [{ key: 'countryCode=US', label: 'Country US' }, …], suggestion: { above: 812.5, below: 402.1, days: 14 } }
 */
export async function watchChoices(
  definition: ReportDefinition,
  chosen: { metric: string; on: string },
  deps: WatchChoicesDeps,
): Promise<WatchChoices> {
  const report = { id: 'watch', definition };
  const signal = deps.signal ? { signal: deps.signal } : {};
  const view = await runReport(
    report,
    { client: deps.client, now: () => deps.now, defaultTimeZone: deps.defaultTimeZone, viewJson: false, ...signal },
    { mode: 'sync' },
  );
  const probe = (on: 'entity' | 'total'): AlertRule =>
    alertSchema.parse({ id: 'watch', metric: chosen.metric, above: 0, on });
  const observed = observeEntities(probe('entity'), view);
  const rows =
    'observations' in observed
      ? observed.observations
          .filter((o) => o.entityKey !== TOTAL_KEY && ROW_PREFIX.length + o.entityKey.length <= MAX_OPTION_VALUE)
          .slice(0, WATCH_ROWS)
          .map((o) => ({ key: o.entityKey, label: o.entityLabel }))
      : [];

  const range = compileReport(definition, { now: deps.now, defaultTimeZone: deps.defaultTimeZone }).range;
  const hours = (range.toMs - range.fromMs) / 3_600_000;
  if (range.unit !== 'day' || hours < 23 || hours > 25 || range.toMs > deps.now.getTime()) {
    return {
      rows,
      note: `A suggested threshold needs an answer for one whole past day (like yesterday); this one is ${range.label || 'another span'}.`,
    };
  }
  const entity = chosen.on === 'total' ? TOTAL_KEY : chosen.on.startsWith(ROW_PREFIX) ? chosen.on.slice(4) : undefined;
  if (entity === undefined || (entity !== TOTAL_KEY && rows.length === 0)) {
    return {
      rows,
      note: 'Pick one row or the total for a suggested threshold: one number rarely fits every row. The same-weekday rule judges each row against its own weeks.',
    };
  }
  const rule = probe(entity === TOTAL_KEY ? 'total' : 'entity');
  const trend = trendRequest(report, rule, {
    now: deps.now,
    defaultTimeZone: deps.defaultTimeZone,
    days: SUGGESTION_DAYS + 1,
  });
  const result = await deps.client.pivot(trend.request, signal);
  const day = range.from.slice(0, 10);
  // The answer's own day is left out: a value that is already unusual must not set the threshold.
  const values = (entitySeries(rule, view, result.rows).get(entity) ?? [])
    .filter((p) => p.at.slice(0, 10) < day)
    .map((p) => p.value);
  const suggestion = suggestThreshold(values);
  return suggestion
    ? { rows, suggestion }
    : {
        rows,
        note: `No threshold suggested: fewer than 7 of the ${SUGGESTION_DAYS} days before had a value, or every value was the same.`,
      };
}
