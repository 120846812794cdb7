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
  let prevPrev: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min((prev[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, (prevPrev[j - 2] ?? 0) + 1);
      }
      row.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > limit) return limit + 1;
    prevPrev = prev;
    prev = row;
  }
  return prev[b.length] ?? 0;
}
