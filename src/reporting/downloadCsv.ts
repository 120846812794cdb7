import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { CancelledError } from '../core/index.js';
import { ReportingHttpError, ReportingNetworkError, ReportingResponseError, ReportingTimeoutError } from './errors.js';
import { parseCsv } from './parseCsv.js';

export interface DownloadCsvOptions {
  /** The column names the CSV header must hold, in order. */
  expectedColumns?: readonly string[];
  /** Overall time limit of the download. */
  timeoutMs?: number;
  fetch?: typeof fetch;
  signal?: AbortSignal;
}

export interface DownloadedCsv {
  path: string;
  bytes: number;
  /** Data rows (records after the header), counted with RFC 4180 quoting. */
  rows: number;
  columns: string[];
}

/**
 * Streams the CSV at a signed URL to `path` without holding it in memory: no auth header (the URL
 * is its own credential), the header row checked against the requested names, written to a
 * temporary file and renamed into place only when complete.
 *
 * @example await downloadCsv(job.url, 'out/job.csv', { expectedColumns: ['countryCode', 'spend'] });
 */
export async function downloadCsv(url: string, path: string, options: DownloadCsvOptions = {}): Promise<DownloadedCsv> {
  const timeoutMs = options.timeoutMs ?? 10 * 60_000;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const onAbort = () => controller.abort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  if (options.signal?.aborted) controller.abort();
  const where = `GET ${safePath(url)}`;
  // Stopped by the caller (shutdown) or by our own timeout: two different errors.
  const stopped = () =>
    options.signal?.aborted ? new CancelledError(where) : new ReportingTimeoutError(where, timeoutMs);
  const temporary = `${path}.part`;
  try {
    let response: Response;
    try {
      response = await (options.fetch ?? fetch)(url, { signal: controller.signal });
    } catch (error) {
      if (controller.signal.aborted) throw stopped();
      throw new ReportingNetworkError(where, error);
    }
    if (!response.ok || !response.body) {
      const text = await response.text().catch(() => '');
      const hint = response.status === 403 ? 'the signed URL has expired or was altered' : text.slice(0, 200);
      throw new ReportingHttpError('GET', url, response.status, hint);
    }
    await mkdir(dirname(path), { recursive: true });
    const inspector = new CsvInspector(options.expectedColumns);
    try {
      await pipeline(
        Readable.fromWeb(response.body as unknown as WebReadableStream<Uint8Array>),
        inspector,
        createWriteStream(temporary),
      );
    } catch (error) {
      await rm(temporary, { force: true });
      if (error instanceof ReportingResponseError) throw error;
      if (controller.signal.aborted) throw stopped();
      throw new ReportingNetworkError(where, error);
    }
    inspector.assertComplete(where);
    await rename(temporary, path);
    return { path, bytes: inspector.bytes, rows: inspector.rows, columns: inspector.columns };
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
}

/** Passes bytes through while reading the header row and counting RFC 4180 records. */
class CsvInspector extends Transform {
  bytes = 0;
  rows = 0;
  columns: string[] = [];
  private headerText = '';
  private headerDone = false;
  private inQuotes = false;
  private lastByte = -1;

  constructor(private readonly expected: readonly string[] | undefined) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i] as number;
      if (byte === 34) this.inQuotes = !this.inQuotes;
      else if (byte === 10 && !this.inQuotes) {
        if (!this.headerDone) {
          this.headerText += chunk.subarray(0, i).toString('utf8');
          const error = this.finishHeader();
          if (error) {
            callback(error);
            return;
          }
        } else this.rows++;
      }
      this.lastByte = byte;
    }
    if (!this.headerDone) this.headerText += chunk.toString('utf8');
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    if (!this.headerDone && this.headerText.length > 0) {
      const error = this.finishHeader();
      if (error) {
        callback(error);
        return;
      }
    } else if (this.headerDone && this.lastByte !== 10 && this.lastByte !== -1) this.rows++;
    callback();
  }

  assertComplete(where: string): void {
    if (!this.headerDone) throw new ReportingResponseError(`${where} answered an empty CSV (no header row)`);
    if (this.inQuotes) throw new ReportingResponseError(`${where} ended inside a quoted field (truncated CSV)`);
  }

  private finishHeader(): ReportingResponseError | undefined {
    this.headerDone = true;
    this.columns = parseCsvLine(this.headerText.replace(/^\uFEFF/, '').replace(/\r$/, ''));
    const expected = this.expected;
    // The same names in any order: rows are read by name (readCsvRows), and the service's column
    // order is not documented.
    const sorted = (names: readonly string[]) => [...names].sort().join('\u0000');
    if (expected && sorted(expected) !== sorted(this.columns)) {
      return new ReportingResponseError(
        `the CSV header (${this.columns.join(', ')}) does not match the requested columns (${expected.join(', ')})`,
        { retryable: false },
      );
    }
    return undefined;
  }
}

/** Splits one CSV record (no embedded newlines) into fields, undoing RFC 4180 quoting. */
export function parseCsvLine(line: string): string[] {
  return parseCsv(line)[0] ?? [''];
}

/** The URL without its query string, so signatures never reach logs or messages. */
function safePath(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return '(invalid url)';
  }
}
