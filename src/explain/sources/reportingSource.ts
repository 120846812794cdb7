import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ErrorCode, UserInputError } from '../../core/index.js';
import {
  type CellValue,
  collectPivotProblems,
  DIMENSION_RULES,
  getDimension,
  LIMITS,
  type MetricSelection,
  type PivotRequest,
  type PivotRow,
  parseCsv,
  type ReportingClient,
  type WaitOptions,
} from '../../reporting/index.js';
import type { MetricPart, MetricParts } from '../metricParts.js';
import type { GroupQuery, GroupRow, GroupSource, Measure, Where } from '../types.js';
import { type Filter, ID_OF_NAME, NameIds, NO_VALUE, segmentFilter } from './pivotFilter.js';

/** The dimensions a UA team slices by, in the order they think in (catalog names). */
export const DEFAULT_REPORTING_DIMENSIONS: readonly string[] = [
  'countryCode',
  'appPlatform',
  'source',
  'campaign',
  'app',
  'siteBundle',
  'adType',
  'adSize',
];

/** A period as the pivot takes it: `from` inclusive, `to` exclusive (dates or date-times). */
export interface Period {
  readonly from: string;
  readonly to: string;
}

/** Pivot arguments every query of one explanation shares (a CTV report, a quality type, a cohort). */
export type SharedPivotArguments = Pick<
  PivotRequest,
  'campaignChannel' | 'appendCtvData' | 'qualityType' | 'cohortType' | 'cohortWindow'
>;

export interface ReportingSourceOptions {
  client: Pick<ReportingClient, 'pivot' | 'runAsyncPivot'>;
  /** The metric as additive parts (see `metricParts`). */
  parts: MetricParts;
  current: Period;
  baseline: Period;
  /** The report's own filter, in the spec's Filter shape: `{ appId: { equals: 101 } }`. */
  baseFilter?: Filter;
  /** Candidate dimensions (default `DEFAULT_REPORTING_DIMENSIONS`). */
  dimensions?: readonly string[];
  /** `context.sqlTimeZone` of every pivot (periods without an offset are read in it). */
  timezone?: string;
  /** The clock, for the API's age limits (siteBundle: 3 months). */
  now: () => Date;
  pivot?: SharedPivotArguments;
  /**
   * Sync or async for one request. The default sends a siteBundle/siteName group-by over more than
   * 7 days (the spec's example of a report that may not return) as an async job when it can
   * travel as one; pass the reports folder's `chooseMode` for its row estimate as well.
   */
  mode?: (request: PivotRequest) => 'sync' | 'async';
  asyncWait?: WaitOptions;
  /** Where async CSVs are downloaded to, then deleted (default the OS temp dir). */
  tmpDir?: string;
  signal?: AbortSignal;
}

/** A GroupSource over the Reporting Service, which can also say why it refuses a group-by. */
export interface ReportingGroupSource extends GroupSource {
  /** Why this group-by may not be asked (an API rule, an unfilterable segment), or undefined. */
  refusal(query: GroupQuery): string | undefined;
}

const DAY_MS = 86_400_000;
const NUM = 'num';
const DEN = 'den';

/**
 * The engine's group source over the Reporting Service: each `groups()` call sends one pivot per
 * period (both at once, through the client with its token, retries and limits) and merges them by
 * group; `allows()` refuses what the API's rules forbid, so such a query is never sent.
 *
 * @example
 * const source = createReportingSource({ client, parts: metricParts('installsCpi'), current: { from: '2026-11-19', to: '2026-11-20' }, baseline: { from: '2026-11-18', to: '2026-11-19' }, now: () => new Date() });
 * await source.groups({ dimensions: ['countryCode'], filter: {} }); // [{ where: { countryCode: 'BR' }, current: { num: 812.5, den: 61 }, baseline: { … } }, …]
 */
export function createReportingSource(options: ReportingSourceOptions): ReportingGroupSource {
  const names = new NameIds();
  const baseFilter = options.baseFilter ?? {};
  const metrics = metricSelections(options.parts);
  const keys = metricKeys(options.parts);

  function requestFor(period: Period, dimensions: readonly string[], filter: Filter): PivotRequest {
    const fields = [...dimensions];
    for (const d of dimensions) {
      const id = ID_OF_NAME[d];
      if (id !== undefined && !fields.includes(id)) fields.push(id);
    }
    // An app's platform, to know whether its name stands for several apps on one platform (see splits).
    if (dimensions.includes('app') && !fields.includes('appPlatform')) fields.push('appPlatform');
    return {
      ...options.pivot,
      from: period.from,
      to: period.to,
      dimensions: fields.map((name) => ({ name })),
      metrics,
      ...(Object.keys(filter).length > 0 ? { filter } : {}),
      ...(options.timezone !== undefined ? { context: { sqlTimeZone: options.timezone } } : {}),
      options: { removeZeroRows: true },
      totals: false,
    };
  }

  /** The two requests of a query, or why not, or `empty` when the filter cannot match anything. */
  function plan(query: GroupQuery): { requests: [PivotRequest, PivotRequest] } | { empty: true } | { refused: string } {
    const refused = ruleRefusal(query, baseFilter, options);
    if (refused !== undefined) return { refused };
    const filtered = segmentFilter(baseFilter, query.filter, names);
    if (!('filter' in filtered)) return filtered;
    const requests: [PivotRequest, PivotRequest] = [
      requestFor(options.current, query.dimensions, filtered.filter),
      requestFor(options.baseline, query.dimensions, filtered.filter),
    ];
    const now = options.now();
    for (const request of requests) {
      const problem = collectPivotProblems(request, { now, mode: 'sync' }).problems[0];
      if (problem) return { refused: `${problem.path}: ${problem.message}` };
    }
    return { requests };
  }

  async function fetchRows(request: PivotRequest): Promise<readonly PivotRow[]> {
    const plain = asyncRequest(request);
    const mode = plain ? (options.mode ?? defaultMode)(request) : 'sync';
    if (mode === 'sync' || !plain) {
      const response = await options.client.pivot(request, options.signal ? { signal: options.signal } : {});
      return response.rows;
    }
    const path = join(options.tmpDir ?? tmpdir(), `.explain-${process.pid}-${Date.now()}-${++jobs}.csv`);
    try {
      await options.client.runAsyncPivot(plain, path, {
        ...options.asyncWait,
        ...(options.signal ? { signal: options.signal } : {}),
      });
      return csvRows(await readFile(path, 'utf8'));
    } finally {
      await rm(path, { force: true });
    }
  }
  let jobs = 0;

  const source: ReportingGroupSource = {
    dimensions: options.dimensions ?? DEFAULT_REPORTING_DIMENSIONS,
    refusal(query) {
      const planned = plan(query);
      return 'refused' in planned ? planned.refused : undefined;
    },
    allows(query) {
      return source.refusal(query) === undefined;
    },
    // An app's name that stood for several apps (one per platform: Stream Box on iOS and on
    // Android) is told apart by platform before anything else; where the name stands for several
    // apps on one platform too (two advertisers' Merge Kingdom on iOS), by the app's bundle.
    splits(where) {
      const app = where.app;
      if (app === undefined || (names.of('app', app)?.length ?? 0) < 2) return [];
      const platform = where.appPlatform;
      if (platform === undefined) return ['appPlatform'];
      return where.appBundle === undefined && names.appsOn(app, platform) > 1 ? ['appBundle'] : [];
    },
    async groups(query) {
      const planned = plan(query);
      if ('refused' in planned) {
        throw new UserInputError(ErrorCode.ExplainQueryRefused, `This group-by cannot be asked: ${planned.refused}.`);
      }
      if ('empty' in planned) return [];
      const [current, baseline] = await Promise.all(planned.requests.map(fetchRows));
      return mergePeriods(query.dimensions, current ?? [], baseline ?? [], keys, names);
    },
  };
  return source;
}

/** The output keys of the parts in a pivot row: `num`, and `den` for a ratio. */
export interface MetricKeys {
  readonly num: string;
  readonly den?: string;
}

/** The keys under which `metricSelections(parts)` come back. */
function metricKeys(parts: MetricParts): MetricKeys {
  const [num, den] = metricSelections(parts).map((m) => m.alias ?? m.name);
  return den === undefined ? { num: num ?? '' } : { num: num ?? '', den };
}

/** The parts as pivot metrics: plain names, aliased only when both parts are one metric (vtaShare). */
function metricSelections(parts: MetricParts): MetricSelection[] {
  const select = (part: MetricPart, alias: string | undefined): MetricSelection => ({
    name: part.name,
    ...(Object.keys(part.args).length > 0 ? { args: part.args } : {}),
    ...(alias !== undefined ? { alias } : {}),
  });
  if (parts.kind === 'additive') return [select(parts.num, undefined)];
  const clash = parts.num.name === parts.den.name;
  return [select(parts.num, clash ? NUM : undefined), select(parts.den, clash ? DEN : undefined)];
}

/** The API's rules that `validatePivot` does not hold, over everything the query names. */
function ruleRefusal(query: GroupQuery, baseFilter: Filter, options: ReportingSourceOptions): string | undefined {
  for (const d of query.dimensions) {
    const def = getDimension(d);
    if (!def) continue; // validatePivot names it, with a suggestion
    if (def.kind === 'time') return `${d} splits time, and the two periods are compared whole`;
    if (def.args.some((a) => a.type.endsWith('!'))) return `${d} needs an argument and is not a segment`;
  }
  // The spec does not say whether a filter field counts for the dimension rules: we count it, so a
  // query the API might refuse is never sent.
  const named = new Set([...query.dimensions, ...Object.keys(query.filter), ...Object.keys(baseFilter)]);
  for (const d of [...named]) if (ID_OF_NAME[d] !== undefined) named.add(ID_OF_NAME[d] as string);
  for (const rule of DIMENSION_RULES) {
    const left = rule.left.filter((n) => named.has(n));
    const right = rule.right.filter((n) => named.has(n));
    if (left.length > 0 && right.length > 0) return `${rule.message} (asked: ${[...left, ...right].join(', ')})`;
  }
  if (named.has('siteBundle')) {
    const floor = new Date(options.now());
    floor.setUTCMonth(floor.getUTCMonth() - LIMITS.siteBundleMaxAgeMonths);
    const earliest = Math.min(Date.parse(options.current.from), Date.parse(options.baseline.from));
    if (!(earliest >= floor.getTime())) {
      return `siteBundle is kept only for the last ${LIMITS.siteBundleMaxAgeMonths} months, and a period starts before ${floor.toISOString().slice(0, 10)}`;
    }
  }
  return undefined;
}

/** The default sync/async choice: the spec's heavy case (site dimensions over more than 7 days). */
function defaultMode(request: PivotRequest): 'sync' | 'async' {
  const days = (Date.parse(request.to) - Date.parse(request.from)) / DAY_MS;
  const site = request.dimensions.some((d) => d.name === 'siteBundle' || d.name === 'siteName');
  return site && days > 7 ? 'async' : 'sync';
}

/** The request as an async job takes it (plain names, no totals flag), or undefined if it cannot. */
function asyncRequest(request: PivotRequest): PivotRequest | undefined {
  if (request.metrics.some((m) => m.alias !== undefined || m.args !== undefined)) return undefined;
  if (request.dimensions.some((d) => d.alias !== undefined || d.args !== undefined)) return undefined;
  const { totals: _totals, ...plain } = request;
  return plain;
}

/** CSV text of an async job as rows keyed by header; empty cells are null. */
function csvRows(text: string): PivotRow[] {
  const [header, ...records] = parseCsv(text);
  if (!header) return [];
  return records
    .filter((r) => r.length > 1 || r[0] !== '')
    .map((record) => Object.fromEntries(header.map((key, i) => [key, emptyToNull(record[i])])));
}

const emptyToNull = (cell: string | undefined): CellValue => (cell === undefined || cell === '' ? null : cell);

const numberOf = (cell: CellValue | undefined): number => {
  const n = typeof cell === 'number' ? cell : typeof cell === 'string' ? Number(cell) : 0;
  return Number.isFinite(n) ? n : 0;
};

const groupValue = (cell: CellValue | undefined): string =>
  cell === null || cell === undefined || cell === '' ? NO_VALUE : String(cell);

/**
 * Both periods' rows summed per group (rows with the same name and different ids are one group); a
 * group present in one period only gets zeros in the other. Sorted by group, so output is stable.
 */
export function mergePeriods(
  dimensions: readonly string[],
  current: readonly PivotRow[],
  baseline: readonly PivotRow[],
  keys: MetricKeys,
  names: NameIds = new NameIds(),
): GroupRow[] {
  const groups = new Map<string, { where: Where; current: [number, number]; baseline: [number, number] }>();
  const add = (rows: readonly PivotRow[], period: 'current' | 'baseline') => {
    for (const row of rows) {
      const values = dimensions.map((d) => groupValue(row[d]));
      for (const d of dimensions) {
        const id = ID_OF_NAME[d];
        if (id !== undefined) names.learn(d, groupValue(row[d]), row[id]);
      }
      if (dimensions.includes('app')) names.learnPlatform(row.appId, row.appPlatform);
      const key = JSON.stringify(values);
      const where = Object.fromEntries(dimensions.map((d, i) => [d, values[i] as string]));
      const group = groups.get(key) ?? { where, current: [0, 0], baseline: [0, 0] };
      groups.set(key, group);
      group[period][0] += numberOf(row[keys.num]);
      if (keys.den !== undefined) group[period][1] += numberOf(row[keys.den]);
    }
  };
  add(current, 'current');
  add(baseline, 'baseline');
  const measure = ([num, den]: [number, number]): Measure => (keys.den !== undefined ? { num, den } : { num });
  return [...groups.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, g]) => ({ where: g.where, current: measure(g.current), baseline: measure(g.baseline) }));
}
