/**
 * From a segment's `where` (dimension → value, as group rows name them) to the spec's Filter input.
 * Name dimensions (`source`, `campaign`, `app`…) have no Filter field: the API filters them by id,
 * so a group-by on a name also asks for its id, and the ids seen under each name are remembered.
 */
import { getDimension, getInputType, type InputValue } from '../../reporting/index.js';
import type { Where } from '../types.js';

/** The value a group row carries where the API answered null (e.g. siteBundle before 3 months). */
export const NO_VALUE = '(none)';

/** Name dimensions and the id field the API filters them by. */
export const ID_OF_NAME: Readonly<Record<string, string>> = {
  source: 'sourceId',
  campaign: 'campaignId',
  app: 'appId',
  // An app's bundle has no filter field: it is filtered by the app's id.
  appBundle: 'appId',
  advertiser: 'advertiserId',
  group: 'groupId',
  adSet: 'adSetId',
  ad: 'adId',
};

export type Filter = Readonly<Record<string, InputValue>>;

const FILTER_FIELDS = new Map((getInputType('Filter')?.fields ?? []).map((f) => [f.name, f.type]));
const SET_OPERATORS = new Set(['equals', 'isIn', 'notEquals', 'isNotIn']);

/** An id as a group row carries it (a number, or its text), or undefined. */
function idOf(value: unknown): number | undefined {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) ? n : undefined;
}

/** Remembers which ids each name stood for in the answers seen so far (names may repeat across ids). */
export class NameIds {
  private readonly ids = new Map<string, Map<string, Set<number>>>();
  private readonly platforms = new Map<number, string>();

  learn(dimension: string, name: string, id: unknown): void {
    const n = idOf(id);
    if (n === undefined) return;
    const names = this.ids.get(dimension) ?? new Map<string, Set<number>>();
    this.ids.set(dimension, names);
    const set = names.get(name) ?? new Set<number>();
    names.set(name, set);
    set.add(n);
  }

  /** The platform of an app's id, as a group row with both showed it. */
  learnPlatform(appId: unknown, platform: unknown): void {
    const n = idOf(appId);
    if (n !== undefined && typeof platform === 'string') this.platforms.set(n, platform);
  }

  /** How many of the apps seen under an app's name are on `platform`. */
  appsOn(name: string, platform: string): number {
    return (this.of('app', name) ?? []).filter((id) => this.platforms.get(id) === platform).length;
  }

  of(dimension: string, name: string): readonly number[] | undefined {
    const set = this.ids.get(dimension)?.get(name);
    return set ? [...set].sort((a, b) => a - b) : undefined;
  }
}

/** The filter field and the values one `where` entry stands for, or why it cannot be filtered on. */
export function whereCondition(
  dimension: string,
  value: string,
  names: NameIds,
): { field: string; values: InputValue[] } | { refused: string } {
  if (value === NO_VALUE) return { refused: `${dimension} has no value there, and a filter cannot ask for "no value"` };
  const idField = ID_OF_NAME[dimension];
  if (idField !== undefined) {
    const ids = names.of(dimension, value);
    if (ids === undefined)
      return { refused: `${dimension} "${value}" has not been seen in a group-by yet, so its id is unknown` };
    return { field: idField, values: [...ids] };
  }
  const type = FILTER_FIELDS.get(dimension);
  if (type === undefined) return { refused: `the Reporting Service cannot filter on ${dimension}` };
  if (type === 'IntGenericFilter') {
    const n = Number(value);
    if (!/^-?\d+$/.test(value) || !Number.isSafeInteger(n)) return { refused: `${dimension} "${value}" is not an id` };
    return { field: dimension, values: [n] };
  }
  if (type === 'Boolean') return { refused: `${dimension} is a yes/no filter, not a segment` };
  return { field: dimension, values: [value] };
}

/**
 * The base filter narrowed to a segment: each `where` entry becomes `equals` (or `isIn` for a name
 * with several ids), intersected with what the base filter already says about that field. Returns
 * `empty` when the two cannot both hold (nothing to ask), or the reason a `where` cannot be sent.
 *
 * @example segmentFilter({ appId: { equals: 101 } }, { countryCode: 'BR' }, names) // { filter: { appId: { equals: 101 }, countryCode: { equals: 'BR' } } }
 */
export function segmentFilter(
  base: Filter,
  where: Where,
  names: NameIds,
): { filter: Filter } | { empty: true } | { refused: string } {
  const out: Record<string, InputValue> = { ...base };
  for (const [dimension, value] of Object.entries(where)) {
    if (!getDimension(dimension)) return { refused: `unknown dimension "${dimension}"` };
    const condition = whereCondition(dimension, value, names);
    if ('refused' in condition) return condition;
    const values = admitted(out[condition.field], condition.values);
    if (values.length === 0) return { empty: true };
    const previous = out[condition.field];
    const rest =
      previous !== null && typeof previous === 'object' && !Array.isArray(previous)
        ? Object.fromEntries(Object.entries(previous).filter(([op]) => !SET_OPERATORS.has(op)))
        : {};
    out[condition.field] = values.length === 1 ? { ...rest, equals: values[0] ?? null } : { ...rest, isIn: values };
  }
  return { filter: out };
}

/** The values among `values` that the base condition on the same field lets through. */
function admitted(base: InputValue | undefined, values: readonly InputValue[]): InputValue[] {
  if (base === undefined || base === null || typeof base !== 'object' || Array.isArray(base)) return [...values];
  const ops = base as Record<string, InputValue>;
  const same = (a: InputValue, b: InputValue) => String(a) === String(b);
  const inList = (list: InputValue | undefined, v: InputValue) => Array.isArray(list) && list.some((x) => same(x, v));
  return values.filter(
    (v) =>
      (ops.equals === undefined || same(ops.equals, v)) &&
      (ops.isIn === undefined || inList(ops.isIn, v)) &&
      (ops.notEquals === undefined || !same(ops.notEquals, v)) &&
      (ops.isNotIn === undefined || !inList(ops.isNotIn, v)),
  );
}
