/**
 * A backtest's few queries, and the answers they give to every request the evaluations it replays
 * would have sent. The requests of all instants differ only in their range (a pacing rule's spend
 * by day aside), so each shape of request is fetched once over the whole window, grouped by time
 * bucket (a day, or an hour when a range starts mid-day) and by the request's own dimensions.
 * An evaluation's request is then answered from the buckets its range covers: a period of one
 * bucket gets the service's own rows; a longer one sums what adds up and recomputes ratios from
 * their summed parts, which the window fetches beside them. Pure.
 */
import { ErrorCode, UserInputError } from '../core/index.js';
import {
  type DimensionSelection,
  getMetric,
  type MetricSelection,
  type PivotColumn,
  type PivotRequest,
  type PivotResponse,
  type PivotRow,
} from '../reporting/index.js';
import { wallClock } from '../time/index.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** The output key of the bucket the window adds (a request's own `date` keeps its key). */
const BUCKET = 'btBucket';
const PART = 'btPart';

export type Granularity = 'DAILY' | 'HOURLY';

/** One shape of request (everything but its range) and the fetch that answers it. */
interface Shape {
  key: string;
  request: PivotRequest;
  bucketKey: string;
  /** The request's own `date` dimension at the window's granularity (its rows are per bucket already). */
  ownDate: boolean;
  /** Per derived metric's output key: its parts' keys in the window and the ratio's scale. */
  parts: Map<string, { numerator: string; denominator: string; scale: number }>;
}

export interface BacktestWindow {
  granularity: Granularity;
  /** The queries to send, one per shape of request. */
  requests: PivotRequest[];
  shapes: Shape[];
}

/** What the window does not carry: the range and whether totals are asked. */
function shapeKey(request: PivotRequest): string {
  const { from: _from, to: _to, totals: _totals, ...rest } = request;
  return JSON.stringify(rest);
}

const zoneOf = (request: PivotRequest): string => request.context?.sqlTimeZone ?? 'UTC';

/** True when `iso` starts a local day (`DAILY`) or an hour (`HOURLY`) in `zone`. */
function onBoundary(iso: string, zone: string, granularity: Granularity): boolean {
  const wall = wallClock(Date.parse(iso), zone);
  return granularity === 'DAILY' ? wall % DAY_MS === 0 : wall % HOUR_MS === 0;
}

const refuse = (message: string): never => {
  throw new UserInputError(ErrorCode.BacktestRefused, message);
};

/**
 * The window's queries for every request the replayed evaluations send: the finest bucket that
 * every range starts and ends on, and one query per shape. Throws a `UserInputError` saying why
 * when a range starts off the hour or a request cannot be rebuilt from buckets.
 *
 * @example const window = planWindow(requests); window.requests.length // 1 for a threshold rule
 */
export function planWindow(requests: readonly PivotRequest[]): BacktestWindow {
  const daily = requests.every((r) => onBoundary(r.from, zoneOf(r), 'DAILY') && onBoundary(r.to, zoneOf(r), 'DAILY'));
  const hourly = requests.every(
    (r) => onBoundary(r.from, zoneOf(r), 'HOURLY') && onBoundary(r.to, zoneOf(r), 'HOURLY'),
  );
  if (!daily && !hourly)
    refuse('the rule judges ranges that do not start on a whole hour, which no bucket of data rebuilds');
  const granularity: Granularity = daily ? 'DAILY' : 'HOURLY';
  type Span = { request: PivotRequest; from: string; to: string; multi: boolean };
  const byKey = new Map<string, Span>();
  for (const request of requests) {
    const key = shapeKey(request);
    const span = Date.parse(request.to) - Date.parse(request.from);
    const multi = granularity === 'DAILY' ? span > 25 * HOUR_MS : span > HOUR_MS;
    const seen = byKey.get(key);
    if (seen === undefined) byKey.set(key, { request, from: request.from, to: request.to, multi });
    else {
      if (Date.parse(request.from) < Date.parse(seen.from)) seen.from = request.from;
      if (Date.parse(request.to) > Date.parse(seen.to)) seen.to = request.to;
      seen.multi ||= multi;
    }
  }
  const shapes: Shape[] = [];
  const out: PivotRequest[] = [];
  for (const [key, { request, from, to, multi }] of byKey) {
    const { shape, fetch } = shapeFetch(key, request, granularity, multi || request.totals !== false);
    if (multi && request.cleanup !== undefined) {
      refuse(
        'the report has a cleanup (thresholds on rows) over ranges longer than a bucket, which its daily rows cannot rebuild',
      );
    }
    out.push({ ...fetch, from, to });
    shapes.push(shape);
  }
  return { granularity, requests: out, shapes };
}

function shapeFetch(
  key: string,
  request: PivotRequest,
  granularity: Granularity,
  aggregates: boolean,
): { shape: Shape; fetch: PivotRequest } {
  const date = request.dimensions.find((d) => d.name === 'date');
  const own = date !== undefined && String(date.args?.granularity ?? 'DAILY') === granularity;
  if (date !== undefined && !own) {
    refuse(
      `the report is grouped by ${String(date.args?.granularity ?? 'DAILY')} buckets, which ${granularity.toLowerCase()} rows cannot rebuild`,
    );
  }
  for (const d of request.dimensions) {
    if (['dateToStr', 'dayOfWeek', 'timeOfDay'].includes(d.name))
      refuse(`the report is grouped by ${d.name}, which a backtest cannot replay by day`);
  }
  const bucket: DimensionSelection = own
    ? (date as DimensionSelection)
    : { name: 'date', args: { granularity }, alias: BUCKET };
  const bucketKey = bucket.alias ?? bucket.name;
  const parts = new Map<string, { numerator: string; denominator: string; scale: number }>();
  const extra: MetricSelection[] = [];
  if (aggregates) {
    const present = new Map(request.metrics.map((m) => [JSON.stringify([m.name, m.args ?? {}]), m.alias ?? m.name]));
    for (const metric of request.metrics) {
      const def = getMetric(metric.name);
      const derived = def?.derivedFrom;
      if (def === undefined || def.additive || derived === undefined) continue;
      const part = (name: string, role: 'n' | 'd'): string => {
        const accepts = getMetric(name)?.args ?? [];
        const args = Object.fromEntries(Object.entries(metric.args ?? {}).filter(([a]) => accepts.includes(a)));
        const id = JSON.stringify([name, args]);
        const known = present.get(id);
        if (known !== undefined) return known;
        const alias = `${PART}${extra.length}${role}`;
        extra.push({ name, ...(Object.keys(args).length > 0 ? { args } : {}), alias });
        present.set(id, alias);
        return alias;
      };
      parts.set(metric.alias ?? metric.name, {
        numerator: part(derived.numerator, 'n'),
        denominator: part(derived.denominator, 'd'),
        scale: derived.scale,
      });
    }
  }
  const others = request.dimensions.filter((d) => d.name !== 'date');
  const fetch: PivotRequest = {
    ...request,
    dimensions: [bucket, ...others],
    metrics: [...request.metrics, ...extra],
    totals: false,
  };
  return { shape: { key, request, bucketKey, ownDate: own, parts }, fetch };
}

/** The window's rows by shape, indexed by bucket start (ms). */
export interface WindowData {
  window: BacktestWindow;
  buckets: Array<Map<number, PivotRow[]>>;
  columns: Array<readonly PivotColumn[]>;
}

/**
 * Indexes the answers of `window.requests` (in order) by bucket, for `answerFromWindow`.
 *
 * @example const data = indexWindow(window, await Promise.all(window.requests.map((r) => client.pivot(r))));
 */
export function indexWindow(window: BacktestWindow, responses: readonly PivotResponse[]): WindowData {
  const buckets = window.shapes.map((shape, i) => {
    const byStart = new Map<number, PivotRow[]>();
    for (const row of responses[i]?.rows ?? []) {
      const start = Date.parse(String(row[shape.bucketKey] ?? ''));
      if (!Number.isFinite(start)) continue;
      const list = byStart.get(start);
      if (list) list.push(row);
      else byStart.set(start, [row]);
    }
    return byStart;
  });
  return { window, buckets, columns: responses.map((r) => r.columns) };
}

const num = (cell: PivotRow[string] | undefined): number | null => {
  const n =
    typeof cell === 'number' ? cell : typeof cell === 'string' && cell.trim() !== '' ? Number(cell) : Number.NaN;
  return Number.isFinite(n) ? n : null;
};

/**
 * The answer the service would give `request` (one of the replayed evaluations'), from the window:
 * the rows of the buckets in its range, grouped by its dimensions; totals from all of them.
 *
 * @example answerFromWindow(data, plan.current) // { columns, rows: [{ countryCode: 'BR', spend: 812.4 }, …], totals }
 */
export function answerFromWindow(data: WindowData, request: PivotRequest): PivotResponse {
  const key = shapeKey(request);
  const index = data.window.shapes.findIndex((s) => s.key === key);
  const shape = data.window.shapes[index];
  const buckets = data.buckets[index];
  if (shape === undefined || buckets === undefined) throw new Error(`no window answers ${key}`);
  const from = Date.parse(request.from);
  const to = Date.parse(request.to);
  const inRange: PivotRow[] = [];
  for (const [start, rows] of buckets) if (start >= from && start < to) inRange.push(...rows);
  const dims = request.dimensions.map((d) => d.alias ?? d.name);
  const metrics = request.metrics.map((m) => m.alias ?? m.name);
  const groupBy = shape.ownDate ? dims : dims.filter((d) => d !== shape.bucketKey);
  const groups = new Map<string, PivotRow[]>();
  for (const row of inRange) {
    const k = JSON.stringify(groupBy.map((d) => row[d] ?? null));
    const list = groups.get(k);
    if (list) list.push(row);
    else groups.set(k, [row]);
  }
  const rows: PivotRow[] = [];
  for (const group of groups.values()) {
    const first = group[0] as PivotRow;
    const row: PivotRow = {};
    for (const d of groupBy) row[d] = first[d] ?? null;
    for (const m of metrics) row[m] = group.length === 1 ? (first[m] ?? null) : combine(group, m, shape);
    if (request.options?.removeZeroRows && metrics.every((m) => !num(row[m]))) continue;
    rows.push(row);
  }
  const columns = (data.columns[index] ?? []).filter((c) => dims.includes(c.key) || metrics.includes(c.key));
  const out: PivotResponse = { columns, rows, warnings: [] };
  if (request.totals !== false) {
    const totals: PivotRow = {};
    for (const m of metrics) totals[m] = combine(inRange, m, shape);
    out.totals = totals;
  }
  return out;
}

/** One metric over several rows: a sum when it adds up, a ratio of summed parts, else null. */
function combine(rows: readonly PivotRow[], key: string, shape: Shape): number | null {
  const metric = shape.request.metrics.find((m) => (m.alias ?? m.name) === key);
  const def = metric ? getMetric(metric.name) : undefined;
  const sum = (k: string): number | null => {
    let total: number | null = null;
    for (const row of rows) {
      const v = num(row[k]);
      if (v !== null) total = (total ?? 0) + v;
    }
    return total;
  };
  if (def?.additive) return sum(key) ?? (rows.length > 0 ? 0 : null);
  const parts = shape.parts.get(key);
  if (parts === undefined) return null;
  const n = sum(parts.numerator);
  const d = sum(parts.denominator);
  return n === null || d === null || d === 0 ? null : (n / d) * parts.scale;
}

/**
 * Why a rule's metric cannot be rebuilt from buckets (not additive, no parts to recompute it
 * from), or undefined when it can.
 *
 * @example unaggregatable(['uniqueImpressions']) // 'uniqueImpressions neither adds up nor is a ratio of parts that do'
 */
export function unaggregatable(names: readonly string[]): string | undefined {
  for (const name of names) {
    const def = getMetric(name);
    if (def && !def.additive && def.derivedFrom === undefined)
      return `${name} neither adds up nor is a ratio of parts that do`;
  }
  return undefined;
}
