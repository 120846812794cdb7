/**
 * Saved queries ("Schedule this") as reports. Each one is a subscription in the store whose report
 * id is `saved-<name>` and which carries the query text; here each becomes a report definition,
 * compiled from that text at every load (so "yesterday" moves with the clock). Everything that
 * reads reports then handles them like files: the scheduler posts them, `/pivot list`,
 * `/pivot schedule` and App Home show them, `/pivot run saved-<name>` runs one.
 */
import { stringify as stringifyYaml } from 'yaml';
import { alertSchema, type LoadedReport, type LoadedReports, type ReportProblem } from '../reports/index.js';
import type { Subscription } from '../store/index.js';
import { compileQuery, type QueryOptions } from './compileQuery.js';
import { QueryError } from './QueryError.js';
import { workspaceGlossaryOf } from './workspaceGlossary.js';

/** Report ids of saved queries: `saved-<name>`. */
export const SAVED_QUERY_PREFIX = 'saved-';
export const savedQueryId = (name: string): string => `${SAVED_QUERY_PREFIX}${name}`;

/** The report id prefix of a watch ("Watch this"): an alert rule on a saved query. */
export const WATCH_PREFIX = 'watch-';
export const watchId = (name: string): string => `${WATCH_PREFIX}${name}`;

/** A saved query's or watch's name: its report id without the prefix. */
export const savedName = (id: string): string =>
  id.startsWith(WATCH_PREFIX) ? id.slice(WATCH_PREFIX.length) : id.slice(SAVED_QUERY_PREFIX.length);

/** Where a saved query's problems say it lives (reports have a file). */
export const savedQueryFile = (id: string): string =>
  `store: ${id.startsWith(WATCH_PREFIX) ? 'watch' : 'saved query'} ${savedName(id)}`;

/** The saved queries among subscriptions. */
export function savedQueriesOf(subscriptions: readonly Subscription[]): Subscription[] {
  return subscriptions.filter((s) => s.query !== undefined && s.report.startsWith(SAVED_QUERY_PREFIX));
}

/** The watches among subscriptions: a query and the alert rule evaluated on it. */
export function watchesOf(subscriptions: readonly Subscription[]): Subscription[] {
  return subscriptions.filter(
    (s) => s.query !== undefined && s.watch !== undefined && s.report.startsWith(WATCH_PREFIX),
  );
}

/** The most personal watches one person keeps ("Watch this" refuses the next one). */
export const PERSONAL_WATCH_CAP = 20;

/**
 * The personal watches `owner` keeps: the watches whose incidents go to their DM.
 *
 * @example personalWatchesOf(store.subscriptions.list(), 'U0ALICE').length // 3
 */
export function personalWatchesOf(subscriptions: readonly Subscription[], owner: string): Subscription[] {
  return watchesOf(subscriptions).filter((s) => s.owner === owner);
}

/**
 * Who sees and who may remove a watch: a channel watch is everyone's to see and an admin's to
 * remove; a personal one is its owner's (and every admin's) to see and to remove.
 *
 * @example watchAccess(watch, { userId: 'U0ALICE', admin: false }) // { visible: true, removable: true } for Alice's own
 */
export function watchAccess(
  watch: Pick<Subscription, 'owner'>,
  who: { userId: string; admin: boolean },
): { visible: boolean; removable: boolean } {
  const own = watch.owner !== undefined && watch.owner === who.userId;
  return { visible: who.admin || own || watch.owner === undefined, removable: who.admin || own };
}

/**
 * The definition of one saved query, compiled now: its title says it is one; the description
 * is what the query was understood as.
 *
 * @example savedQueryReport(subscription, { now: new Date(), defaultTimeZone: 'UTC' })
 */
export function savedQueryReport(saved: Subscription, options: QueryOptions): LoadedReport {
  const compiled = compileQuery(saved.query ?? '', options);
  if (compiled.kind === 'run') throw new QueryError('A saved query cannot be a run command.', 0, 3);
  const definition = { ...compiled.definition };
  const title = `${saved.watch ? 'Watch' : 'Saved query'}: ${saved.query ?? ''}`;
  definition.title = title.length > 150 ? `${title.slice(0, 149)}…` : title;
  if (saved.watch) {
    // A watch posts no digest: its rule is evaluated on its own check, its threads in its channel.
    const parsed = alertSchema.safeParse(saved.watch);
    if (!parsed.success)
      throw new QueryError(`The watch's rule is not valid: ${parsed.error.issues[0]?.message}`, 0, 1);
    definition.alerts = [parsed.data];
    definition.deliver = { channels: [saved.channel] } as NonNullable<typeof definition.deliver>;
    delete definition.schedule;
  }
  return { id: saved.report, file: savedQueryFile(saved.report), definition };
}

/**
 * `loaded` with the saved queries added as reports. A saved query whose id a file already uses,
 * or whose text no longer compiles (a workspace word removed), is listed as broken with why.
 */
export function withSavedQueryReports(
  loaded: LoadedReports,
  subscriptions: readonly Subscription[],
  options: { now: Date; defaultTimeZone: string },
): LoadedReports {
  const saved = [...savedQueriesOf(subscriptions), ...watchesOf(subscriptions)];
  if (saved.length === 0) return loaded;
  const { glossary } = workspaceGlossaryOf(loaded);
  const taken = new Set([...loaded.reports.map((r) => r.id), ...loaded.broken]);
  const reports: LoadedReport[] = [];
  const problems: ReportProblem[] = [];
  const broken: string[] = [];
  for (const s of saved) {
    if (taken.has(s.report)) {
      problems.push(problem(s.report, `a report file already uses the id ${s.report}; the file wins`));
      continue;
    }
    taken.add(s.report);
    try {
      reports.push(savedQueryReport(s, { ...options, glossary }));
    } catch (error) {
      broken.push(s.report);
      problems.push(problem(s.report, `the saved query "${s.query}" no longer compiles: ${(error as Error).message}`));
    }
  }
  return {
    ...loaded,
    reports: [...loaded.reports, ...reports],
    problems: [...loaded.problems, ...problems],
    broken: [...loaded.broken, ...broken],
  };
}

function problem(id: string, message: string): ReportProblem {
  return { file: savedQueryFile(id), line: 1, col: 1, message, suggestions: [] };
}

/**
 * Wraps a report loader so every reader sees the saved queries as reports.
 *
 * @example const loadReports = withSavedQueries(reportCache(dir, opts), () => store.subscriptions.list(), clock, 'UTC');
 */
export function withSavedQueries(
  load: () => Promise<LoadedReports>,
  subscriptions: () => readonly Subscription[],
  clock: () => Date,
  defaultTimeZone: string,
): () => Promise<LoadedReports> {
  return async () => withSavedQueryReports(await load(), subscriptions(), { now: clock(), defaultTimeZone });
}

/**
 * A saved query as a report file's content: its definition compiled now, with its own schedule
 * and channel, and a header saying where it came from. `pivotbot validate` accepts it as
 * `reports/<name>.yaml`; a range the query language turns into dates (`since`) is
 * written as those dates.
 *
 * @example savedQueryYaml(subscription, { now: new Date(), defaultTimeZone: 'UTC' })
 */
export function savedQueryYaml(saved: Subscription, options: QueryOptions): string {
  const name = savedName(saved.report);
  const { definition } = savedQueryReport(saved, options);
  const { alerts: _alerts, schedule: _schedule, deliver: _deliver, ...rest } = definition;
  if (saved.watch) {
    const document = {
      ...rest,
      title: `${name} (watch)`,
      deliver: { channels: [saved.channel] },
      alerts: [saved.watch],
    };
    const header = `# pivotbot export ${name}: the watch on "${(saved.query ?? '').replace(/\s+/g, ' ')}",\n# saved by ${saved.createdBy}. Save as reports/${name}.yaml; remove the watch once the file evaluates it.\n`;
    return `${header}${stringifyYaml(JSON.parse(JSON.stringify(document)), { lineWidth: 0 })}`;
  }
  const schedule = {
    ...(saved.cron !== undefined ? { cron: saved.cron } : {}),
    ...(saved.cron === undefined && saved.at !== undefined ? { at: saved.at } : {}),
    ...(saved.timezone !== undefined ? { timezone: saved.timezone } : {}),
  };
  const document = {
    ...rest,
    title: `${name} (saved query)`,
    ...(saved.cron !== undefined || saved.at !== undefined ? { schedule } : {}),
    deliver: { channels: [saved.channel], csv: true },
  };
  const header = `# pivotbot export ${name}: the saved query "${(saved.query ?? '').replace(/\s+/g, ' ')}",\n# saved by ${saved.createdBy}. Save as reports/${name}.yaml; remove the saved query once the file posts.\n`;
  return `${header}${stringifyYaml(JSON.parse(JSON.stringify(document)), { lineWidth: 0 })}`;
}
