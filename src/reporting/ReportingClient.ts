import { CancelledError, type Logger, sleep } from '../core/index.js';
import type { BotMetrics } from '../metrics/index.js';
import {
  type CompiledPivot,
  compileAsyncPivot,
  compileAsyncPivots,
  compileCreateAsyncPivot,
  compilePivot,
  compilePostbackShare,
} from './compilePivot.js';
import { type DownloadedCsv, downloadCsv } from './downloadCsv.js';
import { AsyncPivotFailedError, ReportingHttpError, ReportingResponseError, ReportingTimeoutError } from './errors.js';
import { normalizeRow, normalizeRows } from './normalizeRows.js';
import type { AsyncPivot, PivotRequest, PivotResponse, PostbackShareKey, PostbackShareRequest } from './request.js';
import type { RetryPolicy } from './retryPolicy.js';
import { TokenCache } from './tokenCache.js';
import { GraphQLTransport } from './transport.js';
import { validatePivot } from './validatePivot.js';

export interface ReportingClientOptions {
  authUrl: string;
  /** The GraphQL endpoint, whole: `{base}/v1/graphql` (the sandbox also answers `{base}/graphql`). */
  graphqlUrl: string;
  clientId: string;
  clientSecret: string;
  fetch?: typeof fetch;
  /** Timeout of one HTTP attempt (default 60 s). */
  timeoutMs?: number;
  retry?: RetryPolicy;
  logger?: Logger;
  /** Requests, their time, retries, async jobs' final states and token mints, counted. */
  metrics?: BotMetrics;
  /** The clock: today for validation, and the overall timeout of waiting for an async job. */
  now?: () => Date;
  random?: () => number;
  /** Waits between polls and retries; must reject when `signal` aborts (the default, core's `sleep`, does). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export interface WaitOptions {
  /** Give up after this long (default 15 min). */
  timeoutMs?: number;
  /** First poll interval; grows ×1.5 with jitter up to `maxPollMs`. */
  pollMs?: number;
  maxPollMs?: number;
  /** Called whenever the status changes, e.g. to update a progress message. */
  onStatus?: (job: AsyncPivot) => void | Promise<void>;
  signal?: AbortSignal;
}

export interface RequestOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
  /** false: a timeout ends the call at once, unretried (the caller's own deadline set `timeoutMs`). */
  retryTimeout?: boolean;
}

const WAITING = new Set(['PENDING', 'QUEUED', 'RUNNING', 'UP_FOR_RETRY']);

/** How waiting for an async job ended, when it did not end READY (`pivotbot_reporting_async_jobs_total{state}`). */
function asyncJobEnd(error: unknown): string {
  if (error instanceof AsyncPivotFailedError) return 'failed';
  if (error instanceof CancelledError) return 'cancelled';
  if (error instanceof ReportingTimeoutError) return 'timed_out';
  return 'error';
}

/**
 * The Reporting Service client: every operation of the spec, validated against the catalog before
 * sending, with cached tokens, timeouts, retries for queries only, and typed errors.
 *
 * @example
 * const client = new ReportingClient({ authUrl, graphqlUrl, clientId, clientSecret });
 * const { rows, totals } = await client.pivot({ from: '2026-11-19', to: '2026-11-20', dimensions: [{ name: 'countryCode' }], metrics: [{ name: 'spend' }] });
 */
export class ReportingClient {
  readonly tokens: TokenCache;
  private readonly transport: GraphQLTransport;
  private readonly now: () => Date;
  private readonly random: () => number;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;

  constructor(private readonly options: ReportingClientOptions) {
    this.now = options.now ?? (() => new Date());
    this.random = options.random ?? Math.random;
    this.sleep = options.sleep ?? ((ms, signal) => sleep(ms, signal, 'polling an async pivot'));
    this.tokens = new TokenCache({
      authUrl: options.authUrl,
      clientId: options.clientId,
      clientSecret: options.clientSecret,
      ...(options.fetch ? { fetch: options.fetch } : {}),
      ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
      ...(options.logger ? { logger: options.logger } : {}),
      ...(options.metrics ? { metrics: options.metrics } : {}),
    });
    this.transport = new GraphQLTransport({
      graphqlUrl: options.graphqlUrl,
      tokens: this.tokens,
      random: this.random,
      sleep: this.sleep,
      ...(options.fetch ? { fetch: options.fetch } : {}),
      ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
      ...(options.retry ? { retry: options.retry } : {}),
      ...(options.logger ? { logger: options.logger } : {}),
      ...(options.metrics ? { metrics: options.metrics } : {}),
    });
  }

  /** Runs a synchronous `pivot`: rows keyed by output key, metric totals, and warnings. */
  async pivot(request: PivotRequest, options: RequestOptions = {}): Promise<PivotResponse> {
    const { warnings } = validatePivot(request, { now: this.now(), mode: 'sync' });
    const compiled = compilePivot(request);
    const data = await this.transport.execute<{ pivot?: { results?: unknown; totals?: unknown } }>(
      compiled.document,
      compiled.variables,
      { operation: 'pivot', idempotent: true, ...options },
    );
    return toPivotResponse(data.pivot, compiled, request, warnings);
  }

  /** Creates an async pivot job (status PENDING). Never retried automatically: each call makes a job. */
  async createAsyncPivot(request: PivotRequest, options: RequestOptions = {}): Promise<AsyncPivot> {
    validatePivot(request, { now: this.now(), mode: 'async' });
    const compiled = compileCreateAsyncPivot(request);
    const data = await this.transport.execute<{ createAsyncPivot?: { asyncPivot?: unknown } }>(
      compiled.document,
      compiled.variables,
      { operation: 'createAsyncPivot', idempotent: false, ...options },
    );
    return asAsyncPivot(data.createAsyncPivot?.asyncPivot, 'createAsyncPivot');
  }

  /** The status and parameters of one async pivot. */
  async asyncPivot(pivotId: string, options: RequestOptions = {}): Promise<AsyncPivot> {
    const compiled = compileAsyncPivot(pivotId);
    const data = await this.transport.execute<{ asyncPivot?: unknown }>(compiled.document, compiled.variables, {
      operation: 'asyncPivot',
      idempotent: true,
      ...options,
    });
    return asAsyncPivot(data.asyncPivot, 'asyncPivot');
  }

  /** The status of many async pivots in one request; with no ids, all of the caller's jobs. */
  async asyncPivots(pivotIds?: readonly string[], options: RequestOptions = {}): Promise<AsyncPivot[]> {
    const compiled = compileAsyncPivots(pivotIds);
    const data = await this.transport.execute<{ asyncPivots?: unknown }>(compiled.document, compiled.variables, {
      operation: 'asyncPivots',
      idempotent: true,
      ...options,
    });
    if (!Array.isArray(data.asyncPivots))
      throw new ReportingResponseError('asyncPivots answered something that is not a list');
    return data.asyncPivots.map((job) => asAsyncPivot(job, 'asyncPivots'));
  }

  /** The distribution of postback values (count, percentage, revenue) per requested key. */
  async postbackShare(request: PostbackShareRequest, options: RequestOptions = {}): Promise<PostbackShareKey[]> {
    const compiled = compilePostbackShare(request);
    const data = await this.transport.execute<{ postbackShare?: { results?: unknown } }>(
      compiled.document,
      compiled.variables,
      { operation: 'postbackShare', idempotent: true, ...options },
    );
    const results = data.postbackShare?.results;
    if (!Array.isArray(results)) throw new ReportingResponseError('postbackShare answered without a results list');
    return results.map(toPostbackKey);
  }

  /**
   * Polls a job until READY (returned) or FAILED (AsyncPivotFailedError), with backoff and jitter
   * under an overall timeout; PENDING, QUEUED, RUNNING and UP_FOR_RETRY keep it polling.
   */
  async waitForAsyncPivot(pivotId: string, options: WaitOptions = {}): Promise<AsyncPivot> {
    const jobs = this.options.metrics?.reporting.asyncJobs;
    if (!jobs) return this.pollAsyncPivot(pivotId, options);
    try {
      const job = await this.pollAsyncPivot(pivotId, options);
      jobs.inc({ state: 'ready' });
      return job;
    } catch (error) {
      jobs.inc({ state: asyncJobEnd(error) });
      throw error;
    }
  }

  /**
   * Time is read from the injected `now`. The overall deadline bounds every poll: a poll request
   * gets at most what is left of it, and one cut short that way ends the wait as the overall
   * timeout with the last known status, not as the request's own (shorter) timeout.
   */
  private async pollAsyncPivot(pivotId: string, options: WaitOptions): Promise<AsyncPivot> {
    const timeoutMs = options.timeoutMs ?? 15 * 60_000;
    const maxPollMs = options.maxPollMs ?? 10_000;
    const requestTimeoutMs = this.options.timeoutMs ?? 60_000;
    const deadline = this.now().getTime() + timeoutMs;
    let interval = options.pollMs ?? 500;
    let lastStatus: string | undefined;
    for (;;) {
      const remaining = deadline - this.now().getTime();
      if (remaining <= 0) throw waitTimedOut(pivotId, timeoutMs, lastStatus);
      const cutShort = remaining < requestTimeoutMs;
      let job: AsyncPivot;
      try {
        job = await this.asyncPivot(pivotId, {
          timeoutMs: cutShort ? remaining : requestTimeoutMs,
          ...(cutShort ? { retryTimeout: false } : {}),
          ...(options.signal ? { signal: options.signal } : {}),
        });
      } catch (error) {
        if (cutShort && error instanceof ReportingTimeoutError) {
          throw waitTimedOut(pivotId, timeoutMs, lastStatus, error);
        }
        throw error;
      }
      if (job.status !== lastStatus) {
        lastStatus = job.status;
        await options.onStatus?.(job);
      }
      if (job.status === 'READY') {
        if (!job.url) throw new ReportingResponseError(`async pivot ${pivotId} is READY without a url`);
        return job;
      }
      if (job.status === 'FAILED') throw new AsyncPivotFailedError(pivotId);
      if (!WAITING.has(job.status)) {
        this.options.logger?.warn({ pivotId, status: job.status }, 'unknown async pivot status; still polling');
      }
      const delayMs = Math.round(interval * (0.8 + 0.4 * this.random()));
      if (this.now().getTime() + delayMs >= deadline) throw waitTimedOut(pivotId, timeoutMs, job.status);
      if (options.signal?.aborted) throw new CancelledError(`waiting for async pivot ${pivotId}`);
      await this.sleep(delayMs, options.signal);
      interval = Math.min(maxPollMs, interval * 1.5);
    }
  }

  /**
   * Streams a READY job's CSV to `path`, checking its header against `request`'s names. A link the
   * storage refuses (403: a signed URL that expired, as after a restart hours later) is asked for
   * again once (`asyncPivot`), and a new link is tried once.
   */
  async downloadAsyncPivotCsv(
    job: AsyncPivot,
    path: string,
    request?: PivotRequest,
    options: RequestOptions = {},
  ): Promise<DownloadedCsv> {
    if (!job.url) throw new ReportingResponseError(`async pivot ${job.id} has no url yet (status ${job.status})`);
    const expectedColumns = request
      ? [...request.dimensions.map((d) => d.name), ...request.metrics.map((m) => m.name)]
      : undefined;
    const download = (url: string) =>
      downloadCsv(url, path, {
        ...(expectedColumns ? { expectedColumns } : {}),
        ...(this.options.fetch ? { fetch: this.options.fetch } : {}),
        ...options,
      });
    try {
      return await download(job.url);
    } catch (error) {
      if (!(error instanceof ReportingHttpError) || error.status !== 403) throw error;
      const fresh = await this.asyncPivot(job.id, options.signal ? { signal: options.signal } : {}).catch(
        () => undefined,
      );
      if (!fresh?.url || fresh.url === job.url) throw error;
      this.options.logger?.info({ pivotId: job.id }, 'CSV link refused (403); downloading from the new link');
      return await download(fresh.url);
    }
  }

  /** create → wait → download, for callers that just want the file. */
  async runAsyncPivot(
    request: PivotRequest,
    path: string,
    options: WaitOptions = {},
  ): Promise<{ job: AsyncPivot; csv: DownloadedCsv }> {
    const created = await this.createAsyncPivot(request);
    let last = created.status;
    await options.onStatus?.(created);
    const onStatus = async (job: AsyncPivot) => {
      if (job.status === last) return;
      last = job.status;
      await options.onStatus?.(job);
    };
    const job = await this.waitForAsyncPivot(created.id, { ...options, onStatus });
    const csv = await this.downloadAsyncPivotCsv(job, path, request, options.signal ? { signal: options.signal } : {});
    return { job, csv };
  }
}

/**
 * The end of waiting for an async job past its overall timeout. Not retryable: the job goes on
 * running on the service, and trying again would create another (the facts: "never blindly retry
 * the mutation, because that creates duplicate jobs").
 */
function waitTimedOut(pivotId: string, timeoutMs: number, lastStatus: string | undefined, cause?: unknown) {
  const waited =
    timeoutMs >= 60_000
      ? plural(Math.round(timeoutMs / 60_000), 'minute')
      : plural(Math.ceil(timeoutMs / 1000), 'second');
  return new ReportingTimeoutError(
    `waiting for async pivot ${pivotId} (${lastStatus ? `last status ${lastStatus}` : 'no status yet'})`,
    timeoutMs,
    {
      retryable: false,
      ...(cause === undefined ? {} : { cause }),
      userMessage: lastStatus
        ? `The Reporting Service job was still ${lastStatus.toLowerCase()} after ${waited}, so pivotbot stopped waiting for it (job ${pivotId}); run the report again later, or over a shorter range.`
        : `The Reporting Service did not say how the job was doing within ${waited}, so pivotbot stopped waiting for it (job ${pivotId}); run the report again later, or over a shorter range.`,
    },
  );
}

function plural(count: number, unit: string): string {
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}

function toPivotResponse(
  pivot: { results?: unknown; totals?: unknown } | undefined,
  compiled: CompiledPivot,
  request: PivotRequest,
  warnings: string[],
): PivotResponse {
  if (!pivot || typeof pivot !== 'object') throw new ReportingResponseError('pivot answered without a pivot object');
  const rows = normalizeRows(pivot.results, compiled.columns, 'pivot');
  const metricColumns = compiled.columns.filter((c) => c.kind === 'metric');
  const wantTotals = request.totals !== false && metricColumns.length > 0;
  if (!wantTotals) return { columns: compiled.columns, rows, warnings };
  const totals = normalizeRow(pivot.totals ?? {}, metricColumns, 'pivot totals');
  return { columns: compiled.columns, rows, totals, warnings };
}

function asAsyncPivot(value: unknown, operation: string): AsyncPivot {
  if (value === null || typeof value !== 'object')
    throw new ReportingResponseError(`${operation} answered without an asyncPivot`);
  const job = value as Partial<AsyncPivot>;
  if (typeof job.id !== 'string' || typeof job.status !== 'string') {
    throw new ReportingResponseError(`${operation} answered an asyncPivot without id or status`);
  }
  return job as AsyncPivot;
}

function toPostbackKey(value: unknown): PostbackShareKey {
  if (value === null || typeof value !== 'object')
    throw new ReportingResponseError('postbackShare answered a malformed result');
  const record = value as Record<string, unknown>;
  const results = Array.isArray(record.results) ? record.results : [];
  return {
    postbackKey: typeof record.postbackKey === 'string' ? record.postbackKey : null,
    totalCount: numberish(record.totalCount),
    totalRevenue: typeof record.totalRevenue === 'number' ? record.totalRevenue : null,
    results: results.map((r) => {
      const row = (r ?? {}) as Record<string, unknown>;
      return {
        value: row.value === null || row.value === undefined ? null : String(row.value),
        count: numberish(row.count),
        percentage: typeof row.percentage === 'number' ? row.percentage : null,
        revenue: typeof row.revenue === 'number' ? row.revenue : null,
      };
    }),
  };
}

function numberish(value: unknown): number | string | null {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && /^-?\d+$/.test(value)) {
    const n = Number(value);
    return Number.isSafeInteger(n) ? n : value;
  }
  return null;
}
