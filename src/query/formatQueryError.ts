import type { QueryError } from './QueryError.js';

/**
 * The error as text with the query underneath and a caret line under the offending word:
 *
 *     Unknown metric "instals". Did you mean "installs"?
 *       instals spend by countryCode
 *       ^^^^^^^
 *
 * Long queries are cut around the word so the caret stays under it.
 */
export function formatQueryError(query: string, error: QueryError, width = 100): string {
  const flat = query.replace(/[\r\n\t]/g, ' ');
  let start = Math.min(error.position, flat.length);
  let length = Math.max(1, Math.min(error.length, Math.max(1, flat.length - start)));
  let shown = flat;
  let shift = 0;
  if (flat.length > width) {
    shift = Math.max(0, Math.min(start - Math.floor(width / 3), flat.length - width));
    shown = (shift > 0 ? '…' : '') + flat.slice(shift, shift + width) + (shift + width < flat.length ? '…' : '');
    start = start - shift + (shift > 0 ? 1 : 0);
    length = Math.min(length, width);
  }
  return `${error.message}\n  ${shown}\n  ${' '.repeat(start)}${'^'.repeat(length)}`;
}
