import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { type LoadedReports, type LoadOptions, loadReports } from './loadReports.js';

export interface ReportCacheOptions extends Omit<LoadOptions, 'now'> {
  now: () => Date;
  /** Re-check at most this often, and re-validate at least this often (checks depend on the clock). */
  maxAgeMs?: number;
}

/**
 * The bot's view of the reports folder: loaded once, reloaded when a file is added, removed or
 * changed (by size and modification time) or when the result is older than `maxAgeMs`. A `/pivot
 * list` then costs a `readdir` and a few `stat`s instead of parsing every definition again.
 *
 * @example const reports = reportCache('reports', { now: () => new Date() }); const loaded = await reports();
 */
export function reportCache(dir: string, options: ReportCacheOptions): () => Promise<LoadedReports> {
  const maxAgeMs = options.maxAgeMs ?? 60_000;
  let cached: { signature: string; at: number; loaded: LoadedReports } | undefined;
  let pending: Promise<LoadedReports> | undefined;

  const signatureOf = async (): Promise<string> => {
    const names = (await readdir(dir)).filter((name) => /\.ya?ml$/i.test(name)).sort();
    const stats = await Promise.all(names.map((name) => stat(join(dir, name))));
    return names.map((name, i) => `${name}:${stats[i]?.size}:${stats[i]?.mtimeMs}`).join('|');
  };

  const refresh = async (): Promise<LoadedReports> => {
    const now = options.now();
    const signature = await signatureOf().catch(() => 'unreadable');
    if (cached && cached.signature === signature && now.getTime() - cached.at < maxAgeMs) return cached.loaded;
    const { now: _clock, maxAgeMs: _age, ...loadOptions } = options;
    const loaded = await loadReports(dir, { ...loadOptions, now });
    cached = { signature, at: now.getTime(), loaded };
    return loaded;
  };

  return () => {
    // Concurrent callers share one check (a burst of `/pivot list` reads the folder once).
    pending ??= refresh().finally(() => {
      pending = undefined;
    });
    return pending;
  };
}
