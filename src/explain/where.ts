import type { Where } from './types.js';

/** A stable key for a segment: its entries sorted by dimension name. */
export function whereKey(where: Where): string {
  return JSON.stringify(Object.entries(where).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Whether two segments can share a leaf: no dimension has a different value in each. */
export function overlaps(a: Where, b: Where): boolean {
  for (const [dimension, value] of Object.entries(a)) {
    // Own properties only: a dimension named `constructor` or `toString` is not Object's.
    if (Object.hasOwn(b, dimension) && b[dimension] !== value) return false;
  }
  return true;
}

/** The same segment with its dimensions in the candidates' order (others after, by name). */
export function orderWhere(where: Where, dimensions: readonly string[]): Where {
  const rank = (d: string) => {
    const i = dimensions.indexOf(d);
    return i < 0 ? dimensions.length : i;
  };
  const keys = Object.keys(where).sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(keys.map((k) => [k, where[k] as string]));
}

/** A value as the text shows it: an empty one is `(empty)`. */
export const valueText = (value: string): string => (value === '' ? '(empty)' : value);

/** `countryCode=BR · source=Vungle` (an empty value: `source=(empty)`). */
export function describeWhere(where: Where): string {
  return Object.entries(where)
    .map(([d, v]) => `${d}=${valueText(v)}`)
    .join(' · ');
}

/** The values alone, as the trade says them: `BR · Vungle`. */
export function valuesOf(where: Where): string {
  return Object.values(where).map(valueText).join(' · ');
}
