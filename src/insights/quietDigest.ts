/**
 * Quiet digests (`present.onlyWhen`): whether a scheduled digest is worth posting. Pure: the facts
 * (the run's headline deltas, the incidents opened since the last post) come in, the decision and
 * its reason in words go out, so the scheduler records exactly what `/pivot history` shows.
 */
import type { ReportDefinition, ReportView } from '../reports/index.js';
import { DEFAULT_EXPLAIN_THRESHOLD } from './explainReport.js';

/** What `present.onlyWhen` asks, with its defaults applied. */
export interface QuietSettings {
  /** Post when a headline KPI moved at least this fraction against the comparison (0.1 = 10 %). */
  moved: number;
  /** Post when an incident of the report's rules opened since the last post. */
  incidents: boolean;
  /** The weekday (`mon`…`sun`) on which a quiet slot posts a short "all quiet" note instead. */
  allQuiet?: string;
}

/**
 * The quiet settings of a definition; undefined when it has no `present.onlyWhen` (every slot posts).
 * `moved` defaults to `present.explain.threshold`, itself 10 % by default.
 *
 * @example quietSettings(definition) // { moved: 0.1, incidents: true, allQuiet: 'mon' }
 */
export function quietSettings(definition: ReportDefinition): QuietSettings | undefined {
  const written = definition.present.onlyWhen;
  if (written === undefined) return undefined;
  const explain = definition.present.explain;
  const fallback =
    explain === false || explain?.threshold === undefined ? DEFAULT_EXPLAIN_THRESHOLD : explain.threshold;
  return {
    moved: written.moved ?? fallback,
    incidents: written.incidents ?? true,
    ...(written.allQuiet !== undefined ? { allQuiet: written.allQuiet } : {}),
  };
}

export interface QuietFacts {
  /** The run's view: its headline KPIs, their totals and their deltas against the comparison. */
  view: Pick<ReportView, 'headline' | 'comparison' | 'columns' | 'totals' | 'rows'>;
  settings: QuietSettings;
  /** When this schedule last posted (a digest or an all-quiet note); undefined for its first post. */
  lastPostAt?: Date;
  /** Incidents of the report's rules opened (or reopened) since the last post: their rule and entity. */
  openedSince: ReadonlyArray<{ rule: string; entity: string }>;
  /** The slot's weekday in the schedule's zone (`mon`…`sun`). */
  weekday: string;
  /** An all-quiet note went out earlier on the slot's day: a schedule firing hourly posts one a week, not one an hour. */
  notedToday?: boolean;
}

export type QuietDecision =
  /**
   * Post the digest; `why` is what moved (for the log); `missing`, the lines the digest shows for
   * headline KPIs that have no value now (an outage is news, never quiet).
   */
  | { post: true; why: string; missing?: string[] }
  /** Do not post the digest: `reason` is recorded on the run; `allQuiet` posts the weekly note instead. */
  | { post: false; reason: string; allQuiet: boolean };

/**
 * Whether a quiet digest posts. It posts when a headline KPI has no value now (no rows, a NULL
 * total, a rate whose base fell to 0: `missing` says so in the digest), on its schedule's first
 * slot, when there is no comparison to tell what moved, when a headline KPI moved at least `moved`
 * (a rise from 0 counts), or when an
 * incident opened since the last post; otherwise it is skipped, and at the first quiet slot of the
 * `allQuiet` weekday the weekly note goes out instead.
 *
 * @example quietDecision({ view, settings: { moved: 0.1, incidents: true }, openedSince: [], weekday: 'tue', lastPostAt })
 * // { post: false, reason: 'quiet: no headline KPI moved 10 % or more vs the same day last week, and no incident opened since the last post', allQuiet: false }
 */
export function quietDecision(facts: QuietFacts): QuietDecision {
  const { view, settings } = facts;
  const label = (key: string) => view.columns.find((c) => c.key === key)?.label ?? key;
  // A KPI with no value now (no rows, a NULL total, a rate whose base fell to 0) moved: an outage
  // or a stopped campaign is what the channel most needs to hear about.
  const missing = view.headline.filter((key) => !isNumber(view.totals?.[key]));
  if (missing.length > 0) {
    const lines = missing.map((key) => missingLine(label(key), view.rows.length === 0));
    return { post: true, why: `no value: ${missing.map(label).join(', ')}`, missing: lines };
  }
  if (facts.lastPostAt === undefined) return { post: true, why: 'the first post of this schedule' };
  if (!view.comparison) return { post: true, why: 'no comparison to tell what moved' };
  const moved = view.headline.flatMap((key) => {
    const delta = view.comparison?.totals[key];
    if (delta === undefined) return [];
    const percent = delta.percent;
    if (percent !== null) return Math.abs(percent) >= settings.moved ? [`${label(key)} ${signed(percent)}`] : [];
    // From 0 (no percentage): any change is a move.
    return delta.absolute !== null && delta.absolute !== 0 ? [`${label(key)} from 0`] : [];
  });
  if (moved.length > 0) return { post: true, why: `moved: ${moved.join(', ')}` };
  if (settings.incidents && facts.openedSince.length > 0) {
    return { post: true, why: `${facts.openedSince.length} incident(s) opened since the last post` };
  }
  const vs = view.comparison.label.replace(/^vs /, '').replace(/ \(.*\)$/, '');
  const incidents = settings.incidents ? ', and no incident opened since the last post' : '';
  return {
    post: false,
    reason: `quiet: no headline KPI moved ${percentText(settings.moved)} or more vs ${vs}${incidents}`,
    allQuiet: settings.allQuiet === facts.weekday && facts.notedToday !== true,
  };
}

/** What the digest says of a headline KPI that has no value now. */
export function missingLine(label: string, noRows: boolean): string {
  return noRows
    ? `${label}: no value. The Reporting Service returned no rows for this period.`
    : `${label}: no value for this period (no data, or a rate whose base fell to 0).`;
}

function isNumber(cell: unknown): boolean {
  if (typeof cell === 'number') return Number.isFinite(cell);
  return typeof cell === 'string' && cell.trim() !== '' && Number.isFinite(Number(cell));
}

function percentText(fraction: number): string {
  return `${Number((fraction * 100).toFixed(1))} %`;
}

function signed(fraction: number): string {
  return `${fraction > 0 ? '+' : '−'}${percentText(Math.abs(fraction))}`;
}
