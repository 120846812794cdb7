/** Shared helpers of the store's integration tests: temp folders, a logger that records, fault injection. */
import { mkdtemp, open, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { createLogger, type Logger } from '../../src/core/index.js';
import type { StoreFs } from '../../src/store/index.js';

export async function withTempDir<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'pivotbot-store-'));
  try {
    return await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export interface RecordedLog {
  level: number;
  msg: string;
  [key: string]: unknown;
}

/** A real pino logger whose lines are kept, to check what an operator would see. */
export function recordingLogger(): { logger: Logger; lines: RecordedLog[] } {
  const lines: RecordedLog[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line.trim() !== '') lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: createLogger({ destination, level: 'debug' }), lines };
}

/** A system error as Node raises it (`code` set), for fault injection. */
export function systemError(code: string, syscall: string, path: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(`${code}: simulated, ${syscall} '${path}'`);
  error.code = code;
  error.syscall = syscall;
  error.path = path;
  return error;
}

/**
 * Wraps `open` so that opening a matching path for writing fails with `code` while `failing()`
 * is true — the disk-full / read-only file system a root-run test cannot get from chmod.
 */
export function faultyOpen(code: string, matches: (path: string) => boolean, failing: () => boolean) {
  return async (path: string, flags: string): ReturnType<StoreFs['open']> => {
    if (failing() && flags !== 'r' && matches(path)) throw systemError(code, 'open', path);
    return open(path, flags);
  };
}

export async function listDir(dir: string): Promise<string[]> {
  return (await readdir(dir)).sort();
}
