import type { Where } from './types.js';

/** A stable key for a segment: its entries sorted by dimension name. */
export function whereKey(where: Where): string {
  return JSON.stringify(Object.entries(where).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Whether two segments can share a leaf: no dimension has a different value in each. */
export function overlaps(a: Where, b: Where): boolean {
  for (const [dimension, value] of Object.entries(a)) {
    const other = b[dimension];
    if (other !== undefined && other !== value) return false;
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

/** `countryCode=BR · source=Vungle` */
export function describeWhere(where: Where): string {
  return Object.entries(where)
    .map(([d, v]) => `${d}=${v}`)
    .join(' · ');
}
