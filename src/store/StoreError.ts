import { ErrorCode, PivotbotError, type PivotbotErrorOptions } from '../core/index.js';

/** Base of every store failure; `code` says which kind, `details.path` where. */
export class StoreError extends PivotbotError {}

/** The store file (and its backup) cannot be read or fails validation; start-up stops. */
export class StoreCorruptError extends StoreError {
  constructor(message: string, options: PivotbotErrorOptions = {}) {
    super(ErrorCode.StoreCorrupt, message, { userMessage: 'pivotbot cannot read its saved state.', ...options });
  }
}

/** The file was written by a newer pivotbot; it is refused and left untouched. */
export class StoreTooNewError extends StoreError {
  constructor(path: string, found: number, supported: number) {
    super(
      ErrorCode.StoreTooNew,
      `${path} has store version ${found}, written by a newer pivotbot; this build understands up to version ${supported}. ` +
        'Refusing to open it so it is not overwritten: upgrade pivotbot, or point PIVOTBOT_STORE at another file.',
      { userMessage: 'pivotbot cannot read its saved state.', details: { path, found, supported } },
    );
  }
}

/** Another live process holds the store's lock file. */
export class StoreLockedError extends StoreError {
  constructor(message: string, details: Record<string, unknown>) {
    super(ErrorCode.StoreLocked, message, { userMessage: 'Another pivotbot is using the same state file.', details });
  }
}

/**
 * Persisting failed (disk full, read-only file system, permissions…). The change stays in
 * memory and is written by the next successful write, so retrying later may succeed.
 */
export class StoreWriteFailedError extends StoreError {
  constructor(path: string, cause: unknown) {
    const code = errnoCode(cause);
    super(
      ErrorCode.StoreWriteFailed,
      `Writing the store ${path} failed${code === undefined ? '' : ` (${code})`}: ${cause instanceof Error ? cause.message : String(cause)}`,
      {
        userMessage: 'pivotbot could not save its state right now; please try again shortly.',
        retryable: true,
        cause,
        details: code === undefined ? { path } : { path, errno: code },
      },
    );
  }
}

/** A method was called after `close()`. */
export class StoreClosedError extends StoreError {
  constructor(location: string) {
    super(ErrorCode.StoreClosed, `The store ${location} is closed.`);
  }
}

/** A record handed to the store would not pass validation when loaded back; nothing was changed. */
export class StoreInvalidRecordError extends StoreError {
  constructor(kind: string, problem: string) {
    super(ErrorCode.StoreInvalidRecord, `Refusing to store an invalid ${kind}: ${problem}`, { details: { kind } });
  }
}

/** An update named a record that does not exist. */
export class StoreNotFoundError extends StoreError {
  constructor(kind: string, id: string) {
    super(ErrorCode.StoreNotFound, `No ${kind} with id "${id}".`, { details: { kind, id } });
  }
}

/** A create named an id that is already taken. */
export class StoreConflictError extends StoreError {
  constructor(kind: string, id: string) {
    super(ErrorCode.StoreConflict, `A ${kind} with id "${id}" already exists.`, { details: { kind, id } });
  }
}

/** The errno code (`ENOSPC`, `EROFS`…) of a Node.js system error, if any. */
export function errnoCode(error: unknown): string | undefined {
  if (error === null || typeof error !== 'object' || !('code' in error)) return undefined;
  const code = (error as { code: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}
