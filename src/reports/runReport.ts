import { mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CancelledError, ErrorCode, type Logger, UserInputError } from '../core/index.js';
import {
  type PivotColumn,
  type PivotRequest,
  type PivotRow,
  type PostbackShareKey,
  type ReportingClient,
  ReportingError,
  ReportingTimeoutError,
  validatePivot,
  type WaitOptions,
} from '../reporting/index.js';
import type { ReportView } from '../view/index.js';
import { buildView } from './buildView.js';
import { chooseMode } from './chooseMode.js';
import { compileReport } from './compileReport.js';
import { writeCsv } from './csv.js';
import { totalsFromRows } from './describeColumns.js';
import { readCsvRows } from './readCsvRows.js';
import type { RangeSpec } from './resolveRange.js';
import type { ReportDefinition } from './schema.js';
import { toAsyncRequest } from './toAsyncRequest.js';

export interface RunDeps {
  client: Pick<ReportingClient, 'pivot' | 'runAsyncPivot' | 'postbackShare'>;
  /** The clock; ranges are resolved at this instant. */
  now: () => Date;
  /** Where the CSV and the JSON view go (`<outDir>/<id>.csv`, `<outDir>/<id>.json`). */
  outDir?: string;
  /** Writes the CSV of every row here instead (`pivotbot query --csv FILE`); no JSON. */
  csvPath?: string;
  /** Also write `<outDir>/<id>.json` (the view); default true. Slack runs skip it: nobody reads it there. */
  viewJson?: boolean;
  logger?: Logger;
  /** PIVOTBOT_TIMEZONE, for definitions that name no zone. */
  defaultTimeZone?: string;
  /** The caller's cancellation (shutdown): every call of the run stops at once, and nothing falls back to async. */
  signal?: AbortSignal;
  /** In `auto` mode, a sync call slower than this is abandoned and the request runs async (default 60 s). */
  syncTimeoutMs?: number;
  asyncWait?: WaitOptions;
  heavyRowEstimate?: number;
}

export interface RunOptions {
  range?: RangeSpec;
  mode?: 'sync' | 'async' | 'auto';
}

interface Fetched {
  columns: readonly PivotColumn[];
  rows: PivotRow[];
  totals?: PivotRow;
  warnings: readonly string[];
  mode: 'sync' | 'async';
}

/**
 * Runs a report once: compiles it, runs the pivot (sync, async, or `auto`: sync unless heavy or
 * too slow, then async exactly once), the comparison period and postbackShare, builds the
 * `ReportView`, and writes `<outDir>/<id>.csv` (all rows) and `<outDir>/<id>.json` (the view).
 *
 * @example const view = await runReport({ id: 'daily-kpi', definition }, { client, now: () => new Date(), outDir: 'out' });
 */
export async function runReport(
  report: { id: string; definition: ReportDefinition },
  deps: RunDeps,
  options: RunOptions = {},
): Promise<ReportView> {
  const { definition } = report;
  const now = deps.now();
  const compiled = compileReport(definition, {
    now,
    ...(deps.defaultTimeZone ? { defaultTimeZone: deps.defaultTimeZone } : {}),
    ...(options.range !== undefined ? { range: options.range } : {}),
  });
  const warnings: string[] = [];
  let result: Fetched | undefined;
  let previous: { rows: PivotRow[]; totals?: PivotRow } | undefined;
  if (compiled.request) {
    validatePivot(compiled.request, { now });
    const choice = chooseMode(compiled.request, options.mode ?? definition.mode, {
      ...(deps.heavyRowEstimate !== undefined ? { heavyRowEstimate: deps.heavyRowEstimate } : {}),
    });
    deps.logger?.info({ report: report.id, mode: choice.mode, reason: choice.reason }, 'running report');
    const auto = (options.mode ?? definition.mode) === 'auto';
    result = await fetchPivot(report.id, compiled.request, choice.mode, auto, deps);
    warnings.push(...result.warnings);
    if (compiled.comparison) {
      if (result.mode === 'async') {
        warnings.push('The comparison period was skipped: this run went async, and a run makes at most one job.');
      } else {
        const request = compiled.comparison.request;
        const prev = await optionalPart('The comparison period', warnings, report.id, deps, () =>
          deps.client.pivot(request, deps.signal ? { signal: deps.signal } : {}),
        );
        if (prev) previous = { rows: [...prev.rows], ...(prev.totals ? { totals: prev.totals } : {}) };
      }
    }
  }
  let postbacks: PostbackShareKey[] | undefined;
  if (compiled.postbacks) {
    const request = compiled.postbacks;
    const fetch = () => deps.client.postbackShare(request, deps.signal ? { signal: deps.signal } : {});
    // Beside a pivot the distribution is a part the report can go out without; alone, it is the report.
    postbacks = result
      ? await optionalPart('The postback distribution', warnings, report.id, deps, fetch)
      : await fetch();
  }
  const view = buildView({
    id: report.id,
    definition,
    compiled,
    ...(result
      ? {
          result: {
            columns: result.columns,
            rows: result.rows,
            ...(result.totals ? { totals: result.totals } : {}),
          },
        }
      : {}),
    ...(previous ? { previous } : {}),
    ...(postbacks ? { postbacks } : {}),
    mode: result?.mode ?? 'sync',
    warnings,
    generatedAt: deps.now(),
  });
  const rows = result?.rows ?? [];
  if (deps.csvPath !== undefined) await writeViewCsv(view, rows, deps.csvPath);
  else if (deps.outDir !== undefined) {
    await mkdir(deps.outDir, { recursive: true });
    if (definition.deliver?.csv !== false) await writeViewCsv(view, rows, join(deps.outDir, `${view.reportId}.csv`));
    if (deps.viewJson !== false) {
      await writeFile(join(deps.outDir, `${view.reportId}.json`), `${JSON.stringify(view, null, 2)}\n`);
    }
  }
  return view;
}

async function fetchPivot(
  id: string,
  request: PivotRequest,
  mode: 'sync' | 'async',
  auto: boolean,
  deps: RunDeps,
): Promise<Fetched> {
  if (mode === 'sync') {
    const slow = auto ? AbortSignal.timeout(deps.syncTimeoutMs ?? 60_000) : undefined;
    const signals = [slow, deps.signal].filter((s): s is AbortSignal => s !== undefined);
    const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
    try {
      const response = await deps.client.pivot(request, signal ? { signal } : {});
      return {
        columns: response.columns,
        rows: [...response.rows],
        ...(response.totals ? { totals: response.totals } : {}),
        warnings: response.warnings,
        mode: 'sync',
      };
    } catch (error) {
      // Our own deadline cancels the call (CancelledError): that is the slow case that runs async.
      // The caller's cancellation (shutdown) is not.
      const tooSlow =
        error instanceof ReportingTimeoutError ||
        (error instanceof CancelledError && slow?.aborted === true && deps.signal?.aborted !== true);
      if (!(auto && tooSlow && toAsyncRequest(request))) throw error;
      deps.logger?.warn({ report: id }, 'sync pivot timed out; running it async once');
      const fetched = await fetchAsync(id, request, deps);
      return {
        ...fetched,
        warnings: ['The synchronous query timed out, so it ran as an async job.', ...fetched.warnings],
      };
    }
  }
  return fetchAsync(id, request, deps);
}

async function fetchAsync(id: string, request: PivotRequest, deps: RunDeps): Promise<Fetched> {
  const plain = toAsyncRequest(request);
  if (!plain) {
    throw new UserInputError(
      ErrorCode.AsyncUnsupported,
      `${id}: async pivots take plain names; remove metric arguments and aliases, or run it sync.`,
    );
  }
  const warnings: string[] = [];
  const granularity = request.dimensions.find((d) => d.name === 'date')?.args?.granularity;
  if (granularity !== undefined && granularity !== 'DAILY') {
    warnings.push(`Async jobs choose their own date buckets; the ${String(granularity)} granularity was not sent.`);
  }
  const dir = deps.outDir ?? tmpdir();
  const path = join(dir, `.${id}-${Date.now()}.async.csv`);
  try {
    const { job } = await deps.client.runAsyncPivot(plain, path, deps.asyncWait ?? {});
    deps.logger?.info({ report: id, job: job.id }, 'async pivot ready');
    const columns: PivotColumn[] = [
      ...plain.dimensions.map((d) => ({ key: d.name, kind: 'dimension' as const, name: d.name, args: {} })),
      ...plain.metrics.map((m) => ({ key: m.name, kind: 'metric' as const, name: m.name, args: {} })),
    ];
    const rows = await readCsvRows(path, columns);
    return { columns, rows, totals: totalsFromRows(rows, columns), warnings, mode: 'async' };
  } finally {
    await rm(path, { force: true });
  }
}

/** Every row (not only the top N) as CSV; for a postbacks-only report, the distributions. */
async function writeViewCsv(view: ReportView, rows: readonly PivotRow[], path: string): Promise<void> {
  if (view.columns.length > 0) {
    await writeCsv(
      path,
      view.columns.map((c) => ({ key: c.key })),
      rows,
    );
  } else if (view.postbacks) {
    const flat = view.postbacks.flatMap((k) => k.results.map((r) => ({ postbackKey: k.postbackKey, ...r })));
    await writeCsv(
      path,
      ['postbackKey', 'value', 'count', 'percentage', 'revenue'].map((key) => ({ key })),
      flat,
    );
  } else return;
  view.csvPath = path;
}

/**
 * A secondary part of a report (its comparison period, its postback distribution): when the
 * Reporting Service fails it (after the client's own retries), the report goes out without it and
 * says so in a warning, instead of failing whole. A shutdown, or anything but a service failure,
 * still fails the run.
 */
async function optionalPart<T>(
  what: string,
  warnings: string[],
  reportId: string,
  deps: Pick<RunDeps, 'logger'>,
  fetch: () => Promise<T>,
): Promise<T | undefined> {
  try {
    return await fetch();
  } catch (error) {
    if (error instanceof CancelledError || !(error instanceof ReportingError)) throw error;
    deps.logger?.warn({ err: error, report: reportId, part: what }, 'report part failed; going out without it');
    warnings.push(`${what} could not be fetched, so it is missing here: ${error.userMessage}`);
    return undefined;
  }
}
