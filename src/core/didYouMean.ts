/**
 * "Did you mean …?" suggestions, in the manner of graphql-js: candidates within an edit distance
 * proportional to the input's length, closest first, compared case-insensitively.
 *
 * @example suggest('instals', ['installs', 'impressions']) // ['installs']
 */
export function suggest(input: string, candidates: Iterable<string>, max = 3): string[] {
  const needle = input.toLowerCase();
  const threshold = Math.floor(needle.length * 0.4) + 1;
  const scored: Array<{ name: string; distance: number }> = [];
  for (const name of candidates) {
    const lower = name.toLowerCase();
    const distance = lower === needle ? 0 : editDistance(needle, lower, threshold);
    // A prefix of at least three characters is a strong hint even when the rest is far off.
    const prefixHit = needle.length >= 3 && lower.startsWith(needle);
    if (distance <= threshold || prefixHit)
      scored.push({ name, distance: prefixHit ? Math.min(distance, threshold) : distance });
  }
  scored.sort((a, b) => a.distance - b.distance || a.name.localeCompare(b.name));
  return scored.slice(0, max).map((s) => s.name);
}

/** Formats suggestions as a sentence suffix: ` Did you mean "a" or "b"?`, or '' when there are none. */
export function didYouMean(suggestions: readonly string[]): string {
  if (suggestions.length === 0) return '';
  const quoted = suggestions.map((s) => `"${s}"`);
  const last = quoted.pop();
  return quoted.length === 0 ? ` Did you mean ${last}?` : ` Did you mean ${quoted.join(', ')} or ${last}?`;
}

/** Damerau–Levenshtein (optimal string alignment) distance, stopping early past `limit`. */
export function editDistance(a: string, b: string, limit = Number.POSITIVE_INFINITY): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  // Three rolling rows, reused across calls: suggestions measure hundreds of candidates per word.
  const width = b.length + 1;
  if (rows.length < width * 3) rows = new Uint32Array(width * 3 * 2);
  let prevPrev = 0;
  let prev = width;
  let row = width * 2;
  for (let j = 0; j < width; j++) rows[prev + j] = j;
  for (let i = 1; i <= a.length; i++) {
    rows[row] = i;
    let rowMin = i;
    const ai = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const bj = b.charCodeAt(j - 1);
      const cost = ai === bj ? 0 : 1;
      let value = Math.min(
        (rows[prev + j] as number) + 1,
        (rows[row + j - 1] as number) + 1,
        (rows[prev + j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && ai === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === bj) {
        value = Math.min(value, (rows[prevPrev + j - 2] as number) + 1);
      }
      rows[row + j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > limit) return limit + 1;
    const oldPrevPrev = prevPrev;
    prevPrev = prev;
    prev = row;
    row = oldPrevPrev;
  }
  return rows[prev + b.length] as number;
}

let rows = new Uint32Array(3 * 64);
