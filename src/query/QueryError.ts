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
  /**
   * The suggestions say the words at fault another way (what they can mean: `ltv` → `eventValue`,
   * `cheapest` → `top`), not how they may be spelt; only these may stand in for a correctly spelt
   * word of the language.
   */
  readonly rephrased: boolean;

  constructor(
    message: string,
    position: number,
    length: number,
    suggestions: readonly string[] = [],
    rephrased = false,
  ) {
    super(ErrorCode.QueryInvalid, message, { suggestions, details: { position, length: Math.max(1, length) } });
    this.position = Math.max(0, position);
    this.length = Math.max(1, length);
    this.rephrased = rephrased;
  }

  /** An error covering the span `[start, end)`. */
  static at(span: { start: number; end: number }, message: string, suggestions: readonly string[] = []): QueryError {
    return new QueryError(message, span.start, span.end - span.start, suggestions);
  }

  /** An error covering `[start, end)` whose suggestions say the words another way (`rephrased`). */
  static rephrase(span: { start: number; end: number }, message: string, suggestions: readonly string[]): QueryError {
    return new QueryError(message, span.start, span.end - span.start, suggestions, true);
  }

  /** The same error, `by` characters further on (a reply read after a prefix). */
  shifted(by: number): QueryError {
    return new QueryError(this.message, this.position + by, this.length, this.suggestions, this.rephrased);
  }
}
