import { dirname } from 'node:path';
import type { Logger } from '../core/index.js';
import { type DecodedStore, decodeStoreText } from './decodeStoreText.js';
import { errnoCode, StoreCorruptError } from './StoreError.js';
import type { StoreFs } from './storeFs.js';
import { emptyStoreData, STORE_VERSION, type StoreData } from './storeSchema.js';
import { syncDirectory, writeFileDurably } from './writeFileDurably.js';

export interface LoadedStore {
  data: StoreData;
  /** How the data was obtained; anything but `file` must be written back at once. */
  source: 'file' | 'fresh' | 'backup' | 'migrated';
}

export interface LoadOptions {
  fs: StoreFs;
  logger: Logger;
  now: () => Date;
}

type ReadResult =
  | { kind: 'missing' }
  | { kind: 'ok'; decoded: DecodedStore; text: string }
  | { kind: 'bad'; error: StoreCorruptError };

/**
 * Reads the store at `path`, recovering when it is damaged:
 * - valid → used (migrated first if older, keeping the original as `<path>.v<N>.bak`);
 * - missing, no backup → first start, empty;
 * - damaged (unreadable, empty, truncated, invalid) or missing with a valid `<path>.bak` → the
 *   damaged file is moved aside to `<path>.corrupt-<time>` (never deleted), the backup is used,
 *   and this is logged at error level;
 * - damaged and no valid backup → `StoreCorruptError`, with every file left as it is: start-up
 *   stops rather than silently starting empty.
 * A file from a newer pivotbot throws `StoreTooNewError` and is left untouched.
 *
 * @example const { data, source } = await loadStoreFile('/srv/data/pivotbot.json', { fs, logger, now });
 */
export async function loadStoreFile(path: string, options: LoadOptions): Promise<LoadedStore> {
  const { fs, logger } = options;
  const backupPath = `${path}.bak`;
  const main = await readStore(fs, path);

  if (main.kind === 'ok') {
    const { decoded, text } = main;
    if (decoded.fromVersion === STORE_VERSION) return { data: decoded.data, source: 'file' };
    const keep = `${path}.v${decoded.fromVersion}.bak`;
    await writeFileDurably(keep, text, fs, { backup: false });
    logger.warn(
      { path, from: decoded.fromVersion, to: STORE_VERSION, original: keep },
      `store migrated from version ${decoded.fromVersion} to ${STORE_VERSION}; the original is kept as ${keep}`,
    );
    return { data: decoded.data, source: 'migrated' };
  }

  const backup = await readStore(fs, backupPath);
  if (main.kind === 'missing') {
    if (backup.kind === 'missing') {
      logger.info({ path }, 'no store file yet: starting with an empty store');
      return { data: emptyStoreData(), source: 'fresh' };
    }
    if (backup.kind === 'bad') {
      throw new StoreCorruptError(
        `${path} is missing and its backup ${backupPath} is unusable (${problemOf(backup.error)}). ` +
          `pivotbot will not start with an empty store while a backup exists: repair ${backupPath}, ` +
          'or move it away to start empty (everything it held will be lost).',
        { details: { path, backupPath } },
      );
    }
    logger.error(
      { path, backupPath },
      `STORE FILE MISSING: ${path} does not exist but ${backupPath} does; restored the backup ` +
        '(it may lack the very last change)',
    );
    return { data: backup.decoded.data, source: 'backup' };
  }

  if (backup.kind !== 'ok') {
    const why = backup.kind === 'missing' ? 'does not exist' : `is unusable too (${problemOf(backup.error)})`;
    throw new StoreCorruptError(
      `${main.error.message}. The backup ${backupPath} ${why}. pivotbot refuses to start ` +
        `with an empty store and has left the file as it is: repair ${path} from a copy, or move it away to ` +
        'start empty (everything it held will be lost).',
      { cause: main.error, details: { path, backupPath } },
    );
  }

  const aside = `${path}.corrupt-${options.now().toISOString().replace(/[:.]/g, '-')}`;
  await fs.rename(path, aside);
  await syncDirectory(fs, dirname(path));
  logger.error(
    { path, movedTo: aside, restoredFrom: backupPath, problem: problemOf(main.error) },
    `STORE CORRUPT: ${main.error.message}. Moved it aside to ${aside} and restored the backup ${backupPath} ` +
      '(it may lack the very last change). Inspect the moved file to recover anything missing.',
  );
  return { data: backup.decoded.data, source: 'backup' };
}

async function readStore(fs: StoreFs, path: string): Promise<ReadResult> {
  let text: string;
  try {
    text = await fs.readFile(path, 'utf8');
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return { kind: 'missing' };
    const reason = error instanceof Error ? error.message : String(error);
    return {
      kind: 'bad',
      error: new StoreCorruptError(`${path} cannot be read (${reason})`, { cause: error, details: { path } }),
    };
  }
  try {
    return { kind: 'ok', decoded: decodeStoreText(text, path), text };
  } catch (error) {
    if (error instanceof StoreCorruptError) return { kind: 'bad', error };
    throw error; // StoreTooNewError: never recovered from, never touched
  }
}

const problemOf = (error: StoreCorruptError): string => String(error.details.problem ?? error.message);
