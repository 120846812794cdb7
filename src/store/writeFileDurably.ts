import { dirname } from 'node:path';
import { errnoCode } from './StoreError.js';
import type { StoreFs } from './storeFs.js';

/** Errors meaning "this file system cannot do that", not "something went wrong". */
const UNSUPPORTED = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV', 'EINVAL', 'EISDIR']);

/** True for errors meaning the file system cannot do this (no hard links, no directory fsync). */
export const isUnsupported = (error: unknown): boolean => UNSUPPORTED.has(errnoCode(error) ?? '');

export interface DurableWriteOptions {
  /** Keep the file being replaced as `<path>.bak` (the last good state). */
  backup: boolean;
}

/**
 * Replaces `path` with `text` so that a crash or kill at any instant leaves either the old or
 * the new file, never a torn one, and the new one is on disk when the promise resolves:
 *
 * 1. write `<path>.tmp` and fsync it;
 * 2. (backup) hard-link the current file as `<path>.bak.tmp` and rename that over `<path>.bak`
 *    — a link copies nothing, and `<path>` itself is never missing;
 * 3. rename `<path>.tmp` over `<path>` (atomic on POSIX);
 * 4. fsync the directory so both renames survive a power cut.
 *
 * @example await writeFileDurably('data/pivotbot.json', json, nodeStoreFs, { backup: true });
 */
export async function writeFileDurably(path: string, text: string, fs: StoreFs, options: DurableWriteOptions) {
  const tmp = `${path}.tmp`;
  try {
    await writeAndSync(fs, tmp, text, 'w');
    if (options.backup) await keepBackup(path, fs);
    await fs.rename(tmp, path);
  } catch (error) {
    await removeIfPresent(fs, tmp).catch(() => undefined);
    throw error;
  }
  await syncDirectory(fs, dirname(path));
}

/** Writes a whole file through one handle and fsyncs it before closing. */
export async function writeAndSync(fs: StoreFs, path: string, text: string, flags: 'w' | 'wx'): Promise<void> {
  const handle = await fs.open(path, flags);
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function keepBackup(path: string, fs: StoreFs): Promise<void> {
  const bak = `${path}.bak`;
  const bakTmp = `${bak}.tmp`;
  await removeIfPresent(fs, bakTmp);
  try {
    await fs.link(path, bakTmp);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return; // first write: nothing to back up yet
    if (!isUnsupported(error)) throw error;
    // No hard links here (some network and FUSE file systems): copy instead.
    try {
      await fs.copyFile(path, bakTmp);
    } catch (copyError) {
      if (errnoCode(copyError) === 'ENOENT') return;
      throw copyError;
    }
    const handle = await fs.open(bakTmp, 'r+');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  }
  await fs.rename(bakTmp, bak);
}

/** fsyncs a directory so renames in it are durable; skipped where the platform cannot. */
export async function syncDirectory(fs: StoreFs, dir: string): Promise<void> {
  let handle: Awaited<ReturnType<StoreFs['open']>>;
  try {
    handle = await fs.open(dir, 'r');
  } catch (error) {
    if (isUnsupported(error)) return;
    throw error;
  }
  try {
    await handle.sync();
  } catch (error) {
    if (!isUnsupported(error)) throw error;
  } finally {
    await handle.close();
  }
}

export async function removeIfPresent(fs: StoreFs, path: string): Promise<void> {
  try {
    await fs.unlink(path);
  } catch (error) {
    if (errnoCode(error) !== 'ENOENT') throw error;
  }
}
