import { ErrorCode, UserInputError } from '../core/index.js';

/**
 * A query that cannot be run, with the span of the offending word so the message can point at it
 * (`formatQueryError` draws a caret line under it).
 */
export class QueryError extends UserInputError {
  /** 0-based offset of the offending word in the query text. */
  readonly position: number;
  /** Its length (at least 1). */
  readonly length: number;

  constructor(message: string, position: number, length: number, suggestions: readonly string[] = []) {
    super(ErrorCode.QueryInvalid, message, { suggestions, details: { position, length: Math.max(1, length) } });
    this.position = Math.max(0, position);
    this.length = Math.max(1, length);
  }

  /** An error covering the span `[start, end)`. */
  static at(span: { start: number; end: number }, message: string, suggestions: readonly string[] = []): QueryError {
    return new QueryError(message, span.start, span.end - span.start, suggestions);
  }
}
