import { hostname as osHostname } from 'node:os';
import type { Logger } from '../core/index.js';
import { errnoCode, StoreLockedError, StoreWriteFailedError } from './StoreError.js';
import type { StoreFs } from './storeFs.js';
import { isUnsupported, removeIfPresent, writeAndSync } from './writeFileDurably.js';

/** What the lock file holds. */
export interface LockOwner {
  pid: number;
  hostname: string;
  startedAt: string;
}

export interface StoreLock {
  readonly path: string;
  readonly owner: LockOwner;
  /** Removes the lock file if it is still ours; safe to call twice. */
  release(): Promise<void>;
}

export interface AcquireLockOptions {
  fs: StoreFs;
  logger: Logger;
  now: () => Date;
  pid?: number;
  hostname?: string;
  /** Whether a process with this pid exists on this host. */
  isAlive?: (pid: number) => boolean;
}

/** Lock files this process holds, so a second open in the same process is refused too. */
const heldHere = new Set<string>();

/**
 * Takes `<store>.lock`, so one process at a time writes the store. A lock left by a process
 * that no longer exists on this host (or by an earlier life of this very pid, as with pid 1 in
 * a restarted container) is taken over with a warning; a live owner, or an owner on another
 * host that cannot be checked, makes this throw `StoreLockedError` naming it.
 *
 * @example const lock = await acquireStoreLock('data/pivotbot.json.lock', { fs, logger, now });
 */
export async function acquireStoreLock(lockPath: string, options: AcquireLockOptions): Promise<StoreLock> {
  const { fs, logger } = options;
  const owner: LockOwner = {
    pid: options.pid ?? process.pid,
    hostname: options.hostname ?? osHostname(),
    startedAt: options.now().toISOString(),
  };
  const isAlive = options.isAlive ?? pidIsAlive;

  for (let attempt = 0; attempt < 5; attempt++) {
    if (await createLockFile(fs, lockPath, owner)) {
      heldHere.add(lockPath);
      return {
        path: lockPath,
        owner,
        release: () => releaseLock(fs, lockPath, owner, logger),
      };
    }
    const holder = await readOwner(fs, lockPath);
    if (holder === 'missing') continue; // released meanwhile: try again
    if (holder !== 'unreadable') {
      const describe = `${lockPath} is held by pid ${holder.pid} on ${holder.hostname} (since ${holder.startedAt})`;
      if (holder.hostname !== owner.hostname) {
        throw new StoreLockedError(
          `${describe}, another host, which pivotbot cannot check. Only one pivotbot may use a store; ` +
            `if no pivotbot runs on ${holder.hostname} any more, delete ${lockPath} and start again.`,
          { lockPath, ...holder },
        );
      }
      const ourPid = holder.pid === owner.pid;
      if ((ourPid && heldHere.has(lockPath)) || (!ourPid && isAlive(holder.pid))) {
        throw new StoreLockedError(
          `${describe}, which is still running. Only one pivotbot may use a store: stop pid ${holder.pid} ` +
            'or point PIVOTBOT_STORE at another file.',
          { lockPath, ...holder },
        );
      }
    }
    await takeOver(fs, lockPath, holder, logger);
  }
  throw new StoreLockedError(`${lockPath} keeps changing hands; another process is competing for it.`, { lockPath });
}

/**
 * Writes the owner to a private file, then links it into place: the lock appears whole or not
 * at all. Without hard links it is created exclusively (`wx`) and written in place; a starter
 * racing that write could read it empty and take it over — a window of microseconds, on such
 * file systems only.
 */
async function createLockFile(fs: StoreFs, lockPath: string, owner: LockOwner): Promise<boolean> {
  const text = `${JSON.stringify(owner)}\n`;
  const tmp = `${lockPath}.${owner.pid}.tmp`;
  try {
    await writeAndSync(fs, tmp, text, 'w');
    try {
      await fs.link(tmp, lockPath);
    } catch (error) {
      if (!isUnsupported(error)) throw error;
      await writeAndSync(fs, lockPath, text, 'wx');
    }
    return true;
  } catch (error) {
    if (errnoCode(error) === 'EEXIST') return false;
    throw new StoreWriteFailedError(lockPath, error);
  } finally {
    await removeIfPresent(fs, tmp).catch(() => undefined);
  }
}

async function readOwner(fs: StoreFs, lockPath: string): Promise<LockOwner | 'missing' | 'unreadable'> {
  let text: string;
  try {
    text = await fs.readFile(lockPath, 'utf8');
  } catch (error) {
    return errnoCode(error) === 'ENOENT' ? 'missing' : 'unreadable';
  }
  try {
    const value = JSON.parse(text) as Partial<LockOwner>;
    if (typeof value.pid === 'number' && typeof value.hostname === 'string' && typeof value.startedAt === 'string') {
      return { pid: value.pid, hostname: value.hostname, startedAt: value.startedAt };
    }
  } catch {
    // fall through
  }
  return 'unreadable';
}

const sameOwner = (a: LockOwner | 'missing' | 'unreadable', b: LockOwner | 'unreadable'): boolean =>
  typeof a === 'object' && typeof b === 'object'
    ? a.pid === b.pid && a.hostname === b.hostname && a.startedAt === b.startedAt
    : a === b;

/**
 * Moves a stale lock aside and checks that what was moved is the stale one (not a fresh lock
 * another process created in the meantime, which is put back).
 */
async function takeOver(fs: StoreFs, lockPath: string, stale: LockOwner | 'unreadable', logger: Logger): Promise<void> {
  const aside = `${lockPath}.stale-${process.pid}`;
  try {
    await fs.rename(lockPath, aside);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return;
    throw new StoreWriteFailedError(lockPath, error);
  }
  const moved = await readOwner(fs, aside);
  if (!sameOwner(moved, stale)) {
    await fs.link(aside, lockPath).catch(() => undefined);
    await removeIfPresent(fs, aside);
    return;
  }
  await removeIfPresent(fs, aside);
  logger.warn(
    { lockPath, staleOwner: stale },
    stale === 'unreadable'
      ? `took over the unreadable store lock ${lockPath}`
      : `took over the store lock ${lockPath} left by pid ${stale.pid}, which is no longer running`,
  );
}

async function releaseLock(fs: StoreFs, lockPath: string, owner: LockOwner, logger: Logger): Promise<void> {
  if (!heldHere.has(lockPath)) return;
  heldHere.delete(lockPath);
  const current = await readOwner(fs, lockPath);
  if (!sameOwner(current, owner)) {
    logger.warn({ lockPath, current }, `the store lock ${lockPath} is no longer ours; leaving it in place`);
    return;
  }
  await removeIfPresent(fs, lockPath);
}

/** `kill(pid, 0)` checks existence without sending anything; EPERM means it exists. */
export function pidIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errnoCode(error) !== 'ESRCH';
  }
}
