import type { z } from 'zod';
import { migrate, type RawDocument } from './migrations.js';
import { StoreCorruptError, StoreTooNewError } from './StoreError.js';
import { STORE_VERSION, type StoreData, storeDataSchema } from './storeSchema.js';

export interface DecodedStore {
  data: StoreData;
  /** The version the file was written at; below STORE_VERSION means it was migrated. */
  fromVersion: number;
}

/**
 * Turns the text of a store file into validated, current-version data.
 * Throws `StoreTooNewError` for a file from a newer pivotbot and `StoreCorruptError` for
 * anything else that is not a valid store (empty, truncated, not JSON, failing the schema).
 *
 * @example const { data } = decodeStoreText(await readFile(path, 'utf8'), path);
 */
export function decodeStoreText(text: string, source: string): DecodedStore {
  if (text.trim() === '') throw corrupt(source, 'the file is empty');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw corrupt(source, `not valid JSON (${(error as Error).message}); the file may be truncated`, error);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw corrupt(source, 'expected a JSON object at the top level');
  }
  const doc = parsed as RawDocument;
  const fromVersion = doc.version === undefined ? 0 : doc.version;
  if (typeof fromVersion !== 'number' || !Number.isInteger(fromVersion) || fromVersion < 0) {
    throw corrupt(source, `"version" must be a whole number, found ${JSON.stringify(doc.version)}`);
  }
  if (fromVersion > STORE_VERSION) throw new StoreTooNewError(source, fromVersion, STORE_VERSION);
  let migrated: RawDocument;
  try {
    migrated = migrate(doc, fromVersion);
  } catch (error) {
    throw corrupt(source, `migrating from version ${fromVersion} failed: ${(error as Error).message}`, error);
  }
  const result = storeDataSchema.safeParse(migrated);
  if (!result.success) throw corrupt(source, describeIssues(result.error));
  return { data: result.data, fromVersion };
}

/** "runs[3].startedAt: Invalid ISO datetime; …" — the first few problems, with their paths. */
export function describeIssues(error: z.ZodError, max = 5): string {
  const lines = error.issues.slice(0, max).map((issue) => `${formatPath(issue.path)}: ${issue.message}`);
  const more = error.issues.length > max ? ` (and ${error.issues.length - max} more)` : '';
  return `${lines.join('; ')}${more}`;
}

function formatPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(top level)';
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`)).join('');
}

function corrupt(source: string, problem: string, cause?: unknown): StoreCorruptError {
  return new StoreCorruptError(`${source} is not a valid pivotbot store: ${problem}`, {
    details: { path: source, problem },
    ...(cause === undefined ? {} : { cause }),
  });
}
